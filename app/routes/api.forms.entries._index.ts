import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { createEntrySchema, listEntriesQuerySchema } from "~/domain/form-entries";
import { withApiErrors } from "~/lib/http.server";
import { parseWith, readJson } from "~/lib/json-body.server";
import { createFormEntry, listFormEntries } from "~/services/form-entries.server";
import { requireApiMember, withState } from "~/services/session.server";

const NO_STORE = { "Cache-Control": "no-store" };

/** GET {formsUrl}/entries[?form=id]: the member's own entries → `{ list }`. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireApiMember(request, context);
  return withApiErrors(async () => {
    const query = parseWith(
      listEntriesQuerySchema,
      Object.fromEntries(new URL(request.url).searchParams),
      "Invalid query",
    );
    const result = await listFormEntries(services, viewer, query.form);
    return withState(json(result, { headers: NO_STORE }), request, viewer, services.config);
  });
}

/** POST {formsUrl}/entries `{ form, data }` → `{ entry }` (201). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") {
    return json({ error: "Use GET or POST" }, { status: 405, headers: { Allow: "GET, POST" } });
  }
  const { viewer, services } = await requireApiMember(request, context);
  const body = await readJson(request, createEntrySchema);
  return withApiErrors(async () => {
    const result = await createFormEntry(services, viewer, body, { ip: context.clientIp });
    return withState(json(result, { status: 201, headers: NO_STORE }), request, viewer, services.config);
  });
}
