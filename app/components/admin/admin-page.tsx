import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { z } from "zod";
import { Field } from "~/components/forms/fields";
import { LinkList, RECORDS } from "~/components/record-links";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/submit-button";

export const ENTER_USERNAME = "Enter the username of the member to represent";

/** Start representing a member (by username from this form, by id from a member's page), or stop. */
export const representSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("start-agent"),
    userId: z.string().uuid().optional(),
    username: z.string().trim().min(1, ENTER_USERNAME).max(32, ENTER_USERNAME).optional(),
  }),
  z.object({ intent: z.literal("stop-agent") }),
]);

const ADMIN_LINKS = [
  { to: "/members", label: "Members" },
  { to: "/coupon/discounts", label: "Coupons" },
  { to: "/causes", label: "Causes" },
  { to: "/admin/jobs", label: "Background jobs" },
  { to: "/admin/templates", label: "Document templates" },
  ...RECORDS,
];

/** The admin's page: the admin areas, and representing a member (or stopping). */
export function AdminPage({
  agent,
  lastResult,
}: {
  agent: string | null;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useForm<{ intent: string; userId?: string; username?: string }>({
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: representSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <section className="card" aria-labelledby="admin-title">
      <h1 id="admin-title">Admin</h1>
      <LinkList links={ADMIN_LINKS} />
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
      <Form method="post" className="form" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="start-agent" />
        <Field meta={fields.username} label="Username" required />
        <div className="actions">
          <SubmitButton pendingText="Switching…">Represent</SubmitButton>
        </div>
      </Form>
    </section>
  );
}
