/**
 * The one place amounts and dates become text. Amounts are integer cents with the plan's
 * currency; dates show in the member's time zone where we know it, else UTC, so the server's
 * render and the browser's agree.
 */

const LOCALE = "en-US";

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** "$12.50" for 1250 cents in USD; the currency is an ISO code in either case. */
export function formatMoney(cents: number, currency = "USD"): string {
  const code = currency.toUpperCase();
  let format = moneyFormats.get(code);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE, { style: "currency", currency: code });
    moneyFormats.set(code, format);
  }
  return format.format(cents / 100);
}

/** spec §9 "Coupon amounts are shown as cents/100 with 2 decimals": "12.50", no currency sign. */
export function formatCents(cents: number): string {
  return (cents / 100).toFixed(2);
}

type DateInput = Date | string | number;

const toDate = (value: DateInput) => (value instanceof Date ? value : new Date(value));

/** Making a date format costs far more than using one: each is made once per zone. */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(kind: "date" | "date-time", timeZone: string): Intl.DateTimeFormat {
  const key = `${kind} ${timeZone}`;
  let format = dateFormats.get(key);
  if (!format) {
    format =
      kind === "date"
        ? new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium", timeZone })
        : new Intl.DateTimeFormat(LOCALE, {
            year: "numeric",
            month: "short",
            day: "numeric",
            hour: "numeric",
            minute: "2-digit",
            timeZone,
            timeZoneName: "short",
          });
    dateFormats.set(key, format);
  }
  return format;
}

/** "Nov 23, 2026". */
export function formatDate(value: DateInput, timeZone = "UTC"): string {
  return dateFormat("date", timeZone).format(toDate(value));
}

/** "Nov 23, 2026, 11:03 AM UTC". */
export function formatDateTime(value: DateInput, timeZone = "UTC"): string {
  return dateFormat("date-time", timeZone).format(toDate(value));
}

/** "11:03:47 AM" in the browser's own zone, for times the browser itself just measured. */
export function formatLocalTime(value: DateInput): string {
  return toDate(value).toLocaleTimeString(LOCALE);
}

const shortDate = new Intl.DateTimeFormat(LOCALE, { month: "short", day: "numeric", timeZone: "UTC" });

/** "Nov 23", for a chart's date axis. */
export function formatShortDate(value: DateInput): string {
  return shortDate.format(toDate(value));
}

const wholeDollars = new Intl.NumberFormat(LOCALE, { style: "currency", currency: "USD", maximumFractionDigits: 0 });

/** "$1,200" for 120000 cents, for a chart's money axis. */
export function formatWholeDollars(cents: number): string {
  return wholeDollars.format(cents / 100);
}

/** A size in bytes as a person reads it. */
export function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
