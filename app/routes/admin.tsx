import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AdminPage } from "~/components/admin/admin-page";
import { ENTER_USERNAME, representSchema } from "~/lib/schemas.server";
import { Dashboard } from "~/components/admin/dashboard";
import { parseSubmission, replyWith, withFormErrors } from "~/lib/submission.server";
import { startAgent, stopAgent } from "~/services/agent.server";
import { dashboard } from "~/services/dashboard.server";
import { requireStepUp } from "~/services/factors/step-up.server";
import { requireAdmin } from "~/services/session.server";
import { redirectWithFlash } from "~/services/flash.server";

export const meta: MetaFunction = () => [{ title: "Admin" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  return json(
    { agent: viewer.agent?.username ?? null, dashboard: await dashboard(services) },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  const { form, submission } = await parseSubmission(request, representSchema);
  const refuse = (message: string) => replyWith(submission, { fieldErrors: { username: [message] } });
  if (submission.status !== "success") return refuse(ENTER_USERNAME);
  const choice = submission.value;
  if (choice.intent === "stop-agent") {
    await stopAgent(services, viewer);
    return redirectWithFlash("/admin", { kind: "success", message: "You are yourself again." }, services.config);
  }
  if (!choice.userId && !choice.username) return refuse(ENTER_USERNAME);
  await requireStepUp(services, viewer, "agent-mode", request, form);
  return withFormErrors(submission, async () => {
    const { username } = await startAgent(services, viewer, choice);
    return redirectWithFlash(
      "/",
      { kind: "warn", message: `You are now representing ${username}. Every change is recorded.` },
      services.config,
    );
  });
}

export default function Admin() {
  const { agent, dashboard: numbers } = useLoaderData<typeof loader>();
  return (
    <>
      <AdminPage agent={agent} lastResult={useActionData<typeof action>()?.result} />
      <Dashboard data={numbers} />
    </>
  );
}

/** A step-up prompt in the place of the page when a sensitive action asks for a fresh second factor. */
export { StepUpBoundary as ErrorBoundary } from "~/components/factors/step-up-card";
