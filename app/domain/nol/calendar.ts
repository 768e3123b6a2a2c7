import type { Timeline } from "./timeline";

/**
 * A version's dates as an iCalendar file (RFC 5545) a member adds to their calendar: for each
 * delivered round, the last day of the respondents' window and the day the next round may go
 * out, as all-day events.
 */

export type CalendarInput = {
  /** The version's name and cause, for the events' titles. */
  title: string;
  /** A stable prefix for the events' ids (the version's owner, cause and name). */
  uidPrefix: string;
  /** The site's host, the domain part of the events' ids. */
  host: string;
  /** The page the events link to. */
  url: string;
  timeline: Pick<Timeline, "rows">;
  now: Date;
};

/** Text as a property value: backslashes, semicolons, commas and line breaks escaped (RFC 5545 §3.3.11). */
function text(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r?\n/g, "\\n");
}

/** A content line folded at 75 octets, continuation lines starting with a space (RFC 5545 §3.1). */
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function fold(line: string): string {
  const bytes = encoder.encode(line);
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let start = 0;
  let limit = 75;
  while (start < bytes.length) {
    let end = Math.min(start + limit, bytes.length);
    // Never cut a UTF-8 character in two.
    while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end -= 1;
    parts.push(decoder.decode(bytes.subarray(start, end)));
    start = end;
    limit = 74;
  }
  return parts.join("\r\n ");
}

const compact = (day: string) => day.replace(/-/g, "");

function stamp(now: Date): string {
  return now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

function event(lines: string[], uid: string, day: string, summary: string, input: CalendarInput) {
  const next = new Date(`${day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  lines.push(
    "BEGIN:VEVENT",
    `UID:${uid}@${input.host}`,
    `DTSTAMP:${stamp(input.now)}`,
    `DTSTART;VALUE=DATE:${compact(day)}`,
    `DTEND;VALUE=DATE:${compact(next.toISOString().slice(0, 10))}`,
    `SUMMARY:${text(summary)}`,
    `URL:${input.url}`,
    "TRANSP:TRANSPARENT",
    "END:VEVENT",
  );
}

export function versionCalendar(input: CalendarInput): string {
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", `PRODID:-//${input.host}//NoL timeline//EN`, "CALSCALE:GREGORIAN"];
  const rows = input.timeline.rows;
  rows.forEach((row, i) => {
    if (!row.respondBy || !row.nextFrom) return;
    event(
      lines,
      `${input.uidPrefix}-${row.round}-window`,
      row.respondBy,
      `${input.title}: the respondents' time to answer ${row.name} ends`,
      input,
    );
    const following = rows[i + 1];
    const nextName = following?.name ?? "The next round";
    event(lines, `${input.uidPrefix}-${row.round}-next`, row.nextFrom, `${input.title}: ${nextName} can go out`, input);
  });
  lines.push("END:VCALENDAR");
  return `${lines.map(fold).join("\r\n")}\r\n`;
}
