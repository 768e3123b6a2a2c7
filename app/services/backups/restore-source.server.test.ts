import { describe, expect, it } from "vitest";
import { backupFileName } from "~/domain/backups";
import {
  countsAsked,
  driverOfName,
  megabytes,
  newestBackupName,
  RestoreRefused,
  restoreSourceOf,
} from "./restore-source.server";

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RestoreRefused);
    return (error as Error).message;
  }
  return expect.fail("expected a refusal");
};

describe("restoreSourceOf: npm run restore -- FILE | s3://bucket/key | --latest", () => {
  it.each([
    ["a file by its path", "backups/memberhall-20261207T031700Z-daily.dump", { from: "file" }],
    ["--latest", "--latest", { from: "latest" }],
    [
      "an object under a folder: the folder is the store's prefix",
      "s3://memberhall-backups/site-a/backups/memberhall-20261207T031700Z-daily.dump.age",
      {
        from: "s3",
        bucket: "memberhall-backups",
        prefix: "site-a/backups/",
        name: "memberhall-20261207T031700Z-daily.dump.age",
      },
    ],
    [
      "an object at the bucket's top: no prefix",
      "s3://memberhall-backups/memberhall-20261207T031700Z-daily.tar.gz",
      { from: "s3", bucket: "memberhall-backups", prefix: "", name: "memberhall-20261207T031700Z-daily.tar.gz" },
    ],
  ])("reads %s", (_case, argument, expected) => {
    expect(restoreSourceOf(argument)).toMatchObject(expected);
  });

  it.each([
    ["nothing", "", /^Name the backup: npm run restore -- FILE \| s3:\/\/bucket\/key \| --latest/],
    ["an option it does not know", "--newest", /--newest is not an option of the restore/],
    ["no bucket", "s3:///memberhall.dump", /names no bucket/],
    ["a bucket name S3 does not allow", "s3://Backups/memberhall.dump", /names no bucket/],
    ["no file after the folder", "s3://memberhall-backups/site-a/", /names no backup file/],
    ["a folder that climbs out", "s3://memberhall-backups/site-a/../site-b/x.dump", /names no backup file/],
    ["an empty folder part", "s3://memberhall-backups/site-a//x.dump", /names no backup file/],
  ])("refuses %s", (_case, argument, message) => {
    expect(refusal(() => restoreSourceOf(argument))).toMatch(message);
  });
});

describe("driverOfName: a backup's database by its file name", () => {
  it.each([
    ["memberhall-20261207T031700Z-daily.dump", "postgres"],
    ["memberhall-20261207T031700Z-daily.dump.age", "postgres"],
    ["memberhall-20261207T031700Z-manual.tar.gz", "pglite"],
    ["memberhall-20261207T031700Z-manual.tar.gz.age", "pglite"],
    ["members.csv", null],
    ["memberhall-20261207T031700Z-daily.age", null],
  ])("%s is %s", (name, driver) => {
    expect(driverOfName(name)).toBe(driver);
  });
});

describe("newestBackupName: --latest", () => {
  const at = (iso: string) => new Date(iso);
  const names = [
    backupFileName("daily", "postgres", at("2026-12-05T03:17:00Z")),
    `${backupFileName("daily", "postgres", at("2026-12-07T03:17:00Z"))}.age`,
    backupFileName("manual", "postgres", at("2026-12-06T15:02:09Z")),
    backupFileName("manual", "pglite", at("2026-12-08T09:00:00Z")),
    `${backupFileName("daily", "pglite", at("2026-12-04T03:17:00Z"))}.age`,
    "memberhall-9999-12-31T235959Z-notes.txt",
    "readme.dump",
  ];

  it("takes the newest by the time in its name, encrypted or not, of the database's own kind", () => {
    expect(newestBackupName(names, "postgres")).toBe("memberhall-2026-12-07T031700Z-daily.dump.age");
    expect(newestBackupName(names, "pglite")).toBe("memberhall-2026-12-08T090000Z-manual.tar.gz");
  });

  it("reads a later time as newer across kinds of backup and days", () => {
    const manual = backupFileName("manual", "postgres", at("2026-12-07T03:17:01Z"));
    expect(newestBackupName([...names, manual], "postgres")).toBe(manual);
  });

  it("reads a name whose date is written without dashes too", () => {
    expect(newestBackupName([...names, "memberhall-20261207T031800Z-daily.dump"], "postgres")).toBe(
      "memberhall-20261207T031800Z-daily.dump",
    );
  });

  it("finds none among files of another kind or name", () => {
    expect(newestBackupName(["readme.dump", "memberhall-latest.tar.gz"], "postgres")).toBeNull();
    expect(newestBackupName([], "pglite")).toBeNull();
  });
});

describe("megabytes: a size in a progress line", () => {
  it.each([
    [0, "0.0 MB"],
    [12_345, "under 0.1 MB"],
    [5_900_000, "5.9 MB"],
    [123_456_789, "123.5 MB"],
    [2_500_000_000, "2.5 GB"],
  ])("%d bytes read as %s", (bytes, words) => {
    expect(megabytes(bytes)).toBe(words);
  });
});

describe("countsAsked: RESTORE_PRINT_COUNTS", () => {
  it.each([
    [undefined, false],
    ["", false],
    ["1", true],
    ["true", true],
    ["0", false],
    ["off", false],
  ])("%s reads as %s", (value, expected) => {
    expect(countsAsked({ RESTORE_PRINT_COUNTS: value })).toBe(expected);
  });

  it("refuses a value that is neither true nor false", () => {
    expect(refusal(() => countsAsked({ RESTORE_PRINT_COUNTS: "maybe" }))).toBe(
      "RESTORE_PRINT_COUNTS must be true or false (1/0, yes/no, on/off)",
    );
  });
});
