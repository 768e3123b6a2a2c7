import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { getCauseCatalogue } from "~/services/causes.server";

/** GET /api/config/causes: causes, countryCauses, mnInviteLink and mightyLinks. */
export async function loader({ context }: LoaderFunctionArgs) {
  return json(await getCauseCatalogue(context.app.db), { headers: { "Cache-Control": "no-cache" } });
}
