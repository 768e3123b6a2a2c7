import { z } from "zod";

/**
 * A notarized notice is one PDF: the notice's letters, one per respondent in the document's
 * order, then the notary's own pages (its certificate). The letter mailed to a respondent is
 * their letter's pages cut from it, with the notary's pages after them, so the letter mailed on
 * its own still shows it was notarized (docs/decisions/059-notarized-letters.md).
 */

/** The notice's letters as sent to the notary, in order: the respondent's slot of each (none for a document that is no letter) and its pages. */
export const letterPagesSchema = z
  .array(z.object({ slot: z.number().int().min(1).nullable(), pages: z.number().int().min(1) }))
  .min(1);
export type LetterPages = z.infer<typeof letterPagesSchema>;

/** How many pages the document sent to the notary had: its letters' pages together. */
export const documentPages = (letters: LetterPages): number => letters.reduce((sum, letter) => sum + letter.pages, 0);

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);

/**
 * The pages of the notarized PDF (from 0) that make the letter to the respondent of `slot`:
 * their letter's pages, then every page the notary added after the document. A document that
 * is no letter (its one entry without a slot) is mailed whole to each respondent. Null when
 * the counts do not describe the PDF (fewer pages than the letters had, a slot twice, a
 * document both letters and not) or name no letter for the slot: the PDF is then not the one
 * the counts were taken of, and the letter is not cut from it.
 */
export function notarizedLetterPages(letters: LetterPages, notarizedPages: number, slot: number): number[] | null {
  if (!letterPagesSchema.safeParse(letters).success || !Number.isInteger(notarizedPages)) return null;
  const slots = letters.map((letter) => letter.slot);
  if (new Set(slots).size !== slots.length) return null;
  if (slots.includes(null) && letters.length > 1) return null;
  const total = documentPages(letters);
  if (notarizedPages < total) return null;
  const at = letters.findIndex((letter) => letter.slot === slot || letter.slot === null);
  if (at < 0) return null;
  const start = documentPages(letters.slice(0, at));
  return [...range(start, start + letters[at]!.pages), ...range(total, notarizedPages)];
}
