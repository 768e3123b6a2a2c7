import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { withApiErrors } from "~/lib/http.server";
import { postOnly, readJson } from "~/lib/json-body.server";
import { creatorAuth } from "~/services/nol/access.server";
import { requireApiMember, withState } from "~/services/session.server";

const bodySchema = z.object({ username: z.string().trim().min(1).max(32).optional() }).strict();

/** POST /api/creator/auth: the auth entry the forms are filled with (spec §3 "Auth entry"). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return postOnly();
  const { viewer, services } = await requireApiMember(request, context);
  const { username } = await readJson(request, bodySchema);
  return withApiErrors(async () =>
    withState(json(await creatorAuth(services, viewer, username)), request, viewer, services.config),
  );
}

export const loader = postOnly;
