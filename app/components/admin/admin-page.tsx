import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { Field, formProps, useFormState, useSchemaValidation } from "~/components/forms/fields";
import { LinkList, RECORDS } from "~/components/record-links";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/submit-button";

const ADMIN_LINKS = [
  { to: "/members", label: "Members" },
  { to: "/coupon/discounts", label: "Coupons" },
  { to: "/causes", label: "Causes" },
  { to: "/admin/jobs", label: "Background jobs" },
  { to: "/admin/backups", label: "Backups" },
  { to: "/members/deletions", label: "Deleted accounts" },
  { to: "/admin/templates", label: "Document templates" },
  { to: "/admin/mailings", label: "Letters mailed from the app" },
  { to: "/admin/settings", label: "Community settings: links and mailing" },
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
  // One field: checked on submit, not as the admin leaves it.
  const [form, fields] = useFormState<{ intent: string; userId?: string; username?: string }>({
    lastResult,
    check: useSchemaValidation(() => import("~/domain/represent").then((m) => m.representSchema)),
    live: false,
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
      <Form method="post" className="form" {...formProps(form)}>
        <input type="hidden" name="intent" value="start-agent" />
        <Field meta={fields.username} label="Username" required />
        <div className="actions">
          <SubmitButton pendingText="Switching…">Represent</SubmitButton>
        </div>
      </Form>
    </section>
  );
}
