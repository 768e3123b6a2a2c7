import { z } from "zod";

/** What the members import's pages take (decision 038). */

export const IMPORT_VIEWS = ["all", "create", "update", "skip"] as const;
export type ImportView = (typeof IMPORT_VIEWS)[number];

/** An import's id in the path; anything else names no import. */
export const importIdSchema = z.string().uuid();

/** /members/import/{id}?view&after: which of the dry run's rows, from which row on; anything else reads as the start. */
export const importPageQuerySchema = z.object({
  view: z.enum(IMPORT_VIEWS).catch("all"),
  after: z.coerce.number().int().min(0).max(100_000_000).catch(0),
});

/** The upload's fields besides the file. */
export const importUploadSchema = z.object({
  invite: z
    .literal("on", { errorMap: () => ({ message: "Tick the box, or leave it" }) })
    .optional()
    .transform((value) => value === "on"),
});

/** POST /members/import/{id}: start the checked import, or throw it away. */
export const importIntentSchema = z.object({
  intent: z.enum(["start", "discard"], { errorMap: () => ({ message: "Choose to import or to discard" }) }),
});
