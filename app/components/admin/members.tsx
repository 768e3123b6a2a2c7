import type { SerializeFrom } from "@remix-run/node";
import { CreditHistory } from "~/components/billing/credit-history";
import { GRANT_MAX } from "~/domain/credit-text";
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { RecordPage } from "~/components/admin/record-page";
import { contactFacts } from "~/components/members/contact-facts";
import { MemberBilling } from "~/components/members/member-billing";
import { RoundTimeline } from "~/components/nol/round-timeline";
import { FactTable } from "~/components/ui/fact-table";
import { DataTable } from "~/components/ui/record-table";
import { SubmitButton } from "~/components/ui/submit-button";
import { formatDate, formatDateTime, formatMoney } from "~/lib/format";
import type { loader } from "~/routes/members.$userId";
import { RowAction } from "~/components/ui/row-action";
import { ConfirmForm } from "~/components/ui/intent-form";

type Page = SerializeFrom<typeof loader>["page"];

/** The member's flags an admin sets, with their fields' ids. */
const FLAGS = [
  { name: "nolCreator", id: "flag-creator", label: "NoL creator" },
  { name: "nolTester", id: "flag-tester", label: "NoL tester" },
] as const;

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card card-wide" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function Rows<T extends { id: string | number }>({
  rows,
  empty,
  columns,
}: {
  rows: T[];
  empty: string;
  columns: { header: string; cell: (row: T) => ReactNode }[];
}) {
  return rows.length ? <DataTable rows={rows} columns={columns} /> : <p>{empty}</p>;
}

/** A section of the page listing rows, or saying there are none; `children` follow the list. */
function RowsSection<T extends { id: string | number }>({
  id,
  title,
  children,
  ...list
}: {
  id: string;
  title: string;
  rows: T[];
  empty: string;
  columns: { header: string; cell: (row: T) => ReactNode }[];
  children?: ReactNode;
}) {
  return (
    <Section id={id} title={title}>
      <Rows {...list} />
      {children}
    </Section>
  );
}

/** A member named in the audit trail, opening their page; "—" for one whose account is gone. */
function MemberLink({ member }: { member: { id: string; username: string } | null }) {
  return member ? <Link to={`/members/${member.id}`}>{member.username}</Link> : <>—</>;
}

