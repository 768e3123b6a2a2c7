import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { generateX25519Identity, identityToRecipient } from "age-encryption";
import pg from "pg";
import { http, HttpResponse } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { openDatabase, PGLITE_OPTIONS } from "~/db/client.server";
import { backups, memberArchives, memberImports } from "~/db/schema";
import { s3BackupStore, type S3Settings } from "~/providers/backup-store/s3.server";
import { countRows, dumpEmbedded } from "~/services/backups/dump.server";
import { encryptFile } from "~/services/backups/encryption.server";
import { RestoreRefused, restoreAndCount, restoreBackup, type RestoreTarget } from "~/services/backups/restore.server";
import type { StoreAccess } from "~/services/backups/restore-source.server";
import { installQueues, newBoss, type QueuedJob } from "~/services/queue.server";
import { createPostgresDatabase, createTestDatabase, drivers, type Driver, type TestDatabase } from "../helpers/db";
import { S3_BUCKET, s3, mockS3Settings } from "../mocks/s3";
import { createUser } from "../helpers/users";
import { mockServer } from "../mocks/server";

/**
 * `npm run restore` onto a new machine (decisions 043 and 064): a backup encrypted with age,
 * from a file or from the S3-compatible store, into an empty database; the work under way when
 * the backup was made settled so that nothing waits behind it.
 */

const PREFIX = "site-a/backups/";
const settings: S3Settings = mockS3Settings(PREFIX);
const storeAccess: StoreAccess = {
  configured: { bucket: S3_BUCKET, prefix: PREFIX },
  open: (bucket, prefix) => s3BackupStore({ ...settings, bucket, prefix }, { maxAttempts: 1 }),
};

// The queues of the work under way: the daily sweep (one waiting and one running at most) and an import's runs.
const dailySweep: QueuedJob = { name: "backups-daily", data: z.object({}), policy: "stately", timeoutSeconds: 14_400 };
const importRun: QueuedJob = { name: "members-import", data: z.object({ importId: z.string() }) };

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const scratch = (name: string) => mkdtempSync(path.join(os.tmpdir(), `memberhall-${name}-`));

type Query = (text: string, values?: unknown[]) => Promise<Array<Record<string, unknown>>>;

