import { dictionary } from "@zxcvbn-ts/language-common";

/**
 * What the house accepts as a new password, beyond the length rules the forms check: none of
 * the most common ones. The hashing itself lives in `~/lib/password.server`, where the seed
 * reaches it too.
 */
const COMMON_PASSWORDS = new Set(dictionary.passwords.slice(0, 3_000).map((p) => p.toLowerCase()));

export const COMMON_PASSWORD_MESSAGE = "That password is one of the most common ones; choose another";

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}
