import { describe, expect, it } from "vitest";
import type { AppConfig } from "~/config/config.server";
import { demoReminder, reminderClock, remindingTerminal } from "./demo-banner.server";

const config = { baseUrl: "http://localhost:3000", demoPassword: "memberhall-demo" } as AppConfig;
const logins = ["admin (admin)", "creator (NoL creator)"];

describe("the demo banner's reminder", () => {
  it("says the address and the logins in a few lines", () => {
    const text = demoReminder(config, logins);
    expect(text).toContain("memberhall is running at http://localhost:3000");
    expect(text).toContain("Log in as admin (admin), creator (NoL creator); password: memberhall-demo");
    expect(text.trim().split("\n")).toHaveLength(2);
  });

  it("is due after a hundred log lines, and again a hundred lines later", () => {
    const clock = reminderClock({ lines: 100, ms: 600_000 }, 0);
    const due = Array.from({ length: 250 }, (_, i) => clock.lineWritten(i)).flatMap((d, i) => (d ? [i + 1] : []));
    expect(due).toEqual([100, 200]);
  });

  it("is due at the first line ten minutes after it was shown, never while nothing is logged", () => {
    const clock = reminderClock({ lines: 100, ms: 600_000 }, 0);
    expect(clock.lineWritten(599_999)).toBe(false);
    expect(clock.lineWritten(3_600_000)).toBe(true);
    expect(clock.lineWritten(3_600_001)).toBe(false);
  });

  it("follows the log lines in the terminal once the banner has been shown, not before", () => {
    const written: string[] = [];
    let now = 0;
    const terminal = remindingTerminal(
      { write: (chunk) => written.push(chunk) },
      {
        every: { lines: 3, ms: 600_000 },
        now: () => now,
      },
    );
    for (let i = 0; i < 5; i += 1) terminal.write(`start ${i}\n`);
    expect(written).toEqual(["start 0\n", "start 1\n", "start 2\n", "start 3\n", "start 4\n"]);
    terminal.shown("REMINDER\n");
    for (let i = 0; i < 7; i += 1) {
      now += 1_000;
      terminal.write(`line ${i}\n`);
    }
    expect(written.slice(5)).toEqual([
      "line 0\n",
      "line 1\n",
      "line 2\n",
      "REMINDER\n",
      "line 3\n",
      "line 4\n",
      "line 5\n",
      "REMINDER\n",
      "line 6\n",
    ]);
  });
});
