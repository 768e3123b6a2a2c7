import { describe, expect, it } from "vitest";
import { describeMailError, MAX_MAIL_ATTEMPTS, mailRetryDueAt, nextMailAttempt, statusAfterFailedTry } from "./mail";

const written = new Date("2026-11-22T10:00:00Z");

describe("mail retries", () => {
  it.each([
    [1, "2026-11-22T10:02:00.000Z"],
    [2, "2026-11-22T10:04:00.000Z"],
    [3, "2026-11-22T10:08:00.000Z"],
    [4, "2026-11-22T10:16:00.000Z"],
    [5, "2026-11-22T10:32:00.000Z"],
  ])("after %i tries the next one is due at %s", (attempts, due) => {
    expect(mailRetryDueAt(written, attempts).toISOString()).toBe(due);
  });

  it("never schedules the next try sooner than a minute after a failure", () => {
    const onTime = new Date("2026-11-22T10:02:00Z");
    expect(nextMailAttempt(written, 2, onTime).toISOString()).toBe("2026-11-22T10:04:00.000Z");
    const late = new Date("2026-11-22T11:00:00Z");
    expect(nextMailAttempt(written, 2, late).toISOString()).toBe("2026-11-22T11:01:00.000Z");
  });

  it("keeps an e-mail pending until its last try has failed", () => {
    expect(MAX_MAIL_ATTEMPTS).toBe(6);
    for (let attempts = 1; attempts < MAX_MAIL_ATTEMPTS; attempts += 1) {
      expect(statusAfterFailedTry(attempts)).toBe("pending");
    }
    expect(statusAfterFailedTry(MAX_MAIL_ATTEMPTS)).toBe("failed");
  });

  it("keeps a mail server's reply on one line, cut to 500 characters", () => {
    expect(
      describeMailError(new Error("Can't send mail - all recipients were rejected:\n550 5.1.1 No such user")),
    ).toBe("Can't send mail - all recipients were rejected: 550 5.1.1 No such user");
    expect(describeMailError(new Error("x".repeat(900)))).toHaveLength(500);
    expect(describeMailError("")).toBe("unknown error");
  });
});
