import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { formFromParam, versionSchema } from "~/domain/nol/entries";
import { AUTO_SELECT_MODES } from "~/domain/nol/selection";
import { STEP_KINDS } from "~/domain/nol/step-form";
import { wholeNumber } from "~/domain/whole-numbers";
import { notFoundPage } from "~/lib/http.server";
import type { PageAddress } from "./pages.server";

type Params = LoaderFunctionArgs["params"];

/** The params and query of the /nol/{form}/… pages, read once for all of them. */

const querySchema = z.object({
  username: z.string().trim().min(1).max(32).optional().catch(undefined),
  /** An entry's edit or view link (or its hash) to select (spec §4 "Selection"). */
  href: z.string().trim().min(1).max(2_000).optional().catch(undefined),
  auto: z.enum(AUTO_SELECT_MODES).optional().catch(undefined),
  /** A respondent of the directory to put in the notice's first empty slot. */
  respondent: wholeNumber({ min: 1, coerce: true }).optional().catch(undefined),
  /** An earlier version whose answers a new version's first notice starts with. */
  from: versionSchema.optional().catch(undefined),
});
export type NolQuery = z.infer<typeof querySchema> & {
  version: z.output<typeof versionSchema> | undefined;
  /** A version name the query gave that is not one (blank, too long), and why: the new version form's error. */
  badVersion: { value: string; message: string } | null;
};

/** The form of the address, and whose notices: an unknown form goes to /nol/NotFound (spec §2.2). */
export function nolAddress(request: Request, params: Params): { address: PageAddress; query: NolQuery } {
  const form = formFromParam(params.form);
  if (!params.form || !form) throw redirect("/nol/NotFound");
  const search = new URL(request.url).searchParams;
  const raw = search.get("version");
  const version = raw === null ? null : versionSchema.safeParse(raw);
  const query: NolQuery = {
    ...querySchema.parse(Object.fromEntries(search)),
    version: version?.success ? version.data : undefined,
    badVersion:
      raw !== null && version?.error
        ? { value: raw, message: version.error.issues[0]?.message ?? "Name this version" }
        : null,
  };
  return { address: { segment: params.form, form, username: query.username }, query };
}

const stepParamSchema = z.enum(STEP_KINDS);

/** The step of /nol/{form}/{cause}/{step}: one of the step kinds, else this page does not exist (spec §8). */
export function stepParam(params: Params) {
  const step = stepParamSchema.safeParse(params.step);
  if (!step.success) notFoundPage();
  return step.data;
}
