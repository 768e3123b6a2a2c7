import { z } from "zod";
import type { RespondentAddress } from "../nol/billing";

/**
 * A US postal address as a letter is mailed to it: the parts a mail house prints in an
 * envelope's window and verifies against USPS's records. A respondent's address is kept as the
 * member typed it (one line, lines, or a hosted form's parts); `postalParts` reads the parts
 * out of it where it can and names the ones it cannot find, for the member to fill in.
 */

/** The states, DC, the territories and the military "states" USPS delivers to. */
export const US_STATES = [
  "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS",
  "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC",
  "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY",
  "PR", "GU", "VI", "AS", "MP", "AA", "AE", "AP",
] as const; // prettier-ignore

const STATES: ReadonlySet<string> = new Set(US_STATES);

/**
 * How long each part may be: the recipient's name and street lines as print-and-mail services
 * take them (40 characters for a name, 64 for a street line, and the two street lines together
 * at most 50, which is what a #10 window shows on one line each).
 */
export const ADDRESS_LIMITS = { name: 40, line: 64, streetLines: 50, city: 200 } as const;

const text = (max: number, missing: string) =>
  z
    .string()
    .trim()
    .min(1, { message: missing })
    .max(max, { message: `Use at most ${max} characters` });

export const postalAddressSchema = z
  .object({
    name: text(ADDRESS_LIMITS.name, "Enter the name the letter is addressed to"),
    line1: text(ADDRESS_LIMITS.line, "Enter the street address"),
    line2: z
      .string()
      .trim()
      .max(ADDRESS_LIMITS.line, { message: `Use at most ${ADDRESS_LIMITS.line} characters` })
      .optional()
      .transform((v) => (v ? v : undefined)),
    city: text(ADDRESS_LIMITS.city, "Enter the city"),
    state: z
      .string()
      .trim()
      .toUpperCase()
      .refine((v) => STATES.has(v), { message: "Enter the state as its two letters, such as IL" }),
    zip: z
      .string()
      .trim()
      .regex(/^\d{5}(?:-?\d{4})?$/, { message: "Enter a ZIP code of 5 or 9 digits, such as 62701 or 62701-1234" })
      .transform((v) => (v.length === 9 ? `${v.slice(0, 5)}-${v.slice(5)}` : v)),
    country: z.literal("US", { errorMap: () => ({ message: "Letters go to addresses in the United States only" }) }),
  })
  .superRefine((address, ctx) => {
    if (address.line1.length + (address.line2?.length ?? 0) > ADDRESS_LIMITS.streetLines) {
      ctx.addIssue({
        code: "custom",
        path: ["line1"],
        message: `Shorten the street lines to at most ${ADDRESS_LIMITS.streetLines} characters in all`,
      });
    }
  });

export type PostalAddress = z.output<typeof postalAddressSchema>;
export type PostalPart = Exclude<keyof PostalAddress, "line2">;

/** What could be read of a typed address, and which of the parts a letter needs it lacks. */
export type PostalReading = {
  parts: Partial<Record<keyof PostalAddress, string>>;
  missing: PostalPart[];
  /** The whole address when every part was found and each is valid. */
  address: PostalAddress | null;
};

