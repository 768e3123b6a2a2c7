import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { Decrypter, generateX25519Identity, identityToRecipient } from "age-encryption";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import {
  BACKUPS_DATA,
  newestBackupOnceSettled,
  STORE_PREFIX,
  storeEnv,
  type BackupsPage,
  type ListedBackup,
} from "../helpers/backup-store";
import { createPostgresDatabase, drivers, type Driver } from "../helpers/db";
import { startS3Standin, type S3Standin } from "../helpers/s3-standin";
import {
  logInAs,
  newDataDir,
  removeMadeDataDirs,
  startServer,
  tempDataDir,
  type RunningServer,
} from "../helpers/server";
import { valueOf } from "../helpers/metrics";

/**
 * The built server with its backups in an S3-compatible store (decision 064), over a real
 * socket to the stand-in: an admin's backup, test-restored as it is made, is kept in the store
 * only, encrypted to the operator's key; the download reads it from there; /metrics tells it;
 * and a store that does not answer leaves the backup failed, its file kept here until the
 * `backups-send` sweep sends it. On the embedded database, and on PostgreSQL when
 * TEST_DATABASE_URL is set.
 */

afterAll(removeMadeDataDirs);

const METRICS_TOKEN = "metrics-token-for-the-backup-store-test-0123";
const SHIFTED_CLOCK = pathToFileURL(path.resolve(import.meta.dirname, "../helpers/shifted-clock.mjs")).href;
const QUARTER_HOUR_MS = 15 * 60_000;
/** A test restore on the embedded database restores in a process of its own: some seconds on two busy cores. */
const BACKUP_WITHIN_MS = 120_000;

/** The dump's own bytes as its tools read them: PostgreSQL's as pg_restore writes them out in SQL, the embedded one's tarball unpacked. */
function dumpText(driver: Driver, dump: Uint8Array): string {
  if (driver === "pglite") return gunzipSync(dump).toString("latin1");
  const file = path.join(tempDataDir(), "backup.dump");
  writeFileSync(file, dump);
  const sql = spawnSync("pg_restore", ["--file=-", file], { encoding: "latin1", maxBuffer: 256 * 1024 * 1024 });
  expect(sql.status, sql.stderr).toBe(0);
  return sql.stdout;
}

