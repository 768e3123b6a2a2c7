import { z } from "zod";
import { versionSchema } from "../nol/entries";
import { LAST_ROUND } from "./templates";
import { PREVIEW_PATH } from "./paths";
import { INTEGER_MAX } from "../whole-numbers";

export { PREVIEW_PATH };

/**
 * spec §3 "The current NoL is identified by cf_number, cf_version and round_cnt": the form
 * entry's number, the version's name and the round (docs/decisions/020).
 */

const entryNumber = z.number().int().positive().max(INTEGER_MAX);
const round = z.number().int().min(1).max(LAST_ROUND);

/** POST /api/nol/preview's body. */
export const noticeIdsSchema = z
  .object({ cf_number: entryNumber, cf_version: versionSchema, round_cnt: round })
  .strict();
export type NoticeIds = z.infer<typeof noticeIdsSchema>;

/** The same in a query string (the GET a page frames or links to), with `download=1` to save it. */
export const noticeIdsQuerySchema = z.object({
  cf_number: z.coerce.number().pipe(entryNumber),
  cf_version: versionSchema,
  round_cnt: z.coerce.number().pipe(round),
  download: z.literal("1").optional(),
});

/** The address of a notice's document: shown in a frame, or saved with `download`. */
export function previewHref(ids: NoticeIds, options: { download?: boolean } = {}): string {
  const query = new URLSearchParams({
    cf_number: String(ids.cf_number),
    cf_version: ids.cf_version,
    round_cnt: String(ids.round_cnt),
  });
  if (options.download) query.set("download", "1");
  return `${PREVIEW_PATH}?${query}`;
}
