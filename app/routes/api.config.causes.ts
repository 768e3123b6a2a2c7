import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { getCauseCatalogue, publicCatalogue } from "~/services/causes.server";
import { appServices } from "~/services/app.server";
import { readOnly } from "~/lib/json-body.server";

/** GET /api/config/causes: causes, countryCauses, mnInviteLink and mightyLinks. */
export async function loader({ context }: LoaderFunctionArgs) {
  const catalogue = publicCatalogue(await getCauseCatalogue(await appServices(context)));
  return json(catalogue, { headers: { "Cache-Control": "no-cache" } });
}

export const action = readOnly;
