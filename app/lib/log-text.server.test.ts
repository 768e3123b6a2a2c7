import { describe, expect, it } from "vitest";
import { textLine } from "./log-text.server";

describe("text log lines", () => {
  it("reads a pino line as time, level, message and the other fields", () => {
    const line = JSON.stringify({
      level: 30,
      time: Date.UTC(2026, 10, 24, 12, 4, 5),
      pid: 1,
      hostname: "h",
      service: "memberhall",
      msg: "database ready",
      driver: "pglite",
      note: "two words",
    });
    expect(textLine(line)).toBe('12:04:05 INFO  database ready driver=pglite note="two words"\n');
  });

  it("passes a line that is no JSON through", () => {
    expect(textLine("plain")).toBe("plain\n");
  });
});
