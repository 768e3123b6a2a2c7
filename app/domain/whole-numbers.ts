import { z } from "zod";

/**
 * Whole numbers a member or an admin types, or a page's query names, that end up in (or are
 * compared with) an integer column. JavaScript reads "1e308" and "99999999999999999999999" as
 * whole numbers; PostgreSQL's integer holds -2,147,483,648 to 2,147,483,647 and refuses the rest
 * with an error, so the bounds are checked here, with the field's message.
 */

export const INTEGER_MIN = -2_147_483_648;
export const INTEGER_MAX = 2_147_483_647;

const grouped = (n: number) => n.toLocaleString("en-US");

/**
 * A whole number from `min` to `max` (by default an integer column's bounds). `message` is the
 * field's one message for any value it refuses, "Enter a whole number from X to Y" unless it says
 * otherwise; `coerce` reads text as a number (a query string, a select's value).
 */
export function wholeNumber(options: { min?: number; max?: number; message?: string; coerce?: boolean } = {}) {
  const { min = INTEGER_MIN, max = INTEGER_MAX } = options;
  const message = options.message ?? `Enter a whole number from ${grouped(min)} to ${grouped(max)}`;
  const number = options.coerce ? z.coerce.number : z.number;
  return number({ invalid_type_error: message, required_error: message })
    .int(message)
    .min(min, message)
    .max(max, message);
}
