import { z } from "zod";
import { wholeNumber } from "./whole-numbers";

/** The path parameters and query strings that pages read in their loaders and actions. */

/** /community/{action?}: the join form or the page. */
export const communityParamsSchema = z.object({ action: z.enum(["join"]).optional() });

/** /db/{entity?}/{view?}: the data browser's table and record. */
export const recordParamsSchema = z.object({ entity: z.string().optional(), view: z.string().optional() });

/** /nol/seemless/{formId?}/{formHash}: a form entry's page. */
export const seamlessParamsSchema = z.object({ formId: z.string().optional(), formHash: z.string().default("") });

/** /notice-of-correction?notice=&cause=&version=: the notice a correction opens on. */
export const correctionQuerySchema = z.object({
  notice: wholeNumber({ min: 1, coerce: true }).nullable().catch(null),
  cause: z.string().max(40).nullable().catch(null),
  version: z.string().max(120).nullable().catch(null),
});

/** /respondent-reassessment?respondent={id}: the respondent chosen from the directory. */
export const chosenRespondentSchema = wholeNumber({ min: 1, coerce: true }).nullable().catch(null);

/** /user/{user_id}: a member's id. */
export const userIdSchema = z.string().uuid();

/** POST /c: dismisses the coupon banner. */
export const dismissCouponSchema = z.object({
  intent: z.literal("dismiss-coupon"),
  slug: z.string().max(64),
  redirectTo: z.string().max(2_000),
});

/** The version a NoL step's form names (the form itself is checked by the step's own schema). */
export const versionChoiceSchema = z.object({ version: z.string().optional() });
