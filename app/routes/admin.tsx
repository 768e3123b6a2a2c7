import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { LinkList, RECORDS } from "~/components/record-links";
import { Alert } from "~/components/ui/alert";
import { Field } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { startAgent, stopAgent } from "~/services/agent.server";
import { formFailure, readForm } from "~/services/forms.server";
import { redirectWithFlash, requireAdmin } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Admin" }];

const intentSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("start-agent"),
    userId: z.string().uuid().optional(),
    username: z.string().trim().min(1, "Enter a username").max(32).optional(),
  }),
  z.object({ intent: z.literal("stop-agent") }),
]);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer } = await requireAdmin(request, context);
  return json({ agent: viewer.agent?.username ?? null });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  const form = await readForm(request);
  const parsed = intentSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return formFailure(form, { username: ["Enter the username of the member to represent"] });
  if (parsed.data.intent === "stop-agent") {
    await stopAgent(services, viewer);
    return redirectWithFlash("/admin", { kind: "success", message: "You are yourself again." }, services.config);
  }
  if (!parsed.data.userId && !parsed.data.username)
    return formFailure(form, { username: ["Enter the username of the member to represent"] });
  const result = await startAgent(services, viewer, parsed.data);
  if (!result.ok) return formFailure(form, { username: [result.message] });
  return redirectWithFlash(
    "/",
    { kind: "warn", message: `You are now representing ${result.username}. Every change is recorded.` },
    services.config,
  );
}

export default function Admin() {
  const { agent } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  return (
    <section className="card" aria-labelledby="admin-title">
      <h1 id="admin-title">Admin</h1>
      <LinkList
        links={[{ to: "/members", label: "Members" }, { to: "/coupon/discounts", label: "Coupons" }, ...RECORDS]}
      />
      <h2>Represent a member</h2>
      {agent ? (
        <Alert kind="warn">
          You are representing {agent}.
          <Form method="post" className="inline">
            <input type="hidden" name="intent" value="stop-agent" />{" "}
            <button type="submit" className="link-button">
              Stop representing
            </button>
          </Form>
        </Alert>
      ) : null}
      <p className="muted">
        While you represent a member you see the site as they do; every change is recorded with both names.
      </p>
      <Form method="post" className="form" noValidate>
        <input type="hidden" name="intent" value="start-agent" />
        <Field
          label="Username"
          name="username"
          required
          defaultValue={failure?.values.username}
          errors={failure?.fieldErrors.username}
        />
        <div className="actions">
          <SubmitButton pendingText="Switching…">Represent</SubmitButton>
        </div>
      </Form>
    </section>
  );
}
