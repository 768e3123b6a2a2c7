import { describe, expect, it } from "vitest";
import { versionCalendar } from "./calendar";
import { timelineOf } from "./timeline";

const windows = { notice: 21, fault: 14, default: 10, "true-bill": 30 };
const round1 = {
  round: 1,
  mailedOn: "2026-01-06",
  delivered: true,
  deliveredOn: "2026-01-10",
  tracking: ["RR123456789US"],
};

function calendar(title = "Traffic Stop · Spring, 2026; first") {
  return versionCalendar({
    title,
    uidPrefix: "abc123",
    host: "members.example.org",
    url: "https://members.example.org/nol/creator/traffic-stop?version=Spring",
    timeline: timelineOf({ records: [round1], step: { kind: "notice", round: 2 }, windows, today: "2026-01-20" }),
    now: new Date("2026-01-20T10:11:12.345Z"),
  });
}

describe("a version's calendar file (RFC 5545)", () => {
  it("has the window's last day and the next round's day as all-day events, with lines ending in CRLF", () => {
    const ics = calendar();
    expect(ics.startsWith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")).toBe(true);
    expect(ics.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(ics.split("\r\n").every((line) => !line.includes("\n"))).toBe(true);
    const events = ics.split("BEGIN:VEVENT").slice(1);
    expect(events).toHaveLength(2);
    expect(events[0]).toContain("DTSTART;VALUE=DATE:20260131\r\nDTEND;VALUE=DATE:20260201");
    expect(events[1]).toContain("DTSTART;VALUE=DATE:20260201\r\nDTEND;VALUE=DATE:20260202");
    expect(events[0]).toContain("UID:abc123-1-window@members.example.org");
    expect(events[0]).toContain("DTSTAMP:20260120T101112Z");
    expect(ics.replace(/\r\n /g, "")).toContain("Round 2 Notice of Fault can go out");
  });

  it("escapes commas and semicolons, and folds long lines at 75 octets without cutting a character", () => {
    const ics = calendar("Café ünïcödé, a long; version name that runs past the seventy-five octets of a line");
    const lines = ics.split("\r\n");
    for (const line of lines) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    const unfolded = ics.replace(/\r\n /g, "");
    expect(unfolded).toContain("SUMMARY:Café ünïcödé\\, a long\\; version name");
    expect(unfolded).not.toContain("\uFFFD");
  });

  it("is empty of events while no round is delivered with its day", () => {
    const ics = versionCalendar({
      title: "T",
      uidPrefix: "x",
      host: "h",
      url: "https://h/",
      timeline: timelineOf({ records: [], step: { kind: "notice", round: 1 }, windows, today: "2026-01-20" }),
      now: new Date(),
    });
    expect(ics).not.toContain("BEGIN:VEVENT");
  });
});