const COUNTRY_US = /^(u\.?s\.?a?\.?|united states( of america)?)$/i;
// "Springfield IL 62701", "IL 62701-1234", "Il. 62701", "IL": the state, its ZIP where typed, a city before them.
const PLACE = /^(?:(.*?)\s+)?([A-Za-z]{2})\.?(?:\s+(\d{5}(?:-?\d{4})?))?$/;
const UNIT = /^(apt|apartment|suite|ste|unit|room|rm|floor|fl|#)\b\.?/i;

/** The city, state and ZIP at the end of the pieces, and the street pieces before them. */
function place(pieces: string[]): { street: string[]; city?: string; state?: string; zip?: string } {
  const match = pieces.length > 0 ? PLACE.exec(pieces.at(-1)!) : null;
  if (!match || !STATES.has(match[2]!.toUpperCase())) return { street: pieces };
  // "12 Oak Ct" is a street that ends like Connecticut, not a city and a state.
  if (!match[3] && match[1] && /^\d/.test(match[1])) return { street: pieces };
  const state = match[2]!.toUpperCase();
  const zip = match[3];
  // "Springfield IL 62701" has its city; "…, Springfield, IL 62701" has it in the piece before.
  if (match[1]) return { street: pieces.slice(0, -1), city: match[1].trim(), state, zip };
  if (pieces.length >= 3) return { street: pieces.slice(0, -2), city: pieces.at(-2), state, zip };
  return { street: pieces.slice(0, -1), state, zip };
}

const byKey = (address: RespondentAddress, name: RegExp) =>
  Object.entries(address)
    .find(([key, value]) => name.test(key) && typeof value === "string" && value.trim())?.[1]
    .trim();

/** A hosted form's parts by name: the same names `addressLines` reads. */
function partsFromRecord(address: RespondentAddress): Partial<Record<keyof PostalAddress, string>> {
  const NAMED = [/^city$/i, /^(state|region|province)$/i, /^(postal_?code|zip(_?code)?)$/i, /^country$/i];
  const street = Object.entries(address)
    .filter(([key, value]) => typeof value === "string" && value.trim() && !NAMED.some((name) => name.test(key)))
    .map(([, value]) => value.trim());
  const country = byKey(address, NAMED[3]!);
  return {
    line1: street[0],
    line2: street.slice(1).join(", ") || undefined,
    city: byKey(address, NAMED[0]!),
    state: byKey(address, NAMED[1]!)?.toUpperCase(),
    zip: byKey(address, NAMED[2]!),
    country: country === undefined || COUNTRY_US.test(country) ? "US" : country,
  };
}

/** Whether a kept address names its parts (a hosted form's), or is text kept under one name (the step's "Address"). */
const namesParts = (address: RespondentAddress) =>
  Object.keys(address).some((key) => /^(city|state|region|province|postal_?code|zip(_?code)?)$/i.test(key));

/** Typed text, in lines or on one line: its pieces between line breaks and commas. */
function partsFromText(typed: string): Partial<Record<keyof PostalAddress, string>> {
  let pieces = typed
    .split(/[\r\n,]+/)
    .map((piece) => piece.trim())
    .filter(Boolean);
  if (pieces.length > 1 && COUNTRY_US.test(pieces.at(-1)!)) pieces = pieces.slice(0, -1);
  const { street, city, state, zip } = place(pieces);
  // A unit typed before its street ("Suite 5, 1 Main St") goes after it, as USPS writes it.
  const lines =
    street.length >= 2 && UNIT.test(street[0]!) && /^\d/.test(street[1]!)
      ? [street[1]!, street[0]!, ...street.slice(2)]
      : street;
  return { line1: lines[0], line2: lines.slice(1).join(", ") || undefined, city, state, zip, country: "US" };
}

const REQUIRED: PostalPart[] = ["name", "line1", "city", "state", "zip", "country"];

/**
 * The postal parts of a respondent's address as typed, with the name the letter is addressed
 * to. Typed text is read as a US address, the only kind a letter goes to; a hosted form's
 * parts may name another country. A part is missing when it cannot be found or is not valid as
 * found (a ZIP of 4 digits, a state that is no US state, another country): the member is asked
 * for those.
 */
export function postalParts(
  name: string | null | undefined,
  address: RespondentAddress | string | null | undefined,
): PostalReading {
  const found =
    address && typeof address === "object"
      ? namesParts(address)
        ? partsFromRecord(address)
        : partsFromText(Object.values(address).join("\n"))
      : partsFromText(address ?? "");
  const parts = Object.fromEntries(
    Object.entries({ name: name?.trim() || undefined, ...found }).filter(([, value]) => value !== undefined),
  ) as PostalReading["parts"];
  const parsed = postalAddressSchema.safeParse(parts);
  if (parsed.success) return { parts, missing: [], address: parsed.data };
  const wrong = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
  return { parts, missing: REQUIRED.filter((part) => wrong.has(part)), address: null };
}

/** The address as lines for a window or a page: the name, the street lines, then "City, ST ZIP". */
export function postalLines(address: PostalAddress): string[] {
  return [
    address.name,
    address.line1,
    ...(address.line2 ? [address.line2] : []),
    `${address.city}, ${address.state} ${address.zip}`,
  ];
}

/** Whether two addresses are one, whatever their case and spacing (a verified one in capitals, say). */
export function sameAddress(a: PostalAddress, b: PostalAddress): boolean {
  const key = (address: PostalAddress) =>
    [address.line1, address.line2 ?? "", address.city, address.state, address.zip.slice(0, 5)]
      .map((part) => part.toUpperCase().replace(/[.,]/g, "").replace(/\s+/g, " ").trim())
      .join("|");
  return key(a) === key(b);
}

/** USPS's judgement of an address, in our terms (Lob's `deliverability`). */
export const DELIVERABILITIES = [
  "deliverable",
  /** Deliverable, but the unit given (Apt, Suite) is not needed there. */
  "unit_unnecessary",
  /** Deliverable to the building, but the unit given may not exist: the letter may not reach the person. */
  "unit_incorrect",
  /** Deliverable to the building, but it needs a unit that was not given. */
  "unit_missing",
  "undeliverable",
] as const;
export type Deliverability = (typeof DELIVERABILITIES)[number];
