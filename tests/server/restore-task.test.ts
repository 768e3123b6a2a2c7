import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { generateX25519Identity, identityToRecipient } from "age-encryption";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countRows, dumpEmbedded } from "~/services/backups/dump.server";
import { encryptFile } from "~/services/backups/encryption.server";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { tempDataDir } from "../helpers/server";

/**
 * `npm run restore` as the operator runs it (scripts/restore.mjs → the built server's restore
 * task): an encrypted backup with the key file, its `--counts` line, and its refusals.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const NAME = "memberhall-2026-12-07T031700Z-manual.tar.gz.age";

function restore(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, ["scripts/restore.mjs", ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", ...env } as unknown as NodeJS.ProcessEnv,
    encoding: "utf8",
  });
}

describe("npm run restore with an encrypted backup of the embedded database", () => {
  let source: TestDatabase;
  let file: string;
  let keyFile: string;
  let expected: Record<string, number>;

  beforeAll(async () => {
    source = await createTestDatabase("pglite");
    expected = await countRows(async (text) => (await source.executeSql(text)).rows as Array<Record<string, unknown>>);
    const dir = tempDataDir();
    const plain = path.join(dir, NAME.replace(/\.age$/, ""));
    await dumpEmbedded(source, plain);
    const identity = await generateX25519Identity();
    keyFile = path.join(dir, "key.txt");
    writeFileSync(keyFile, `# public key: ${await identityToRecipient(identity)}\n${identity}\n`, { mode: 0o600 });
    file = path.join(dir, NAME);
    await encryptFile(plain, file, await identityToRecipient(identity));
  });
  afterAll(async () => source?.dispose());

  it("restores it with BACKUP_IDENTITY_FILE and ends with the restored tables' rows on a `counts` line", () => {
    const dataDir = tempDataDir();

    const restored = restore([file, "--counts"], { DATA_DIR: dataDir, BACKUP_IDENTITY_FILE: keyFile });

    expect(restored.status, restored.stderr + restored.stdout).toBe(0);
    const lines = restored.stdout.trim().split("\n");
    expect(lines.some((line) => line.startsWith(`decrypting ${NAME} into ${dataDir}`))).toBe(true);
    expect(lines.at(-1)!.startsWith("counts ")).toBe(true);
    expect(JSON.parse(lines.at(-1)!.slice("counts ".length))).toEqual(expected);
    expect(readdirSync(dataDir)).toEqual(["pgdata"]);
  });

  it("refuses it without a key, in one line naming both settings, and makes no database", () => {
    const dataDir = tempDataDir();

    const refused = restore([file], { DATA_DIR: dataDir });

    expect(refused.status).toBe(2);
    expect(refused.stderr.trim().split("\n")).toEqual([
      `Not restored: ${NAME} is encrypted (age): set BACKUP_IDENTITY to its private key (AGE-SECRET-KEY-1…) or BACKUP_IDENTITY_FILE to the key file npm run backup:keygen wrote`,
    ]);
    expect(existsSync(path.join(dataDir, "pgdata"))).toBe(false);
  });

  it("refuses --latest without a store, and more than one backup named", () => {
    const dataDir = tempDataDir();

    const latest = restore(["--latest"], { DATA_DIR: dataDir });
    const two = restore([file, file], { DATA_DIR: dataDir });

    expect(latest.status).toBe(2);
    expect(latest.stderr).toMatch(/^Not restored: --latest reads the backup store: set BACKUP_STORE=s3 with S3_BUCKET/);
    expect(two.status).toBe(2);
    expect(two.stderr).toMatch(/^Name one backup: npm run restore -- FILE \| s3:\/\/bucket\/key \| --latest/);
    expect(existsSync(path.join(dataDir, "pgdata"))).toBe(false);
  });
});
