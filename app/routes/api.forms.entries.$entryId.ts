import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { entryIdSchema, MISSING_PATH_MESSAGE, updateEntrySchema } from "~/domain/form-entries";
import { invalid, notFound } from "~/domain/errors";
import { withApiErrors } from "~/lib/http.server";
import { readJson } from "~/lib/json-body.server";
import { deleteFormEntry, getFormEntry, updateFormEntry } from "~/services/form-entries.server";
import { requireApiMember, withState } from "~/services/session.server";

const NO_STORE = { "Cache-Control": "no-store" };

/** The entry the path names: none is 'missing: path'; one that cannot be an entry's id is not found. */
function entryIdOf(value: string | undefined): string {
  if (!value?.trim()) throw invalid(MISSING_PATH_MESSAGE);
  const parsed = entryIdSchema.safeParse(value);
  if (!parsed.success) throw notFound("No such entry");
  return parsed.data;
}

/** GET {formsUrl}/entries/{id} → `{ entry }`. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { viewer, services } = await requireApiMember(request, context);
  return withApiErrors(async () => {
    const result = await getFormEntry(services, viewer, entryIdOf(params.entryId));
    return withState(json(result, { headers: NO_STORE }), request, viewer, services.config);
  });
}

/** PUT {formsUrl}/entries/{id} `{ data }` → `{ entry }`; DELETE → `{ deleted: true }`. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== "PUT" && request.method !== "DELETE") {
    return json({ error: "Use GET, PUT or DELETE" }, { status: 405, headers: { Allow: "GET, PUT, DELETE" } });
  }
  const { viewer, services } = await requireApiMember(request, context);
  const body = request.method === "PUT" ? await readJson(request, updateEntrySchema) : null;
  return withApiErrors(async () => {
    const id = entryIdOf(params.entryId);
    const result = body
      ? await updateFormEntry(services, viewer, id, body)
      : await deleteFormEntry(services, viewer, id);
    return withState(json(result, { headers: NO_STORE }), request, viewer, services.config);
  });
}