/** /members/{id}: everything about one member, with the admin's actions on them. */
export function MemberDetail({ page }: { page: Page }) {
  const m = page.detail;
  const sessions = page.sessions.map((s) => ({ ...s, id: s.code }));
  return (
    <>
      <RecordPage title={m.username} titleId="member-title" back={{ to: "/members", label: "All members" }}>
        <FactTable
          facts={[
            ...contactFacts(m, m.emailVerified ? "(confirmed)" : "(not confirmed)", page.countryShown),
            ["Roles", m.roles.join(", ") || "Member"],
            ["Labels", page.labelsShown || "None"],
            ["Setup", m.needsSetup ? "Not finished" : "Done"],
            ["Membership", page.membershipShown],
            ["Joined", formatDate(m.createdAt)],
            ...(m.hasPassword
              ? []
              : [["Password", "None yet (an invitation or a password link sets one)"] as [string, string]]),
            ["Last seen", m.lastSeenAt ? formatDateTime(m.lastSeenAt) : "never"],
          ]}
        />
        <Form method="post" className="form member-flags">
          <fieldset>
            <legend>Flags</legend>
            {FLAGS.map((flag) => (
              <div className="checkbox" key={flag.name}>
                <input
                  id={flag.id}
                  type="checkbox"
                  name={flag.name}
                  value="on"
                  defaultChecked={page.flags[flag.name]}
                />
                <label htmlFor={flag.id}>{flag.label}</label>
              </div>
            ))}
          </fieldset>
          <SubmitButton name="intent" value="flags" pendingText="Saving…">
            Save the flags
          </SubmitButton>
        </Form>
        <Form method="post" action="/admin" className="actions">
          <input type="hidden" name="intent" value="start-agent" />
          <input type="hidden" name="userId" value={m.id} />
          <SubmitButton pendingText="Switching…">Act as this member</SubmitButton>
        </Form>
      </RecordPage>
      <MemberBilling billing={page.billing} />
      <Section id="member-credits" title="Notarize credits">
        <CreditHistory balance={page.credits.balance} history={page.credits.history} owner="The member has" />
        <Form method="post" className="form" aria-label="Grant notarize credits">
          <div className="field">
            <label htmlFor="grant-count">Credits to grant</label>
            <input id="grant-count" name="count" type="number" min={1} max={GRANT_MAX} defaultValue={1} required />
          </div>
          <div className="field">
            <label htmlFor="grant-note">Why (kept in the member's history and the audit log)</label>
            <input id="grant-note" name="note" maxLength={200} required />
          </div>
          <SubmitButton name="intent" value="grant-credits" pendingText="Granting…">
            Grant credits
          </SubmitButton>
        </Form>
      </Section>
      <ComplimentarySection username={m.username} complimentary={page.complimentary} />
      <RowsSection
        id="member-coupons"
        title="Coupons redeemed"
        rows={page.coupons}
        empty="No coupon redeemed."
        columns={[
          { header: "Coupon", cell: (c) => `${c.coupon} (${c.code})` },
          {
            header: "Paid",
            cell: (c) => `${formatMoney(c.amountCents, c.currency)} of ${formatMoney(c.listAmountCents, c.currency)}`,
          },
          { header: "When", cell: (c) => formatDate(c.redeemedAt) },
        ]}
      />
      <Section id="member-timelines" title="NoL timelines">
        {page.timelines.length === 0 ? <p>No round recorded yet.</p> : null}
        {page.timelines.map((t, i) => (
          <div key={t.id}>
            <RoundTimeline
              timeline={t.timeline}
              trackingBase={page.trackingUrl}
              calendarHref={t.calendarHref}
              title={`${t.cause} · ${t.version}`}
              titleId={`member-timeline-${i}`}
            />
            <p>
              <Link to={t.href}>Open this version&apos;s notices</Link>
            </p>
          </div>
        ))}
      </Section>
      <Section id="member-entries" title="NoL entries">
        <Rows
          rows={page.entries}
          empty="No NoL entries."
          columns={[
            { header: "Cause", cell: (e) => e.cause },
            { header: "Version", cell: (e) => e.version },
            { header: "Entry", cell: (e) => e.label },
            { header: "Rounds", cell: (e) => e.rounds },
            { header: "Updated", cell: (e) => formatDate(e.updatedAt) },
          ]}
        />
        <Rows
          rows={page.versions}
          empty="No member versions."
          columns={[
            { header: "Version", cell: (v) => `${v.causeName} · ${v.version}` },
            {
              header: "Features",
              cell: (v) => (
                <Form method="post" className="inline-form">
                  <input type="hidden" name="cause" value={v.cause} />
                  <input type="hidden" name="version" value={v.version} />
                  <div className="checkbox">
                    <input
                      id={`features-${v.id}`}
                      type="checkbox"
                      name="allowNotarizeOnline"
                      value="on"
                      defaultChecked={v.AllowNotarizeOnline}
                    />
                    <label htmlFor={`features-${v.id}`}>May be notarized online</label>
                  </div>
                  <SubmitButton
                    name="intent"
                    value="version-features"
                    pendingText="Saving…"
                    aria-label={`Save the features of ${v.causeName} · ${v.version}`}
                  >
                    Save
                  </SubmitButton>
                </Form>
              ),
            },
          ]}
        />
        <Rows
          rows={page.notices}
          empty="No notices yet."
          columns={[
            { header: "Notice", cell: (n) => `${n.cause} · ${n.version} · ${n.round}` },
            { header: "Notarization", cell: (n) => n.notarization ?? "—" },
          ]}
        />
      </Section>
      <RowsSection
        id="member-sessions"
        title="Sessions"
        rows={sessions}
        empty="No session is open."
        columns={[
          { header: "Device", cell: (s) => `${s.device}${s.agentMode ? " (an admin acting)" : ""}` },
          { header: "Address", cell: (s) => s.ip ?? "—" },
          { header: "Signed in", cell: (s) => formatDateTime(s.createdAt) },
          { header: "Last used", cell: (s) => formatDateTime(s.lastSeenAt) },
          {
            header: "Action",
            cell: (s) => (
              <RowAction
                intent="end-session"
                field="session"
                value={s.code}
                className="button button-primary"
                pendingText="Logging out…"
                label={`Log out the session on ${s.device} last used ${formatDateTime(s.lastSeenAt)}`}
              >
                Log out
              </RowAction>
            ),
          },
        ]}
      >
        {sessions.length ? (
          <ConfirmForm intent="end-sessions" confirmText="Click again to sign them out">
            Sign out everywhere
          </ConfirmForm>
        ) : null}
      </RowsSection>
      <Section id="member-factors" title="Second factor">
        <p>{page.factorsShown}</p>
        {page.factors.passkeys > 0 || page.factors.totp ? (
          <ConfirmForm intent="reset-factors" confirmText="Click again: every factor and session of theirs ends">
            Reset second factors
          </ConfirmForm>
        ) : null}
        <p className="hint">
          For a member who lost every factor and recovery code: they are e-mailed and sign in with their password alone,
          then set one up again.
        </p>
      </Section>
      <RowsSection
        id="member-support"
        title="Support requests"
        rows={page.support}
        empty="No support requests."
        columns={[
          { header: "Subject", cell: (r) => r.subject },
          { header: "Sent", cell: (r) => formatDateTime(r.createdAt) },
        ]}
      >
        {page.support.length ? <Link to="/db/support_requests">All support requests</Link> : null}
      </RowsSection>
      <RowsSection
        id="member-audit"
        title="Audit trail"
        rows={page.audit}
        empty="Nothing recorded yet."
        columns={[
          { header: "When", cell: (a) => formatDateTime(a.at) },
          {
            header: "Who",
            cell: (a) => (
              <>
                <MemberLink member={a.by} />
                {a.as ? (
                  <>
                    {" as "}
                    <MemberLink member={a.as} />
                  </>
                ) : null}
              </>
            ),
          },
          { header: "What", cell: (a) => a.what },
          { header: "From", cell: (a) => a.ip ?? "—" },
        ]}
      />
    </>
  );
}

/** A membership an admin gives: the one in force, ending it, and granting one (decision 037). */
function ComplimentarySection({
  username,
  complimentary: { current, plans },
}: {
  username: string;
  complimentary: Page["complimentary"];
}) {
  return (
    <Section id="member-complimentary" title="Complimentary membership">
      {current ? (
        <>
          <p>
            {username} has the {current.plan} as a complimentary membership
            {current.endsOn ? ` until ${current.endsOn}` : ", with no end date"}, granted by{" "}
            {current.grantedBy ?? "a former admin"}
            {current.since ? ` on ${current.since}` : ""}.
          </p>
          {current.note ? <p>Note: {current.note}</p> : null}
          <ConfirmForm intent="end-complimentary" confirmText="Click again to end it">
            End it now
          </ConfirmForm>
        </>
      ) : (
        <p>None. A complimentary membership gives a plan and its features with nothing to pay.</p>
      )}
      <Form method="post" className="form" aria-label="Grant a complimentary membership">
        <div className="field">
          <label htmlFor="complimentary-plan">Plan</label>
          <select id="complimentary-plan" name="planId" required>
            {plans.map((plan) => (
              <option key={plan.id} value={plan.id}>
                {plan.title}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="complimentary-ends">Ends on (optional: none, and it lasts until ended)</label>
          <input id="complimentary-ends" name="endsOn" type="date" />
        </div>
        <div className="field">
          <label htmlFor="complimentary-note">Note (optional, kept with it and in the audit log)</label>
          <textarea id="complimentary-note" name="note" rows={2} maxLength={500} />
        </div>
        <SubmitButton name="intent" value="grant-complimentary" pendingText="Granting…">
          {current ? "Replace it" : "Grant"}
        </SubmitButton>
      </Form>
    </Section>
  );
}
