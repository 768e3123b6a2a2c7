import { describe, expect, it } from "vitest";
import { cronWords } from "./cron-words";

describe("a schedule's cron line in words", () => {
  it.each([
    ["17 3 * * *", "every day at 03:17 UTC"],
    ["0 0 * * *", "every day at 00:00 UTC"],
    ["30 3,15 * * *", "every day at 03:30 and 15:30 UTC"],
    ["7 * * * *", "every hour at 7 minutes past"],
    ["0,30 * * * *", "every hour at 0 and 30 minutes past"],
    ["*/15 * * * *", "every 15 minutes"],
    ["* * * * *", "every minute"],
    ["5 */6 * * *", "every 6 hours at 5 minutes past"],
    ["17 3 * * 1", "every Monday at 03:17 UTC"],
    ["17 3 * * 0,6", "every Sunday and Saturday at 03:17 UTC"],
    ["17 3 * * 7", "every Sunday at 03:17 UTC"],
    ["0 9 * * 1-5", "every weekday (Monday to Friday) at 09:00 UTC"],
    ["17 3 1 * *", "on the 1st of every month at 03:17 UTC"],
    ["17 3 1,15 * *", "on the 1st and 15th of every month at 03:17 UTC"],
    ["0 12 22 1,7 *", "on the 22nd of January and July at 12:00 UTC"],
    ["17 3 * 12 *", "every day in December at 03:17 UTC"],
    ["7 * * * 2", "every Tuesday, every hour at 7 minutes past"],
  ])("%s → %s", (line, words) => {
    expect(cronWords(line)).toBe(words);
  });

  it("says a line it cannot put in words is the operator's own schedule, never the line itself", () => {
    for (const line of ["17 3 */2 * *", "17 3 1 * 1", "0-59/7 1-20/3 * * *", "99 3 * * *", "17 3 * *"]) {
      const words = cronWords(line);
      expect(words, line).toBe("on a schedule of its own, set by the server's operator");
      expect(words).not.toContain("*");
    }
  });
});
