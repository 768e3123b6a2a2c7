import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { Alert } from "~/components/ui/alert";
import { formatDateTime, formatMoney } from "~/lib/format";
import type { dashboard } from "~/services/dashboard.server";
import { TableScroll } from "~/components/ui/table-scroll";

type Data = SerializeFrom<Awaited<ReturnType<typeof dashboard>>>;

const n = (value: number) => value.toLocaleString("en-US");

function Stat({ label, value, to }: { label: string; value: string; to: string }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd>
        <Link to={to}>{value}</Link>
      </dd>
    </div>
  );
}

/** Bars of one series per week, with the numbers in a table beside them for screen readers. */
function WeekChart({
  title,
  weeks,
  value,
  format,
}: {
  title: string;
  weeks: Data["weeks"];
  value: (w: Data["weeks"][number]) => number;
  format: (v: number) => string;
}) {
  const max = Math.max(1, ...weeks.map(value));
  const width = 24;
  const height = 100;
  return (
    <figure className="week-chart">
      <figcaption>{title}</figcaption>
      <svg
        viewBox={`0 0 ${weeks.length * width} ${height + 2}`}
        role="img"
        aria-label={`${title}, the last ${weeks.length} weeks`}
      >
        {weeks.map((w, i) => {
          const h = Math.round((value(w) / max) * height);
          return (
            <rect key={w.week} x={i * width + 3} y={height - h} width={width - 6} height={Math.max(h, 1)}>
              <title>{`Week of ${w.week}: ${format(value(w))}`}</title>
            </rect>
          );
        })}
      </svg>
      <details>
        <summary>The numbers</summary>
        <table className="data">
          <thead>
            <tr>
              <th scope="col">Week of</th>
              <th scope="col">{title}</th>
            </tr>
          </thead>
          <tbody>
            {weeks.map((w) => (
              <tr key={w.week}>
                <td>{w.week}</td>
                <td>{format(value(w))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

/** The admins' dashboard: each number opens the list behind it. */
export function Dashboard({ data }: { data: Data }) {
  return (
    <section className="card card-wide" aria-labelledby="dashboard-title">
      <h2 id="dashboard-title">The community</h2>
      {data.missingCauses ? (
        <Alert kind="warn" title="Missing causes">
          The cause catalogue has no causes: members cannot start a notice. <Link to="/causes">Add causes</Link>.
        </Alert>
      ) : null}
      <dl className="stats">
        <Stat label="Members" value={n(data.members.total)} to="/members" />
        <Stat
          label="New this week"
          value={n(data.members.newThisWeek)}
          to={`/members?joined_from=${new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10)}`}
        />
        <Stat label="Active memberships" value={n(data.subscriptions.active)} to="/members?status=ACTIVE" />
        <Stat
          label="Monthly recurring revenue"
          value={formatMoney(data.subscriptions.mrrCents, "USD")}
          to="/db/subscriptions?status=ACTIVE"
        />
        <Stat label="Failed payments (30 days)" value={n(data.failedPayments)} to="/db/payments?status=failed" />
        <Stat label="Coupons redeemed (30 days)" value={n(data.couponRedemptions)} to="/db/coupon_redemptions" />
        <Stat label="Notarizations in progress" value={n(data.notarizationsInProgress)} to="/db/notarizations" />
        <Stat
          label="Respondent suggestions and reassessments waiting"
          value={n(data.respondentReviews)}
          to="/respondents/review"
        />
        <Stat label="Mail waiting" value={n(data.outbox.pending)} to="/db/mail_outbox?status=pending" />
        <Stat label="Mail failed" value={n(data.outbox.failed)} to="/db/mail_outbox?status=failed" />
        <Stat
          label="Webhook events not yet applied"
          value={n(data.webhookBacklog)}
          to="/db/webhook_events?sort=processedAt&dir=asc"
        />
        <Stat
          label="Webhook events that could not be read"
          value={n(data.webhookUnreadable)}
          to="/db/webhook_events?sort=error&dir=desc"
        />
      </dl>
      <h3>Members by membership</h3>
      <ul className="inline-list">
        {data.members.byStatus.map((s) => (
          <li key={s.status}>
            <Link to={`/members?status=${encodeURIComponent(s.status)}`}>
              {s.status === "none" ? "No membership" : s.status}: {n(s.n)}
            </Link>
          </li>
        ))}
      </ul>
      <div className="week-charts">
        <WeekChart title="Sign-ups" weeks={data.weeks} value={(w) => w.signups} format={n} />
        <WeekChart
          title="Revenue"
          weeks={data.weeks}
          value={(w) => w.revenueCents}
          format={(v) => formatMoney(v, "USD")}
        />
      </div>
      <h3>Client errors (30 days)</h3>
      {data.errors.length === 0 ? (
        <p>No client errors have been reported.</p>
      ) : (
        <TableScroll label="Client errors">
          <table className="data">
            <thead>
              <tr>
                <th scope="col">Message</th>
                <th scope="col">Reports</th>
                <th scope="col">Last</th>
              </tr>
            </thead>
            <tbody>
              {data.errors.map((e) => (
                <tr key={e.message}>
                  <td>
                    {e.message}
                    {e.stack ? (
                      <details>
                        <summary>Newest stack{e.href ? ` (${e.href})` : ""}</summary>
                        <pre className="mail">{e.stack}</pre>
                      </details>
                    ) : null}
                  </td>
                  <td>
                    <Link to={`/db/error_reports?message=${encodeURIComponent(e.message.slice(0, 200))}`}>
                      {n(e.n)}
                    </Link>
                  </td>
                  <td>{formatDateTime(e.last)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
