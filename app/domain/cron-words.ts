/**
 * A schedule's cron line (BACKUP_CRON, NOL_REMINDERS_CRON: five fields, minute hour day month
 * weekday, in UTC) in the words an admin reads: "17 3 * * *" → "every day at 03:17 UTC".
 * The env check lets in digits, `*`, `/`, `,` and `-` only; a line these words cannot say
 * (a step over days, say) is read field by field rather than shown as it is.
 */

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

const two = (n: number) => String(n).padStart(2, "0");

/** "a, b and c". */
function listed(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** "1st", "2nd", "23rd", "11th". */
function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? "th" : (({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th");
  return `${n}${suffix}`;
}

type Field = { kind: "every" } | { kind: "list"; values: number[] } | { kind: "step"; step: number; from: number };

/** One field: every value, a step (every fifteenth minute, "5-59/10"), or the values it lists (ranges spelled out). */
function readField(text: string, min: number, max: number): Field | null {
  if (text === "*") return { kind: "every" };
  const step = /^(\*|\d+(?:-\d+)?)\/(\d+)$/.exec(text);
  if (step) {
    const from = step[1] === "*" ? min : Number(step[1]!.split("-")[0]);
    const by = Number(step[2]);
    return by >= 1 && from >= min && from <= max ? { kind: "step", step: by, from } : null;
  }
  const values = new Set<number>();
  for (const part of text.split(",")) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!range) return null;
    const start = Number(range[1]);
    const end = range[2] === undefined ? start : Number(range[2]);
    if (start < min || end > max || end < start) return null;
    for (let v = start; v <= end; v += 1) values.add(v);
  }
  return { kind: "list", values: [...values].sort((a, b) => a - b) };
}

const isList = (field: Field): field is Extract<Field, { kind: "list" }> => field.kind === "list";

/** The times of day a minute and an hour field make, or null when they are not a short list. */
function timesOfDay(minute: Field, hour: Field): string | null {
  if (!isList(minute) || !isList(hour) || minute.values.length * hour.values.length > 6) return null;
  const times = hour.values.flatMap((h) => minute.values.map((m) => `${two(h)}:${two(m)}`));
  return `at ${listed(times)} UTC`;
}

/** When in the hour or the day the line runs: "at 03:17 UTC", "every hour at 7 minutes past". */
function clockWords(minute: Field, hour: Field): string | null {
  const times = timesOfDay(minute, hour);
  if (times) return times;
  if (hour.kind === "every" && minute.kind === "every") return "every minute";
  if (hour.kind === "every" && minute.kind === "step" && minute.from === 0)
    return minute.step === 1 ? "every minute" : `every ${minute.step} minutes`;
  if (!isList(minute) || minute.values.length > 6) return null;
  const past = `at ${listed(minute.values.map(String))} ${minute.values.length === 1 && minute.values[0] === 1 ? "minute" : "minutes"} past`;
  if (hour.kind === "every") return `every hour ${past}`;
  if (hour.kind === "step" && hour.from === 0) return `every ${hour.step} hours ${past}`;
  return null;
}

/** Which days the line runs on, or null when the day fields are more than these words say. */
function dayWords(day: Field, month: Field, weekday: Field): string | null {
  const everyMonth = month.kind === "every";
  const months = isList(month) ? `in ${listed(month.values.map((m) => MONTHS[m - 1]!))}` : null;
  if (!everyMonth && !months) return null;
  const inMonths = everyMonth ? "" : ` ${months}`;
  if (day.kind === "every" && weekday.kind === "every") return everyMonth ? "every day" : `every day${inMonths}`;
  if (day.kind === "every" && isList(weekday)) {
    const names = [...new Set(weekday.values.map((d) => WEEKDAYS[d % 7]!))];
    if (names.length === 5 && !names.includes("Saturday") && !names.includes("Sunday"))
      return `every weekday (Monday to Friday)${inMonths}`;
    return `every ${listed(names)}${inMonths}`;
  }
  if (isList(day) && weekday.kind === "every")
    return `on the ${listed(day.values.map(ordinal))} of ${everyMonth ? "every month" : months!.slice(3)}`;
  return null;
}

/** A cron line in words, for the admins' pages. */
export function cronWords(line: string): string {
  const fields = line.trim().split(/\s+/);
  if (fields.length === 5) {
    const [minute, hour, day, month, weekday] = [
      readField(fields[0]!, 0, 59),
      readField(fields[1]!, 0, 23),
      readField(fields[2]!, 1, 31),
      readField(fields[3]!, 1, 12),
      readField(fields[4]!, 0, 7),
    ];
    if (minute && hour && day && month && weekday) {
      const clock = clockWords(minute, hour);
      const days = dayWords(day, month, weekday);
      if (clock && days) {
        // "every day, every hour at 7 minutes past" says more than it needs to.
        if (days === "every day" && !clock.startsWith("at")) return clock;
        return clock.startsWith("at") ? `${days} ${clock}` : `${days}, ${clock}`;
      }
    }
  }
  return "on a schedule of its own, set by the server's operator";
}
