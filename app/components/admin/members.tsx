import type { SerializeFrom } from "@remix-run/node";
import { Form } from "@remix-run/react";
import { RecordPage } from "~/components/admin/record-page";
import { commonFacts } from "~/components/members/member-facts";
import { ConfirmButton } from "~/components/ui/confirm-button";
import { FactTable } from "~/components/ui/fact-table";
import { SubmitButton } from "~/components/ui/submit-button";
import { formatDate } from "~/lib/format";
import type { memberDetail } from "~/services/members.server";

type Detail = SerializeFrom<typeof memberDetail>;

/** /members/{id}: one member, with the admin's two actions on them. */
export function MemberDetail({ member: m }: { member: Detail }) {
  return (
    <RecordPage title={m.username} titleId="member-title" back={{ to: "/members", label: "All members" }}>
      <FactTable
        facts={[
          ...commonFacts(m, m.emailVerified ? "(confirmed)" : "(not confirmed)"),
          ["Roles", m.roles.join(", ") || "member"],
          ["Setup", m.needsSetup ? "not finished" : "done"],
          ["Membership", `${m.subStatus ?? "none"}${m.expiration ? ` until ${formatDate(m.expiration)}` : ""}`],
          ["Joined", formatDate(m.createdAt)],
        ]}
      />
      <Form method="post" action="/admin" className="actions">
        <input type="hidden" name="intent" value="start-agent" />
        <input type="hidden" name="userId" value={m.id} />
        <SubmitButton pendingText="Switching…">Represent this member</SubmitButton>
      </Form>
      <Form method="post" className="actions">
        <input type="hidden" name="intent" value="end-sessions" />
        <ConfirmButton confirmText="Click again to sign them out">Sign out everywhere</ConfirmButton>
      </Form>
    </RecordPage>
  );
}
