import { timingSafeEqual } from "node:crypto";

/** Whether a given secret is the expected one, compared in constant time; none expected matches nothing. */
export function secretMatches(given: string, expected: string | undefined): boolean {
  if (!expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
