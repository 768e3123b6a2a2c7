import { z } from "zod";
import { requiredText } from "./account";
import { RESPONDENT_TYPES } from "./nol/billing";
import { wholeNumber } from "./whole-numbers";

/**
 * The respondents directory and its forms (spec §3 form ids): Search for a respondent (92),
 * Suggest a new respondent (207), Respondent reassessment (134) and the Notice of correction
 * (218). Suggestions and reassessments wait for an admin's review.
 */

const optionalText = (max: number) => z.string().trim().max(max, `Use at most ${max} characters`).optional();
const respondentType = z.enum(RESPONDENT_TYPES, { errorMap: () => ({ message: "Choose the kind of respondent" }) });

/** The directory's search, from the query string: what cannot be read is left out. */
export const directoryQuerySchema = z.object({
  q: z.string().trim().max(120).optional().catch(undefined),
  type: respondentType.optional().catch(undefined),
  place: z.string().trim().max(120).optional().catch(undefined),
});
export type DirectoryQuery = z.infer<typeof directoryQuerySchema>;

/** Form 92: a search is kept as an entry of its own, then shows the directory's answer. */
export const searchFormSchema = z.object({
  q: requiredText("Enter a name to look for", 120),
  place: optionalText(120),
});

/** Form 207. */
export const suggestionSchema = z.object({
  name: requiredText("Enter the respondent's name", 120),
  type: respondentType,
  agency: optionalText(160),
  place: requiredText("Say where they are: a city, a state or a country", 120),
  address: optionalText(300),
  reason: requiredText("Say why they belong in the directory", 2_000),
});
export type Suggestion = z.infer<typeof suggestionSchema>;

/** Form 134. */
export const reassessmentSchema = z.object({
  respondent: wholeNumber({ min: 1, message: "Choose a respondent", coerce: true }),
  reason: requiredText("Say what should be reassessed", 2_000),
});

/** Form 218: which of the member's notices (and so which round) it corrects, and what changes. */
export const correctionSchema = z.object({
  notice: wholeNumber({ min: 1, message: "Choose the notice to correct", coerce: true }),
  change: requiredText("Say what changes", 2_000),
});

/** An admin's decision on a suggestion or a reassessment request; the note goes to the member. */
export const reviewSchema = z.object({
  intent: z.enum(["approve", "reject"]),
  entry: z.string().uuid(),
  note: optionalText(1_000),
});

const normal = (text: string | null | undefined) => (text ?? "").trim().toLowerCase().replace(/\s+/g, " ");

/** The directory keeps one respondent per name and place, whatever their case and spacing. */
export function sameRespondent(
  a: { name: string; place?: string | null },
  b: { name: string; place?: string | null },
): boolean {
  return normal(a.name) === normal(b.name) && normal(a.place) === normal(b.place);
}

/**
 * The notice a correction form opens with: the one named (`?notice=`), or the latest round of
 * a cause's version (`?cause=&version=`, from the member's notices page); else none.
 */
export function chosenNotice(
  notices: { id: number; cause: string; version: string; round: number }[],
  query: { notice?: number | null; cause?: string | null; version?: string | null },
): number | null {
  if (query.notice) return notices.some((n) => n.id === query.notice) ? query.notice : null;
  const ofVersion = notices.filter((n) => n.cause === query.cause && n.version === query.version);
  return ofVersion.sort((a, b) => b.round - a.round)[0]?.id ?? null;
}
