import { describe, expect, it } from "vitest";
import { settledWords } from "./restore-settle.server";

describe("settledWords: what the restore marked failed", () => {
  const none = { backup: true, backupsFailed: 0, jobsFailed: 0, importsFailed: 0, archivesFailed: 0 };

  it("says nothing when nothing else was under way", () => {
    expect(settledWords(none)).toBeNull();
  });

  it("names each kind of work it marked failed, with how many", () => {
    expect(settledWords({ ...none, jobsFailed: 2, importsFailed: 1 })).toBe(
      "marked failed, as under way when the backup was made: 2 job(s), 1 members import(s)",
    );
  });
});