describe.each(drivers)("restoring an encrypted backup onto a new machine (%s)", (driver: Driver) => {
  const ext = driver === "postgres" ? "dump" : "tar.gz";
  const name = `memberhall-2026-12-07T031700Z-daily.${ext}.age`;
  let source: TestDatabase;
  let folder: string;
  let encrypted: string;
  let unencrypted: string;
  let identity: string;
  let expectedCounts: Record<string, number>;
  const cleanups: Array<() => Promise<void>> = [];

  /** The work under way as the backup is made: its own row, the sweep that makes it, an import, an archive. */
  async function workUnderWay() {
    const { db } = source;
    const admin = await createUser(db);
    await db.insert(backups).values({ kind: "daily", driver, fileName: name, status: "running", encryption: "age" });
    await db
      .insert(memberImports)
      .values({ adminId: admin.id, fileName: "members.csv", encoding: "utf-8", columns: [], status: "running" });
    await db
      .insert(memberImports)
      .values({ adminId: admin.id, fileName: "done.csv", encoding: "utf-8", columns: [], status: "done" });
    await db.insert(memberArchives).values({ userId: admin.id, requestedOn: "2026-12-07", status: "running" });
    const installer = await installQueues(source, [dailySweep, importRun]);
    await installer.send("backups-daily", {});
    await source.executeSql("update pgboss.job set state = 'active', started_on = now() where name = 'backups-daily'");
    await installer.send("backups-daily", {});
    await installer.stop({ graceful: false, close: false });
  }

  beforeAll(async () => {
    source = await createTestDatabase(driver);
    folder = scratch("restore-src");
    await workUnderWay();
    const query = async (text: string) => (await source.executeSql(text)).rows as Array<Record<string, unknown>>;
    expectedCounts = await countRows(query);
    const plain = path.join(folder, name.replace(/\.age$/, ""));
    if (driver === "pglite") await dumpEmbedded(source, plain);
    else {
      const dumped = spawnSync("pg_dump", ["--format=custom", `--file=${plain}`, `--dbname=${source.url}`], {
        encoding: "utf8",
      });
      expect(dumped.status, dumped.stderr).toBe(0);
    }
    identity = await generateX25519Identity();
    encrypted = path.join(folder, name);
    await encryptFile(plain, encrypted, await identityToRecipient(identity));
    unencrypted = plain;
  });
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
    await source?.dispose();
    rmSync(folder, { recursive: true, force: true });
  });
  beforeEach(() => s3.reset());

  /** A new machine's empty database: a new DATA_DIR, and on PostgreSQL a new database. */
  async function newMachine(overrides: Partial<RestoreTarget> = {}): Promise<RestoreTarget> {
    const dataDir = scratch("restore-dst");
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    let databaseUrl: string | undefined;
    if (driver === "postgres") {
      const created = await createPostgresDatabase();
      cleanups.push(created.drop);
      databaseUrl = created.url;
    }
    return { dataDir, databaseUrl, pgBinDir: undefined, identity, store: storeAccess, ...overrides };
  }

  /** Runs `read` over the restored database. */
  async function inRestored<T>(target: RestoreTarget, read: (query: Query) => Promise<T>): Promise<T> {
    if (target.databaseUrl) {
      const client = new pg.Client({ connectionString: target.databaseUrl });
      await client.connect();
      try {
        return await read(async (text, values) => (await client.query(text, values)).rows);
      } finally {
        await client.end();
      }
    }
    const client = await PGlite.create(path.join(target.dataDir, "pgdata"), PGLITE_OPTIONS);
    try {
      return await read(
        async (text, values) => (await client.query(text, values)).rows as Array<Record<string, unknown>>,
      );
    } finally {
      await client.close();
    }
  }

  /** Whether the target holds anything: its tables, or its data folder's files. */
  async function nothingWritten(target: RestoreTarget) {
    expect(readdirSync(target.dataDir)).toEqual([]);
    if (!target.databaseUrl) return;
    const tables = await inRestored(target, (query) =>
      query("select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')"),
    );
    expect(tables[0]!.n).toBe(0);
  }

  const refusalOf = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.fail("expected a refusal"),
      (error: unknown) => {
        expect(error).toBeInstanceOf(RestoreRefused);
        return (error as Error).message;
      },
    );

  async function putInStore(key: string, file: string) {
    await storeAccess.open!(S3_BUCKET, PREFIX).put(key, createReadStream(file));
  }

  it("restores an encrypted file with its key, its tables' rows as the backup held them", async () => {
    const target = await newMachine();
    const lines: string[] = [];

    const counts = await restoreAndCount(target, encrypted, (line) => lines.push(line));

    expect(counts).toEqual(expectedCounts);
    expect(lines.some((line) => line.startsWith(`decrypting ${name} into ${target.dataDir}`))).toBe(true);
    expect(lines.at(-1)).toMatch(/^restored: start the server on this database/);
    // The decrypted copy is gone with its folder; on the embedded database only pgdata is left.
    expect(readdirSync(target.dataDir)).toEqual(driver === "pglite" ? ["pgdata"] : []);
  });

  it("settles the work under way: its own row done as kept, the active job and the import and archive failed", async () => {
    const target = await newMachine();
    const lines: string[] = [];

    await restoreBackup(target, encrypted, (line) => lines.push(line));

    expect(lines).toContain(
      "marked failed, as under way when the backup was made: 1 job(s), 1 members import(s), 1 member data archive(s)",
    );
    await inRestored(target, async (query) => {
      const [row] = await query("select status, bytes, sha256, encryption, local_copy, stored_at, error from backups");
      expect({ ...row, bytes: Number(row!.bytes) }).toMatchObject({
        status: "done",
        bytes: statSync(encrypted).size,
        sha256: sha256(encrypted),
        encryption: "age",
        stored_at: null,
        error: null,
      });
      const jobs = await query(
        "select state::text as state, output from pgboss.job where name = 'backups-daily' order by created_on",
      );
      expect(jobs.map((job) => job.state)).toEqual(["failed", "created"]);
      expect((jobs[0]!.output as { message: string }).message).toMatch(
        /^It was under way when the backup this database was restored from was made/,
      );
      const imports = await query(
        "select file_name, status::text as status, error from member_imports order by file_name",
      );
      expect(imports).toEqual([
        { file_name: "done.csv", status: "done", error: null },
        {
          file_name: "members.csv",
          status: "failed",
          error: expect.stringMatching(/^The import was under way when the backup/),
        },
      ]);
      const [archive] = await query("select status::text as status, error from member_archives");
      expect(archive).toMatchObject({ status: "failed", error: expect.stringMatching(/please ask again/) });
    });
    // The daily sweep waiting behind the one that was running is taken at once.
    const handle = target.databaseUrl
      ? await openDatabase({ driver: "postgres", url: target.databaseUrl, poolMax: 2 })
      : await openDatabase({
          driver: "pglite",
          pglite: await PGlite.create(path.join(target.dataDir, "pgdata"), PGLITE_OPTIONS),
        });
    try {
      const boss = newBoss(
        { executeSql: (text, values) => handle.executeSql(text, values) },
        { supervise: false, schedule: false },
      );
      await boss.start();
      const taken = await boss.fetch("backups-daily");
      expect(taken).toHaveLength(1);
      await boss.stop({ graceful: false, close: false });
    } finally {
      await handle.close();
    }
  });

  it("refuses a key that is not the backup's, writing nothing", async () => {
    const target = await newMachine({ identity: await generateX25519Identity() });

    const message = await refusalOf(restoreBackup(target, encrypted, () => {}));

    expect(message).toMatch(/^The backup cannot be decrypted with this key/);
    await nothingWritten(target);
  });

  it("refuses an encrypted backup without a key, naming both settings, before reading it", async () => {
    const target = await newMachine({ identity: null });

    const message = await refusalOf(restoreBackup(target, encrypted, () => {}));

    expect(message).toBe(
      `${name} is encrypted (age): set BACKUP_IDENTITY to its private key (AGE-SECRET-KEY-1…) or BACKUP_IDENTITY_FILE to the key file npm run backup:keygen wrote`,
    );
    expect(message.split("\n")).toHaveLength(1);
    await nothingWritten(target);
  });

  it("downloads and decrypts a backup named by its s3:// address, recording where it is kept", async () => {
    await putInStore(name, encrypted);
    const target = await newMachine();
    const lines: string[] = [];

    const restored = await restoreAndCount(target, `s3://${S3_BUCKET}/${PREFIX}${name}`, (line) => lines.push(line));

    expect(restored).toEqual(expectedCounts);
    expect(lines[0]).toMatch(
      new RegExp(`^downloading ${name.replaceAll(".", "\\.")} \\((under 0\\.1|\\d+\\.\\d) MB\\) from the store$`),
    );
    expect(lines.some((line) => line.endsWith("as it downloads"))).toBe(true);
    expect(s3.calls.filter((call) => call.method === "GET" && call.key === `${PREFIX}${name}`)).toHaveLength(1);
    await inRestored(target, async (query) => {
      const [row] = await query("select status, bytes, sha256, local_copy, stored_at from backups");
      expect({ ...row, bytes: Number(row!.bytes) }).toMatchObject({
        status: "done",
        bytes: statSync(encrypted).size,
        sha256: sha256(encrypted),
        local_copy: false,
      });
      const storedAt = new Date(row!.stored_at as string | Date).getTime();
      expect(Math.abs(storedAt - s3.object(`${PREFIX}${name}`)!.lastModified.getTime())).toBeLessThan(1_000);
    });
    expect(readdirSync(target.dataDir)).toEqual(driver === "pglite" ? ["pgdata"] : []);
  });

  it("restores a stored backup that is not encrypted without a key, its row keeping the encrypted file's facts", async () => {
    // The backup's file decrypted by hand (age -d) and stored again: its row names the encrypted one.
    const plainName = path.basename(unencrypted);
    await putInStore(plainName, unencrypted);
    const target = await newMachine({ identity: null });
    const lines: string[] = [];

    await restoreBackup(target, `s3://${S3_BUCKET}/${PREFIX}${plainName}`, (line) => lines.push(line));

    expect(lines.some((line) => line.startsWith("decrypting"))).toBe(false);
    await inRestored(target, async (query) => {
      const [row] = await query("select file_name, status, sha256, encryption, local_copy, stored_at from backups");
      expect(row).toMatchObject({
        file_name: name,
        status: "done",
        sha256: null,
        encryption: "age",
        local_copy: true,
        stored_at: null,
      });
    });
    expect(readdirSync(target.dataDir)).toEqual(driver === "pglite" ? ["pgdata"] : []);
  });

  it("leaves nothing behind when the store fails during the download", async () => {
    await putInStore(name, encrypted);
    mockServer.use(
      http.get(/^https:\/\/s3\.backups\.test\/.*\.age$/, () =>
        HttpResponse.text(
          "<Error><Code>InternalError</Code><Message>We encountered an internal error.</Message></Error>",
          {
            status: 500,
            headers: { "Content-Type": "application/xml" },
          },
        ),
      ),
    );
    const target = await newMachine();

    const error = await restoreBackup(target, `s3://${S3_BUCKET}/${PREFIX}${name}`, () => {}).then(
      () => expect.fail("expected a failure"),
      (failure: unknown) => failure as Error,
    );

    expect(error).not.toBeInstanceOf(RestoreRefused);
    expect(error.message).toMatch(/answered 500 \(InternalError/);
    await nothingWritten(target);
  });

  it("takes with --latest the newest backup of the database's own kind in the configured store", async () => {
    const otherExt = driver === "postgres" ? "tar.gz" : "dump";
    await putInStore(`memberhall-2026-12-01T031700Z-daily.${ext}.age`, encrypted);
    await putInStore(`memberhall-2026-12-06T120000Z-manual.${ext}.age`, encrypted);
    await putInStore(`memberhall-2026-12-08T031700Z-daily.${otherExt}.age`, encrypted);
    await putInStore(name, encrypted);
    const target = await newMachine();
    const lines: string[] = [];

    await restoreBackup(target, "--latest", (line) => lines.push(line));

    const kind = driver === "postgres" ? "PostgreSQL backup (.dump)" : "embedded database's backup (.tar.gz)";
    expect(lines[0]).toBe(`the newest ${kind} in s3://${S3_BUCKET}/${PREFIX} is ${name}`);
    await inRestored(target, async (query) => {
      const [row] = await query("select status, local_copy from backups where file_name = $1", [name]);
      expect(row).toMatchObject({ status: "done", local_copy: false });
    });
  });

  it("refuses --latest when the store holds no backup of the database's kind, and an address that is not there", async () => {
    const otherExt = driver === "postgres" ? "tar.gz" : "dump";
    await putInStore(`memberhall-2026-12-08T031700Z-daily.${otherExt}.age`, encrypted);
    const target = await newMachine();

    expect(await refusalOf(restoreBackup(target, "--latest", () => {}))).toBe(
      `s3://${S3_BUCKET}/${PREFIX} holds no ${driver === "postgres" ? "PostgreSQL backup (.dump)" : "embedded database's backup (.tar.gz)"}, encrypted or not`,
    );
    expect(await refusalOf(restoreBackup(target, `s3://${S3_BUCKET}/${PREFIX}${name}`, () => {}))).toBe(
      `s3://${S3_BUCKET}/${PREFIX}${name} is not in the store`,
    );
    await nothingWritten(target);
  });
});