describe.each(drivers)("backups in an S3-compatible store, on the built server (%s)", (driver) => {
  let standin: S3Standin;
  let server: RunningServer;
  let env: Record<string, string>;
  let dataDir: string;
  let identity: string;
  let admin: string;
  let memberEmail: string;
  let dropDatabase = async () => {};
  let made: ListedBackup;

  /** A server that went away says why in its own output. */
  const tellServerOutput = () => void process.stderr.write(`--- ${server.url}\n${server.output().slice(-4000)}\n`);
  const backupDir = () => path.join(dataDir, "backups");
  const filesHere = () => (existsSync(backupDir()) ? readdirSync(backupDir()) : []);
  const page = async () =>
    (await (await fetch(`${server.url}${BACKUPS_DATA}`, { headers: { cookie: admin } })).json()) as BackupsPage;
  const ask = (intent: "start" | "test-restore") =>
    fetch(`${server.url}/admin/backups`, {
      method: "POST",
      headers: { cookie: admin, origin: server.url },
      body: new URLSearchParams({ intent }),
      redirect: "manual",
    });

  beforeAll(async () => {
    standin = await startS3Standin({ dir: tempDataDir() });
    // The operator's key pair: only the public half goes to the server.
    identity = await generateX25519Identity();
    env = { ...storeEnv(standin, await identityToRecipient(identity)), METRICS_TOKEN };
    if (driver === "postgres") {
      const database = await createPostgresDatabase();
      dropDatabase = database.drop;
      env.DATABASE_URL = database.url;
      dataDir = tempDataDir();
    } else dataDir = newDataDir({});
    server = await startServer({ dataDir, env });
    admin = await logInAs(server.url, "admin");
    const members = (await (
      await fetch(`${server.url}/members?q=member&_data=${encodeURIComponent("routes/members._index")}`, {
        headers: { cookie: admin },
      })
    ).json()) as { list: { rows: { username: string; email: string }[] } };
    memberEmail = members.list.rows.find((row) => row.username === "member")!.email;
  });
  afterAll(async () => {
    await server?.stop();
    await standin?.close();
    await dropDatabase();
  });

  it(
    "makes a backup and test-restores it from /admin/backups: the restore passes, and the file is in the store only",
    { timeout: BACKUP_WITHIN_MS + 30_000 },
    async () => {
      onTestFailed(tellServerOutput);
      const asked = await ask("test-restore");
      expect(asked.status).toBe(302);
      made = await newestBackupOnceSettled(page, BACKUP_WITHIN_MS);
      // The report first: a failed test restore says which table differed.
      expect(made.verifyReport).toMatchObject({ differences: [], storedCopyMatches: true, error: null });
      expect(made).toMatchObject({
        status: "done",
        error: null,
        place: "store",
        encryption: "age",
        verifyStatus: "passed",
      });
      expect(made.fileName).toMatch(driver === "postgres" ? /-manual\.dump\.age$/ : /-manual\.tar\.gz\.age$/);
      // Neither the file nor the test restore's scratch folder is left on this server.
      expect(filesHere()).toEqual([]);
      const stored = readFileSync(standin.objectPath(`${STORE_PREFIX}${made.fileName}`));
      expect(stored.length).toBe(made.bytes);
      expect(createHash("sha256").update(stored).digest("hex")).toBe(made.sha256);
    },
  );

  it("keeps a member's data unreadable in the store, and readable with the operator's private key", async () => {
    expect(memberEmail).toMatch(/@/);
    const stored = readFileSync(standin.objectPath(`${STORE_PREFIX}${made.fileName}`));
    expect(stored.subarray(0, 22).toString("latin1")).toBe("age-encryption.org/v1\n");
    expect(stored.includes(memberEmail)).toBe(false);
    const decrypter = new Decrypter();
    decrypter.addIdentity(identity);
    const dump = await decrypter.decrypt(new Uint8Array(stored));
    // The same check finds the e-mail in the dump the file holds: its absence above is the encryption's doing.
    expect(dumpText(driver, dump)).toContain(memberEmail);
  });

  it("gives the stored bytes through the backup's download link", async () => {
    const gets = () => standin.requests.filter((request) => request.operation === "GetObject").length;
    const before = gets();
    const download = await fetch(`${server.url}/admin/backups/${made.id}/download`, { headers: { cookie: admin } });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="${made.fileName}"`);
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.equals(readFileSync(standin.objectPath(`${STORE_PREFIX}${made.fileName}`)))).toBe(true);
    expect(gets()).toBe(before + 1);
  });

  it("tells /metrics when the backup reached the store and that its test restore passed", async () => {
    const scraped = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scraped.status).toBe(200);
    const body = await scraped.text();
    const seconds = (iso: string | null) => Date.parse(iso!) / 1000;
    expect(valueOf(body, "memberhall_backup_last_stored_timestamp_seconds")).toBeCloseTo(seconds(made.storedAt), 0);
    expect(valueOf(body, "memberhall_backup_last_stored_age_seconds")).toBeGreaterThanOrEqual(0);
    expect(valueOf(body, "memberhall_backup_last_stored_age_seconds")).toBeLessThan(BACKUP_WITHIN_MS / 1000);
    expect(valueOf(body, "memberhall_backup_test_restore_passed")).toBe(1);
    expect(valueOf(body, "memberhall_backup_test_restore_timestamp_seconds")).toBeCloseTo(seconds(made.verifiedAt), 0);
  });

  it("fails a backup while the store is down, naming the store, and keeps its file here", async () => {
    standin.setDown(true);
    try {
      expect((await ask("start")).status).toBe(302);
      const failed = await newestBackupOnceSettled(page, BACKUP_WITHIN_MS);
      expect(failed).toMatchObject({ status: "failed", place: "local", encryption: "age" });
      expect(failed.id).not.toBe(made.id);
      expect(failed.error).toContain(`The backup store (${standin.url}, bucket ${standin.bucket}) is not available`);
      expect(failed.error).toContain(`The file is kept in ${backupDir()}`);
      expect(filesHere()).toEqual([failed.fileName]);
      expect(existsSync(standin.objectPath(`${STORE_PREFIX}${failed.fileName}`))).toBe(false);
    } finally {
      standin.setDown(false);
    }
  });

  // The sweep runs every quarter hour: the server starts again with its clock moved to just after
  // one. pg-boss corrects the app's clock by PostgreSQL's, so only the embedded database, whose
  // clock is the process's, can be moved this way.
  it.runIf(driver === "pglite")(
    "sends the kept file at the next backups-send sweep once the store answers again",
    { timeout: 120_000 },
    async () => {
      const [waiting] = (await page()).backups;
      expect(waiting?.status).toBe("failed");
      await server.stop();
      // pg-boss looks at its cron lines as it starts (unless it looked less than 30 s before) and
      // sends a line's job within a minute of its time: the clock moves to 5 s past the next
      // quarter hour at least 40 s away.
      const target = Math.ceil((Date.now() + 40_000) / QUARTER_HOUR_MS) * QUARTER_HOUR_MS + 5_000;
      server = await startServer({
        dataDir,
        env: { ...env, NODE_OPTIONS: `--import=${SHIFTED_CLOCK}`, CLOCK_OFFSET_MS: String(target - Date.now()) },
      });
      onTestFailed(tellServerOutput);
      const sent = await newestBackupOnceSettled(page, 60_000, (backup) => backup.status === "done");
      expect(sent).toMatchObject({ id: waiting!.id, status: "done", error: null, place: "store" });
      expect(filesHere()).toEqual([]);
      const stored = readFileSync(standin.objectPath(`${STORE_PREFIX}${sent.fileName}`));
      expect(createHash("sha256").update(stored).digest("hex")).toBe(waiting!.sha256);
    },
  );
});
