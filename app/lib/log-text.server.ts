/**
 * LOG_FORMAT=text: pino's JSON lines turned into short lines a person reads at a terminal
 * (`12:04:05 INFO  database ready driver=pglite`). Production keeps JSON for log collectors.
 */

const LEVELS: Record<number, string> = { 10: "TRACE", 20: "DEBUG", 30: "INFO ", 40: "WARN ", 50: "ERROR", 60: "FATAL" };
const OMITTED = new Set(["level", "time", "msg", "pid", "hostname", "service"]);

function value(v: unknown): string {
  if (typeof v === "string") return /\s/.test(v) ? JSON.stringify(v) : v;
  return JSON.stringify(v);
}

export function textLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith("\n") ? json : `${json}\n`;
  }
  const time = typeof entry.time === "number" ? new Date(entry.time).toISOString().slice(11, 19) : "";
  const level = LEVELS[entry.level as number] ?? String(entry.level);
  const fields = Object.entries(entry)
    .filter(([key]) => !OMITTED.has(key))
    .map(([key, v]) => {
      const shown = key === "err" && v && typeof v === "object" && "stack" in v ? `\n${String(v.stack)}` : value(v);
      return `${key}=${shown}`;
    });
  return `${[time, level, String(entry.msg ?? ""), ...fields].filter(Boolean).join(" ")}\n`;
}

/** A pino destination writing text lines to a stream. */
export function textDestination(out: { write(chunk: string): unknown } = process.stdout) {
  return { write: (line: string) => out.write(textLine(line)) };
}
