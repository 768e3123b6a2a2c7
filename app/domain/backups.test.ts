import { describe, expect, it } from "vitest";
import {
  backupPlace,
  countDifferences,
  isAgeFile,
  verifyPassed,
  type BackupVerifyReport,
  backupFileName,
  dumpedTable,
  dumpErrors,
  dumpFormat,
  expiredBackups,
  isTarHeader,
  toolMajorVersion,
  type RetainedBackup,
} from "./backups";

const day = 86_400_000;
const now = new Date("2026-11-28T03:17:00Z");
const ago = (days: number) => new Date(now.getTime() - days * day);
const backup = (id: string, kind: RetainedBackup["kind"], status: RetainedBackup["status"], days: number) => ({
  id,
  kind,
  status,
  createdAt: ago(days),
});

describe("expiredBackups", () => {
  it.each([
    [
      "a daily backup older than the retention goes",
      [backup("new", "daily", "done", 1), backup("old", "daily", "done", 15)],
      ["old"],
    ],
    ["one within the retention stays", [backup("new", "daily", "done", 1), backup("edge", "daily", "done", 13.9)], []],
    [
      "a manual backup stays however old",
      [backup("new", "daily", "done", 1), backup("mine", "manual", "done", 400)],
      [],
    ],
    [
      "an old failed daily backup goes",
      [backup("new", "daily", "done", 1), backup("bad", "daily", "failed", 20)],
      ["bad"],
    ],
    ["one still under way stays", [backup("new", "daily", "done", 1), backup("stuck", "daily", "running", 20)], []],
    [
      "the newest done backup stays though old, when every later one failed",
      [
        backup("last-good", "daily", "done", 30),
        backup("f1", "daily", "failed", 20),
        backup("f2", "daily", "failed", 1),
      ],
      ["f1"],
    ],
    [
      "a newer manual backup done lets the old daily one go",
      [backup("old", "daily", "done", 30), backup("mine", "manual", "done", 2)],
      ["old"],
    ],
  ] as const)("%s", (_name, backups, expected) => {
    expect(expiredBackups(backups, now, 14)).toEqual(expected);
  });
});

describe("pg_dump's verbose output", () => {
  it.each([
    ['pg_dump: dumping contents of table "public.users"', "public.users"],
    ['pg_dump: dumping contents of table "pgboss.j3f1"', "pgboss.j3f1"],
    ["pg_dump: reading extensions", null],
    ['pg_dump: processing data for table "public.users"', null],
    ['pg_dump: error: query failed: ERROR:  permission denied for table "users"', null],
  ])("%s → %s", (line, table) => {
    expect(dumpedTable(line)).toBe(table);
  });

  it("keeps pg_dump's error lines, without the prefix, for a failed backup's reason", () => {
    expect(
      dumpErrors([
        "pg_dump: reading schemas",
        "pg_dump: error: aborting because of server version mismatch",
        "pg_dump: detail: server version: 16.4; pg_dump version: 15.20",
      ]),
    ).toBe("aborting because of server version mismatch");
  });

  it.each([
    ["pg_dump (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)", 15],
    ["pg_restore (PostgreSQL) 16.4", 16],
    ["pg_dump (PostgreSQL) 9.6.24", 9],
    ["something else", null],
  ])("reads the major version of %s", (line, major) => {
    expect(toolMajorVersion(line)).toBe(major);
  });
});

describe("a backup file's format", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  it("knows pg_dump's custom format by its PGDMP header, a gzip stream by its magic, and nothing else", () => {
    expect(dumpFormat(bytes("PGDMP\x01\x0f"))).toBe("postgres");
    expect(dumpFormat(new Uint8Array([0x1f, 0x8b, 0x08, 0]))).toBe("pglite");
    expect(dumpFormat(bytes("PK\x03\x04"))).toBeNull();
    expect(dumpFormat(bytes("PGD"))).toBeNull();
  });

  it("knows a tar header by ustar at byte 257", () => {
    const block = new Uint8Array(512);
    block.set(bytes("ustar"), 257);
    expect(isTarHeader(block)).toBe(true);
    expect(isTarHeader(new Uint8Array(512))).toBe(false);
  });

  it("names a file by when it was asked for, its kind and its format", () => {
    expect(backupFileName("daily", "postgres", now)).toBe("memberhall-2026-11-28T031700Z-daily.dump");
    expect(backupFileName("manual", "pglite", now)).toBe("memberhall-2026-11-28T031700Z-manual.tar.gz");
  });
});

describe("a test restore's comparison", () => {
  it("names each table whose rows differ, and a table missing on either side", () => {
    expect(
      countDifferences({ "public.users": 3, "public.plans": 2 }, { "public.users": 3, "public.plans": 2 }),
    ).toEqual([]);
    expect(
      countDifferences(
        { "public.users": 3, "public.plans": 2, "public.gone": 1 },
        { "public.users": 2, "public.plans": 2, "public.new": 0 },
      ),
    ).toEqual([
      { table: "public.gone", expected: 1, found: null },
      { table: "public.new", expected: null, found: 0 },
      { table: "public.users", expected: 3, found: 2 },
    ]);
  });

  it("leaves aside the tables written to during an embedded dump, which have no count", () => {
    expect(countDifferences({ "public.users": 3 }, { "public.users": 3, "pgboss.job": 6 }, ["pgboss.job"])).toEqual([]);
    expect(countDifferences({ "public.users": 3 }, { "public.users": 2, "pgboss.job": 6 }, ["pgboss.job"])).toEqual([
      { table: "public.users", expected: 3, found: 2 },
    ]);
  });

  it("passes only with no difference, no error, and a stored copy that was not found changed", () => {
    const report: BackupVerifyReport = {
      tables: 2,
      rows: 5,
      differences: [],
      notCompared: [],
      storedCopyMatches: null,
      error: null,
      ms: 1,
    };
    expect(verifyPassed(report)).toBe(true);
    expect(verifyPassed({ ...report, storedCopyMatches: true })).toBe(true);
    expect(verifyPassed({ ...report, storedCopyMatches: false })).toBe(false);
    expect(verifyPassed({ ...report, error: "pg_restore failed" })).toBe(false);
    expect(verifyPassed({ ...report, differences: [{ table: "public.users", expected: 3, found: 2 }] })).toBe(false);
  });
});

describe("where a backup is, and what it is", () => {
  it("tells the places from the local copy and the store's time", () => {
    const at = new Date();
    expect(backupPlace({ localCopy: true, storedAt: null })).toBe("local");
    expect(backupPlace({ localCopy: false, storedAt: at })).toBe("store");
    expect(backupPlace({ localCopy: true, storedAt: at })).toBe("both");
    expect(backupPlace({ localCopy: false, storedAt: null })).toBe("nowhere");
  });

  it("names an encrypted file with .age added, and knows an age file by its first line", () => {
    const at = new Date("2026-12-07T03:17:00.123Z");
    expect(backupFileName("daily", "postgres", at, true)).toBe("memberhall-2026-12-07T031700Z-daily.dump.age");
    expect(backupFileName("manual", "pglite", at)).toBe("memberhall-2026-12-07T031700Z-manual.tar.gz");
    expect(isAgeFile(Buffer.from("age-encryption.org/v1\n-> X25519 abc\n"))).toBe(true);
    expect(isAgeFile(Buffer.from("age-encryption.org/v2\n"))).toBe(false);
    expect(isAgeFile(Buffer.from("PGDMP"))).toBe(false);
  });
});
