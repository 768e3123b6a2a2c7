import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { forbidden } from "~/domain/errors";
import { stepUpFresh } from "~/domain/second-factor";
import { errorJson } from "~/lib/http.server";
import { readForm } from "~/lib/submission.server";
import { authenticationOptions, registrationOptions } from "~/services/factors/passkeys.server";
import { requireApiViewer } from "~/services/session.server";

const NO_STORE = { "Cache-Control": "no-store" };

/**
 * POST /profile/security/passkey: the options of a passkey ceremony for the member signed in
 * (JSON): `register-options` to add one (asking for a fresh factor first when they have one),
 * `factor-options` to pass one before a sensitive action. The answers are posted with the
 * page's own form.
 */
export async function loader() {
  throw json({ error: "Use POST" }, { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireApiViewer(request, context);
  const intent = (await readForm(request)).get("intent");
  if (intent === "factor-options") {
    return json(await authenticationOptions(services, "factor", viewer.user.id), { headers: NO_STORE });
  }
  if (intent === "register-options") {
    if (viewer.hasFactor && !stepUpFresh(viewer.session.factorPassedAt, new Date())) {
      return errorJson(forbidden("Confirm it is you with your second factor first, then add the passkey."));
    }
    return json(await registrationOptions(services, viewer.user.id), { headers: NO_STORE });
  }
  return json({ error: "Unknown action" }, { status: 400 });
}
