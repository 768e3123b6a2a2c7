import { formatDate } from "~/lib/format";
import type { MembershipStatus } from "./billing-account";

/**
 * The codes the database keeps in the words the pages show them in: membership statuses and
 * countries here, small enough for any page; the others in vocabularies.ts and audit-words.ts.
 * Exports keep the codes.
 */

const MEMBERSHIP_WORDS: Record<MembershipStatus | "COMPLIMENTARY", string> = {
  ACTIVE: "Active",
  COMPLIMENTARY: "Complimentary",
  TRIALING: "Trial",
  PAST_DUE: "Payment overdue",
  UNPAID: "Unpaid",
  CANCELED: "Cancelled",
  INCOMPLETE: "Awaiting the first payment",
  INCOMPLETE_EXPIRED: "First payment never made",
  PAUSED: "Paused",
};

/** The statuses in the order the lists offer them. */
export const MEMBERSHIP_STATUSES = Object.keys(MEMBERSHIP_WORDS) as readonly (MembershipStatus | "COMPLIMENTARY")[];

/** A membership's status in a word or two, for lists and facts; no membership says so. */
export function membershipWords(status: string | null | undefined): string {
  if (!status || status === "none") return "No membership";
  return MEMBERSHIP_WORDS[status as MembershipStatus | "COMPLIMENTARY"] ?? humanize(status);
}

/** A membership's status in words and its dates, as the billing service reads them from its row. */
export type MembershipState = {
  statusText: string;
  ended: boolean;
  renewsOn: string | null;
  endsOn: string | null;
  endedOn: string | null;
};

/**
 * A membership in one line with the one date that matters: when it renews, when it ends, or
 * when it ended. Every page that names a membership says it this way.
 */
export function membershipLine(state: MembershipState | null, date: (iso: string) => string): string {
  if (!state) return "No membership";
  if (state.renewsOn) return `${state.statusText} · renews ${date(state.renewsOn)}`;
  if (state.endsOn) return `${state.statusText} · ends ${date(state.endsOn)}`;
  if (state.endedOn) return `${state.statusText} · ended ${date(state.endedOn)}`;
  return state.statusText;
}

/** "nz_status" → "Nz status": a code no list names yet, read as words. */
export function humanize(code: string): string {
  const words = code
    .replace(/[._-]+/g, " ")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A country's name from its ISO code ("US" → "United States"); the code where the name is not known. */
export function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(["en"], { type: "region" }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** A tick box's answer in words: its own label's "Yes"/"No" reads as a code on a page of answers. */
export function checkedWords(checked: boolean): string {
  return checked ? "Checked" : "Not checked";
}

/** A day as forms keep it ("2026-11-28"), or an instant ("2026-11-28T10:00:00.000Z"). */
const ISO_DAY = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A day the way every page writes it ("Nov 28, 2026"); "—" for none. */
export function dayWords(value: string | null | undefined): string {
  if (!value) return "—";
  return ISO_DAY.test(value) && !Number.isNaN(Date.parse(value)) ? formatDate(value) : value;
}

/**
 * One answer of a form, to read: a tick box as checked or not, a day in words, a list joined,
 * nothing given as "—". Other answers are shown as they were typed.
 */
export function answerWords(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "boolean") return checkedWords(value);
  if (Array.isArray(value)) return value.length === 0 ? "—" : value.map(answerWords).join(", ");
  if (typeof value === "string") return dayWords(value);
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}
