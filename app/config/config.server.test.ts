import { mkdtempSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, publicConfig, type BackupStoreSettings } from "./config.server";

const tempDir = () => mkdtempSync(path.join(os.tmpdir(), "memberhall-config-"));

describe("loadConfig", () => {
  it("generates missing secrets once outside production and keeps them in DATA_DIR", () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(first.sessionSecret).toHaveLength(64);
    expect(second.sessionSecret).toBe(first.sessionSecret);
    expect(second.stateSecret).toBe(first.stateSecret);
    expect(second.statePrivateKey).toBe(first.statePrivateKey);
    const file = path.join(dataDir, "secrets.json");
    expect(JSON.parse(readFileSync(file, "utf8")).SESSION_SECRET).toBe(first.sessionSecret);
    expect(statSync(file).mode & 0o077).toBe(0);
  });

  it("prefers a secret from the environment over the stored one", () => {
    const dataDir = tempDir();
    loadConfig({ DATA_DIR: dataDir });
    const secret = "s".repeat(40);
    expect(loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: secret }).sessionSecret).toBe(secret);
  });

  it("derives the public key from the private key", () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      STATE_PRIVATE_KEY: "0000000000000000000000000000000000000000000000000000000000000001",
    });
    // 1·G, the secp256k1 generator point, compressed.
    expect(config.statePublicKey).toBe("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798");
  });

  it("defaults BASE_URL to localhost on PORT and the forms address under it", () => {
    const config = loadConfig({ DATA_DIR: tempDir(), PORT: "4100" });
    expect(config.baseUrl).toBe("http://localhost:4100");
    expect(config.formsUrl).toBe("http://localhost:4100/api/forms");
  });

  it("reaches Proof's test host (Fairfax) or its production host, unless PROOF_API_BASE names another", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).proofApiBase).toBe("https://api.fairfax.proof.com");
    expect(loadConfig({ DATA_DIR: tempDir(), PROOF_ENVIRONMENT: "production" }).proofApiBase).toBe(
      "https://api.proof.com",
    );
    const local = loadConfig({
      DATA_DIR: tempDir(),
      PROOF_ENVIRONMENT: "production",
      PROOF_API_BASE: "http://127.0.0.1:4010",
    });
    expect(local.proofApiBase).toBe("http://127.0.0.1:4010");
    expect(local.notarizeCostCents).toBe(2500);
  });

  it("never seeds demo data in production unless SEED_DEMO is set", () => {
    const production = {
      NODE_ENV: "production",
      DATA_DIR: tempDir(),
      BASE_URL: "https://members.example.org",
      SESSION_SECRET: "a".repeat(32),
      STATE_SECRET: "b".repeat(32),
      STATE_PRIVATE_KEY: "1".repeat(64),
    };
    expect(loadConfig(production).seedDemo).toBe(false);
    expect(loadConfig({ ...production, SEED_DEMO: "1" }).seedDemo).toBe(true);
    expect(loadConfig({ DATA_DIR: tempDir() }).seedDemo).toBe(true);
  });

  it("runs the demo on React's production build with generated secrets and demo data, never as a deployment", () => {
    const demo = loadConfig({ NODE_ENV: "production", DEMO: "1", DATA_DIR: tempDir() });
    expect(demo).toMatchObject({ nodeEnv: "production", demo: true, isProduction: false, seedDemo: true });
    expect(demo.sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(demo.baseUrl).toBe("http://localhost:3000");
    expect(() => loadConfig({ NODE_ENV: "production", DEMO: "0", DATA_DIR: tempDir() })).toThrow(
      "BASE_URL is required when NODE_ENV=production",
    );
  });
});

describe("publicConfig", () => {
  it("reports test modes from the providers in use", () => {
    const sandbox = publicConfig(loadConfig({ DATA_DIR: tempDir() }));
    expect(sandbox).toMatchObject({ isTestStripe: true, isTestNotarize: true, lrm: null, community: "default" });
    const live = publicConfig(
      loadConfig({
        DATA_DIR: tempDir(),
        PAYMENTS: "stripe",
        STRIPE_SECRET_KEY: "sk_live_abc",
        STRIPE_PUBLISHABLE_KEY: "pk_live_abc",
        STRIPE_WEBHOOK_SECRET: "whsec_abc",
        NOTARY: "proof",
        PROOF_API_KEY: "key",
        PROOF_WEBHOOK_SECRET: "key",
        PROOF_ENVIRONMENT: "production",
        LRM_URL: "https://learn.example.org",
      }),
    );
    expect(live).toMatchObject({ isTestStripe: false, isTestNotarize: false, lrm: "https://learn.example.org" });
  });

  it("never exposes a secret", () => {
    const config = loadConfig({ DATA_DIR: tempDir() });
    const sent = JSON.stringify(publicConfig(config));
    for (const secret of [config.sessionSecret, config.stateSecret, config.statePrivateKey]) {
      expect(sent).not.toContain(secret);
    }
  });
});

describe("backup store settings", () => {
  const storeOf = (env: Record<string, string>): BackupStoreSettings =>
    loadConfig({ DATA_DIR: tempDir(), ...env }).backupStore;

  it("keeps backups in BACKUP_DIR unless told otherwise", () => {
    expect(storeOf({})).toEqual({ kind: "local" });
  });

  it("reads the S3 settings, the prefix as a folder", () => {
    expect(
      storeOf({
        BACKUP_STORE: "s3",
        S3_ENDPOINT: "http://minio.internal:9000/",
        S3_BUCKET: "backups",
        S3_ACCESS_KEY_ID: "minio",
        S3_SECRET_ACCESS_KEY: "minio-secret",
        S3_PREFIX: "/memberhall/",
        S3_FORCE_PATH_STYLE: "true",
        BACKUP_ALLOW_UNENCRYPTED: "true",
      }),
    ).toEqual({
      kind: "s3",
      endpoint: "http://minio.internal:9000",
      bucket: "backups",
      region: "us-east-1",
      accessKeyId: "minio",
      secretAccessKey: "minio-secret",
      prefix: "memberhall/",
      forcePathStyle: true,
    });
  });

  it("requires the bucket and both keys with BACKUP_STORE=s3, in every mode", () => {
    expect(() => storeOf({ BACKUP_STORE: "s3" })).toThrow(
      /S3_BUCKET is required when BACKUP_STORE=s3; S3_ACCESS_KEY_ID is required when BACKUP_STORE=s3; S3_SECRET_ACCESS_KEY is required/,
    );
    expect(() => storeOf({ BACKUP_STORE: "s3", S3_BUCKET: "Bad_Bucket", S3_SECRET_ACCESS_KEY: "x" })).toThrow(
      /S3_BUCKET must be a bucket name/,
    );
    expect(() => storeOf({ BACKUP_STORE: "s3", S3_PREFIX: "a/../b" })).toThrow(/S3_PREFIX must be a folder/);
    expect(() => storeOf({ BACKUP_STORE: "nas" })).toThrow(/BACKUP_STORE must be local or s3 \(got "nas"\)/);
  });
});
