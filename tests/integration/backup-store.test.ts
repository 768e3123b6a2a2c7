import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { gunzipSync } from "node:zlib";
import { generateX25519Identity, identityToRecipient } from "age-encryption";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AppServices } from "~/context";
import { backups } from "~/db/schema";
import { dumpFormat, isAgeFile } from "~/domain/backups";
import {
  applyRetention,
  backupDownload,
  dailyBackupJob,
  listBackups,
  startBackup,
} from "~/services/backups/backups.server";
import { adoptStoredBackups, sendWaitingBackups } from "~/services/backups/stored.server";
import { decryptToFile } from "~/services/backups/encryption.server";
import { makeBackup } from "~/services/backups/making.server";
import type { Viewer } from "~/services/session.server";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { testContext } from "../helpers/context";
import { createUser } from "../helpers/users";
import { S3_ACCESS_KEY_ID, S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_SECRET_ACCESS_KEY, s3 } from "../mocks/s3";

/**
 * Backups sent to an S3-compatible store (decision 064), through the S3 adapter against S3's
 * wire: encrypted to the operator's age key before they leave, the local copy kept only until the
 * store has it, sent again when the store comes back, removed from the store by retention, and
 * test-restored as they are made.
 */

/** A dump's content as bytes to search: pg_restore's SQL of a PostgreSQL dump, the tarball of an embedded one. */
function openedDump(file: string, driver: string): Buffer {
  if (driver === "pglite") return gunzipSync(readFileSync(file));
  const sqlText = spawnSync("pg_restore", ["--data-only", "-f", "-", file], { maxBuffer: 1 << 28 });
  expect(sqlText.status, sqlText.stderr?.toString()).toBe(0);
  return sqlText.stdout;
}

const job = { id: "test", retryCount: 0, signal: new AbortController().signal };
const PREFIX = "memberhall/";
const EMAIL = "stored.bytes.check@example.org";

