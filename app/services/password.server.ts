import { zxcvbn, zxcvbnOptions } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary as commonDictionary } from "@zxcvbn-ts/language-common";
import { dictionary as englishDictionary, translations } from "@zxcvbn-ts/language-en";
import { invalid } from "~/domain/errors";

/**
 * What the house accepts as a new password, beyond the length rules the forms check: none of
 * the most common ones, and nothing zxcvbn scores below 3 when the member's own name, e-mail
 * and the community's name count as words anyone would try. The hashing itself lives in
 * `~/lib/password.server`, where the seed reaches it too.
 */
zxcvbnOptions.setOptions({
  dictionary: { ...commonDictionary, ...englishDictionary },
  graphs: adjacencyGraphs,
  translations,
});

const COMMON_PASSWORDS = new Set(commonDictionary.passwords.slice(0, 3_000).map((p) => p.toLowerCase()));

export const COMMON_PASSWORD_MESSAGE = "That password is one of the most common ones; choose another";

/** zxcvbn's score a new password needs: 3, "safely unguessable: moderate protection from offline attacks". */
export const MIN_PASSWORD_SCORE = 3;

export const WEAK_PASSWORD_MESSAGE = "That password is easy to guess.";

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}

/** The words a guesser starts from: the username, the e-mail and its parts, the community's name. */
export function personalWords(input: { username?: string; email?: string; community: string }): string[] {
  const words = [input.community, ...input.community.split(/\s+/)];
  if (input.username) words.push(input.username);
  if (input.email) words.push(input.email, ...input.email.split(/[@.+_-]/));
  return words.filter((w) => w.length >= 3);
}

/** Why a password is too weak to keep, or null when it will do. */
export function passwordWeakness(password: string, words: string[]): string | null {
  if (isCommonPassword(password)) return COMMON_PASSWORD_MESSAGE;
  const result = zxcvbn(password, words);
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  return [WEAK_PASSWORD_MESSAGE, result.feedback.warning, ...result.feedback.suggestions].filter(Boolean).join(" ");
}

/** Refuses a weak new password with the reason on the password field. */
export function refuseWeakPassword(password: string, words: string[]): void {
  const weakness = passwordWeakness(password, words);
  if (weakness) throw invalid(weakness, { password: [weakness] });
}
