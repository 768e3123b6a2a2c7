import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { Card } from "~/components/identity/card";
import { SubmitButton } from "~/components/ui/submit-button";
import { formatDate } from "~/lib/format";
import { undoChoiceSchema } from "~/lib/schemas.server";
import { readForm } from "~/lib/submission.server";
import { appServices } from "~/services/app.server";
import { keepAccountAndLogIn, sessionCookies } from "~/services/auth.server";
import { clearPendingLoginCookie, readPendingLogin, rememberToken } from "~/services/factors/sign-in.server";
import { flashHeader, redirectWithFlash } from "~/services/flash.server";
import { pendingDeletionFor } from "~/services/member-data/deletion.server";
import { clientMeta } from "~/services/session.server";

export const handle = { layout: "logo" };

export const meta: MetaFunction = () => [{ title: "Your account is deleted" }];

const EXPIRED = "Your sign-in waited too long. Log in again.";
const KEPT = "Your account is kept. Any membership you had stays cancelled; you can join again whenever you like.";

/**
 * /login/undo-delete: a member whose deleted account is in its grace period (decision 051) has
 * given their password; they keep the account, or leave it to be erased.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const services = await appServices(context);
  const pending = await readPendingLogin(request, services.config);
  const deletion = pending ? await pendingDeletionFor(services, pending.userId) : null;
  if (!deletion) throw await redirectWithFlash("/login", { kind: "warn", message: EXPIRED }, services.config);
  return json({ dueOn: formatDate(deletion.dueAt) }, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const services = await appServices(context);
  const { config } = services;
  const pending = await readPendingLogin(request, config);
  if (!pending) throw await redirectWithFlash("/login", { kind: "warn", message: EXPIRED }, config);
  const choice = undoChoiceSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!choice.success) return json({ error: "Choose to keep your account or to leave it deleted" }, { status: 400 });
  const cleared = { "Set-Cookie": await clearPendingLoginCookie(config) };
  if (choice.data.intent === "leave") {
    return redirectWithFlash("/", { kind: "success", message: "Your account stays deleted." }, config, cleared);
  }
  const client = clientMeta(request, context.clientIp, pending.devicePublicKey);
  const next = await keepAccountAndLogIn(services, pending.userId, client, await rememberToken(request, config));
  if (next.kind === "too-late") {
    return redirectWithFlash(
      "/login",
      { kind: "error", message: "This account can no longer be kept." },
      config,
      cleared,
    );
  }
  // The pending sign-in stands for its second factor.
  if (next.kind === "factor") {
    return redirect("/login/factor", {
      headers: { "Set-Cookie": await flashHeader(config, { kind: "success", message: `${KEPT} Confirm it is you.` }) },
    });
  }
  const headers = await sessionCookies(config, next.sessionId, pending.redirectTo || undefined);
  headers.append("Set-Cookie", cleared["Set-Cookie"]);
  headers.append("Set-Cookie", await flashHeader(config, { kind: "success", message: KEPT }));
  headers.set("Location", "/redirect-login-success");
  return new Response(null, { status: 302, headers });
}

export default function UndoDelete() {
  const { dueOn } = useLoaderData<typeof loader>();
  return (
    <Card
      id="undo-delete-title"
      title="Your account is deleted"
      lead={`Your data is erased on ${dueOn}. You can still keep your account; any membership you had stays cancelled, and you can join again.`}
    >
      <Form method="post" className="actions">
        <button type="submit" name="intent" value="leave" className="button">
          Leave it deleted
        </button>
        <SubmitButton name="intent" value="keep" className="button button-primary" pendingText="Keeping it…">
          Keep my account
        </SubmitButton>
      </Form>
    </Card>
  );
}