describe.each(drivers)("backups in an S3-compatible store (%s)", (driver) => {
  let database: TestDatabase;
  let services: AppServices;
  let dir: string;
  let identity: string;
  let admin: Viewer;
  const servicesWith = (env: Record<string, string>) =>
    testContext(database, {
      BACKUP_DIR: dir,
      BACKUP_STORE: "s3",
      S3_ENDPOINT,
      S3_BUCKET,
      S3_REGION,
      S3_ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY,
      S3_PREFIX: PREFIX,
      S3_FORCE_PATH_STYLE: "true",
      ...(database.url ? { DATABASE_URL: database.url } : {}),
      ...env,
    }).app!;
  const stored = (fileName: string) => s3.object(`${PREFIX}${fileName}`);
  const newest = async () => (await services.db.select().from(backups)).sort((a, b) => +b.createdAt - +a.createdAt)[0]!;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    dir = mkdtempSync(path.join(os.tmpdir(), "memberhall-backup-store-"));
    identity = await generateX25519Identity();
    services = servicesWith({ BACKUP_ENCRYPTION_RECIPIENT: await identityToRecipient(identity) });
    const user = await createUser(services.db, { email: EMAIL, admin: true });
    admin = { user, session: { ip: null }, clientIp: "192.0.2.40" } as unknown as Viewer;
  });
  beforeEach(() => s3.reset());
  afterAll(async () => {
    await database?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("encrypts the dump to the operator's key, sends it to the store, and keeps no copy here", async () => {
    await dailyBackupJob.run(services, {}, job);
    const made = await newest();
    expect(made).toMatchObject({ status: "done", encryption: "age", localCopy: false, error: null });
    expect(made.fileName).toMatch(/\.age$/);
    expect(made.storedAt).toBeInstanceOf(Date);
    expect(existsSync(path.join(dir, made.fileName))).toBe(false);
    const object = stored(made.fileName)!;
    expect(object.body.length).toBe(made.bytes);
    expect(isAgeFile(object.body)).toBe(true);
    // The stored bytes say nothing of a member: not an e-mail, not a table's name.
    expect(object.body.includes(Buffer.from(EMAIL))).toBe(false);
    expect(object.body.includes(Buffer.from("stored.bytes.check"))).toBe(false);
    expect(object.body.includes(Buffer.from("users"))).toBe(false);
    // What the store holds is the file the row describes, and the private key opens it as a dump.
    const { createHash } = await import("node:crypto");
    expect(createHash("sha256").update(object.body).digest("hex")).toBe(made.sha256);
    const plain = path.join(dir, "decrypted");
    await decryptToFile(Readable.from([object.body]), plain, identity);
    expect(dumpFormat(readFileSync(plain).subarray(0, 5))).toBe(driver);
    // Once decrypted and opened, the same file does hold the e-mail: the check above can fail.
    expect(openedDump(plain, driver).includes(Buffer.from(EMAIL))).toBe(true);
    rmSync(plain);
    expect(made.tableCounts!["public.users"]).toBeGreaterThanOrEqual(1);
    // Every server downloads it, from the store.
    const download = await backupDownload(services, admin, made.id);
    expect(download.found).toBe(true);
    if (!download.found) return;
    const chunks: Buffer[] = [];
    for await (const chunk of await download.body()) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(object.body)).toBe(true);
    const listed = await listBackups(services);
    expect(listed.backups.find((b) => b.id === made.id)).toMatchObject({ place: "store", encryption: "age" });
    expect(listed.store).toBe(`s3://${S3_BUCKET}/${PREFIX}`);
  });

  it("keeps the file here when the store is down, says why, and sends it once the store answers", async () => {
    await services.db.delete(backups);
    s3.failNext("unavailable", { times: 50 });
    await expect(dailyBackupJob.run(services, {}, job)).rejects.toThrow(/not available/);
    const failed = await newest();
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/The backup store .* is not available: it answered 503/);
    expect(failed.error).toMatch(/The file is kept in .* and sent to the store when it answers again\./);
    expect(failed.localCopy).toBe(true);
    expect(existsSync(path.join(dir, failed.fileName))).toBe(true);
    expect(stored(failed.fileName)).toBeUndefined();
    expect((await listBackups(services)).backups[0]).toMatchObject({ place: "local" });

    s3.clearFailures();
    expect(await sendWaitingBackups(services)).toBe(1);
    const sent = await newest();
    expect(sent).toMatchObject({ status: "done", error: null, localCopy: false });
    expect(existsSync(path.join(dir, sent.fileName))).toBe(false);
    expect(stored(sent.fileName)!.body.length).toBe(sent.bytes);
    expect(await sendWaitingBackups(services)).toBe(0);
  });

  it("keeps the local copy too when BACKUP_KEEP_LOCAL is set", async () => {
    await services.db.delete(backups);
    const keeping = servicesWith({
      BACKUP_ENCRYPTION_RECIPIENT: services.config.backups.encryptionRecipient!,
      BACKUP_KEEP_LOCAL: "true",
    });
    await dailyBackupJob.run(keeping, {}, job);
    const made = await newest();
    expect(made).toMatchObject({ status: "done", localCopy: true });
    expect(existsSync(path.join(dir, made.fileName))).toBe(true);
    expect((await listBackups(keeping)).backups[0]).toMatchObject({ place: "both" });
    rmSync(path.join(dir, made.fileName));
  });

  it("removes an expired daily backup from the store with its row", async () => {
    await services.db.delete(backups);
    await dailyBackupJob.run(services, {}, job);
    const old = await newest();
    await services.db
      .update(backups)
      .set({ createdAt: new Date(Date.now() - 40 * 86_400_000) })
      .where(eq(backups.id, old.id));
    await dailyBackupJob.run(services, {}, job);
    expect(stored(old.fileName)).toBeUndefined();
    expect((await services.db.select().from(backups)).map((b) => b.id)).not.toContain(old.id);
    expect(await applyRetention(services)).toBe(0);
  });

  it("lists the store's backups this database has no row of (made after the one it was restored from), and expires them", async () => {
    await services.db.delete(backups);
    await dailyBackupJob.run(services, {}, job);
    const made = await newest();
    // The database goes back to before a backup of Nov 2 that the store still has, beside
    // a backup of the other kind of database and a file that is no backup.
    await services.db.delete(backups);
    const bucket = s3.buckets.get(S3_BUCKET)!;
    const ext = driver === "postgres" ? "dump" : "tar.gz";
    const older = `memberhall-2026-11-02T031700Z-daily.${ext}.age`;
    bucket.set(`${PREFIX}${older}`, stored(made.fileName)!);
    bucket.set(
      `${PREFIX}memberhall-2026-11-02T031700Z-daily.${ext === "dump" ? "tar.gz" : "dump"}.age`,
      stored(made.fileName)!,
    );
    bucket.set(`${PREFIX}notes.txt`, stored(made.fileName)!);
    expect(await adoptStoredBackups(services)).toBe(2);
    expect(await adoptStoredBackups(services)).toBe(0);
    const [adopted] = await services.db.select().from(backups).where(eq(backups.fileName, older));
    expect(adopted).toMatchObject({
      kind: "daily",
      status: "done",
      encryption: "age",
      localCopy: false,
      bytes: made.bytes,
      sha256: null,
      createdAt: new Date("2026-11-02T03:17:00Z"),
    });
    const download = await backupDownload(services, admin, adopted!.id);
    expect(download.found).toBe(true);
    // Past its retention, it goes from the store like any daily backup, once a newer one is done.
    await dailyBackupJob.run(services, {}, job);
    expect(stored(older)).toBeUndefined();
    expect(stored(made.fileName)).toBeDefined();
  });

  it("test-restores a backup as it is made: the same rows in every table, and the stored copy read back", async () => {
    await services.db.delete(backups);
    const backupId = await startBackup(services, admin, true);
    await makeBackup(services, backupId);
    const made = await newest();
    expect(made).toMatchObject({ status: "done", verify: true, verifyStatus: "passed" });
    expect(made.verifyReport).toMatchObject({ differences: [], storedCopyMatches: true, error: null });
    expect(made.verifyReport!.tables).toBeGreaterThan(40);
    expect(made.verifyReport!.rows).toBeGreaterThan(0);
    expect(made.verifiedAt).toBeInstanceOf(Date);
    // Nothing of the scratch restore is left behind.
    expect(existsSync(dir) ? (await import("node:fs")).readdirSync(dir).filter((f) => f.startsWith(".")) : []).toEqual(
      [],
    );
  });

  it("reports a test restore that fails: a stored copy that is not the file made", async () => {
    await services.db.delete(backups);
    const backupId = await startBackup(services, admin, true);
    // The store keeps something other than what it was sent.
    const original = s3.answer.bind(s3);
    s3.answer = async (request, endpoint) => {
      const answer = await original(request, endpoint);
      if (request.method !== "GET" || new URL(request.url).searchParams.has("list-type")) return answer;
      const body = Buffer.from(await answer.arrayBuffer());
      body[body.length - 1]! ^= 1;
      return new Response(body, { status: answer.status, headers: answer.headers });
    };
    try {
      await makeBackup(services, backupId);
    } finally {
      s3.answer = original;
    }
    const made = await newest();
    expect(made).toMatchObject({ status: "done", verifyStatus: "failed" });
    expect(made.verifyReport).toMatchObject({ differences: [], storedCopyMatches: false });
  });
});

describe("a remote store without encryption", () => {
  it("is refused at start unless the operator allows it", async () => {
    const { loadConfig } = await import("~/config/config.server");
    const env = {
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "memberhall-config-")),
      BACKUP_STORE: "s3",
      S3_BUCKET,
      S3_ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY,
    };
    expect(() => loadConfig(env)).toThrow(/BACKUP_ENCRYPTION_RECIPIENT is required when BACKUP_STORE=s3/);
    expect(loadConfig({ ...env, BACKUP_ALLOW_UNENCRYPTED: "true" }).backups.encryptionRecipient).toBeUndefined();
    expect(() => loadConfig({ ...env, BACKUP_ENCRYPTION_RECIPIENT: "age1short" })).toThrow(/must be an age public key/);
  });
});
