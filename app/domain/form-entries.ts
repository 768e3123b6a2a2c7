import { z } from "zod";
import { FORM_IDS } from "./forms";

/**
 * The second forms service (spec §7: "supports get, post, put and delete; its paths are not
 * shown"): a member's own entries of the community's forms, at config's formsUrl.
 *   GET    {formsUrl}/entries[?form=id]   → { list }
 *   POST   {formsUrl}/entries             { form, data } → { entry }
 *   GET    {formsUrl}/entries/{id}        → { entry }
 *   PUT    {formsUrl}/entries/{id}        { data } → { entry }
 *   DELETE {formsUrl}/entries/{id}        → { deleted: true }
 */

/** spec §8: a call that names no entry. (A body key a call does not take is 'Unknown key', as everywhere.) */
export const MISSING_PATH_MESSAGE = "missing: path";

/** The forms a member fills in through this service; the NoL forms have pages of their own. */
export const SERVICE_FORMS: readonly number[] = [
  FORM_IDS.searchRespondent,
  FORM_IDS.respondentReassessment,
  FORM_IDS.suggestRespondent,
  FORM_IDS.noticeOfCorrection,
  FORM_IDS.support,
];

const NOL_FORMS: readonly number[] = [FORM_IDS.nolCreator2, FORM_IDS.profileBilling, FORM_IDS.billing];

export const formIdSchema = z
  .number({ invalid_type_error: "A form id is a number", required_error: "Name the form" })
  .int()
  .superRefine((id, ctx) => {
    if (SERVICE_FORMS.includes(id)) return;
    ctx.addIssue({
      code: "custom",
      message: NOL_FORMS.includes(id)
        ? `Form ${id} is filled in on the notice creator's pages`
        : `There is no form ${id}`,
    });
  });

const MAX_FIELDS = 100;
const MAX_TEXT = 5_000;

/** A field's value: text, a number, a yes/no, nothing, or a list of those. */
const scalar = z.union([z.string().max(MAX_TEXT), z.number().finite(), z.boolean(), z.null()]);
const fieldValue = z.union([scalar, z.array(scalar).max(50)]);

export const entryDataSchema = z
  .record(
    z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z][\w-]*$/, "A field name is letters, digits, _ and -"),
    fieldValue,
  )
  .refine((data) => Object.keys(data).length <= MAX_FIELDS, `At most ${MAX_FIELDS} fields`);

export const createEntrySchema = z.object({ form: formIdSchema, data: entryDataSchema }).strict();
export type CreateEntryInput = z.infer<typeof createEntrySchema>;

export const updateEntrySchema = z.object({ data: entryDataSchema }).strict();
export type UpdateEntryInput = z.infer<typeof updateEntrySchema>;

export const listEntriesQuerySchema = z.object({ form: z.coerce.number().pipe(formIdSchema).optional() }).strict();

/** An entry's id in a path: a UUID, or the path names none. */
export const entryIdSchema = z.string().uuid("Not an entry id");
