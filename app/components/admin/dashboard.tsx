import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { Alert } from "~/components/ui/alert";
import { axisTicks, labelledBars } from "~/domain/chart-axis";
import { formatDate, formatDateTime, formatMoney, formatShortDate, formatWholeDollars } from "~/lib/format";
import type { dashboard } from "~/services/dashboard.server";
import { DataTable } from "~/components/ui/record-table";
import { membershipWords } from "~/domain/words";

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

const CHART = { width: 320, height: 180, left: 48, right: 6, top: 10, bottom: 24 };

/**
 * Bars of one series per week over a value axis with round numbers and the weeks' dates; the
 * numbers are in a table under it too, for screen readers and for reading them exactly.
 */
function WeekChart({
  title,
  weeks,
  value,
  format,
  axisFormat,
  minStep,
}: {
  title: string;
  weeks: Data["weeks"];
  value: (w: Data["weeks"][number]) => number;
  format: (v: number) => string;
  axisFormat: (v: number) => string;
  minStep: number;
}) {
  const ticks = axisTicks(Math.max(0, ...weeks.map(value)), { minStep });
  const top = ticks[ticks.length - 1] ?? 1;
  const plotWidth = CHART.width - CHART.left - CHART.right;
  const plotHeight = CHART.height - CHART.top - CHART.bottom;
  const base = CHART.top + plotHeight;
  const y = (v: number) => base - (v / top) * plotHeight;
  const slot = plotWidth / Math.max(1, weeks.length);
  const dated = new Set(labelledBars(weeks.length));
  return (
    <figure className="week-chart">
      <figcaption>{title}</figcaption>
      <svg
        viewBox={`0 0 ${CHART.width} ${CHART.height}`}
        role="img"
        aria-label={`${title}, the last ${weeks.length} weeks, up to ${format(Math.max(0, ...weeks.map(value)))} a week`}
      >
        <g className="chart-axis chart-y">
          {ticks.map((t) => (
            <g key={t}>
              <line x1={CHART.left} x2={CHART.width - CHART.right} y1={y(t)} y2={y(t)} />
              <text x={CHART.left - 6} y={y(t)} textAnchor="end" dominantBaseline="middle">
                {axisFormat(t)}
              </text>
            </g>
          ))}
        </g>
        <g className="chart-bars">
          {weeks.map((w, i) => {
            const h = base - y(value(w));
            return (
              <rect key={w.week} x={CHART.left + i * slot + 3} y={base - h} width={slot - 6} height={Math.max(h, 1)}>
                <title>{`Week of ${formatDate(w.week)}: ${format(value(w))}`}</title>
              </rect>
            );
          })}
        </g>
        <g className="chart-axis chart-x">
          <line x1={CHART.left} x2={CHART.width - CHART.right} y1={base} y2={base} />
          {weeks.map((w, i) =>
            dated.has(i) ? (
              <text key={w.week} x={CHART.left + i * slot + slot / 2} y={CHART.height - 6} textAnchor="middle">
                {formatShortDate(w.week)}
              </text>
            ) : null,
          )}
        </g>
      </svg>
      <details>
        <summary>{title} by week</summary>
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
                <td>{formatDate(w.week)}</td>
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
        {(
          [
            ["Members", n(data.members.total), "/members"],
            [
              "New this week",
              n(data.members.newThisWeek),
              `/members?joined_from=${new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10)}`,
            ],
            ["Active memberships", n(data.subscriptions.active), "/members?status=ACTIVE"],
            [
              "Monthly recurring revenue",
              formatMoney(data.subscriptions.mrrCents, "USD"),
              "/db/subscriptions?status=ACTIVE",
            ],
            ["Failed payments (30 days)", n(data.failedPayments), "/db/payments?status=failed"],
            ["Coupons redeemed (30 days)", n(data.couponRedemptions), "/db/coupon_redemptions"],
            ["Notarizations in progress", n(data.notarizationsInProgress), "/db/notarizations"],
            ["Respondent suggestions and reassessments waiting", n(data.respondentReviews), "/respondents/review"],
            ["NoL versions whose next round could go out", n(data.waitingRounds), "/admin/waiting-rounds"],
            [
              "Letters from the app needing attention (refused, returned, lost)",
              n(data.lettersNeedingAttention),
              "/admin/mailings?state=attention",
            ],
            ["Mail waiting", n(data.outbox.pending), "/db/mail_outbox?status=pending"],
            ["Mail failed", n(data.outbox.failed), "/db/mail_outbox?status=failed"],
            ["Webhook events not yet applied", n(data.webhookBacklog), "/db/webhook_events?sort=processedAt&dir=asc"],
            [
              "Webhook events that could not be read",
              n(data.webhookUnreadable),
              "/db/webhook_events?sort=error&dir=desc",
            ],
          ] as const
        ).map(([label, value, to]) => (
          <Stat key={label} label={label} value={value} to={to} />
        ))}
      </dl>
      <h3>Members by membership</h3>
      <ul className="inline-list">
        {data.members.byStatus.map((s) => (
          <li key={s.status}>
            <Link to={`/members?status=${encodeURIComponent(s.status)}`}>
              {membershipWords(s.status)}: {n(s.n)}
            </Link>
          </li>
        ))}
      </ul>
      <div className="week-charts">
        <WeekChart title="Sign-ups" weeks={data.weeks} value={(w) => w.signups} format={n} axisFormat={n} minStep={1} />
        <WeekChart
          title="Revenue"
          weeks={data.weeks}
          value={(w) => w.revenueCents}
          format={(v) => formatMoney(v, "USD")}
          axisFormat={formatWholeDollars}
          minStep={100}
        />
      </div>
      <h3>Client errors (30 days)</h3>
      {data.errors.length === 0 ? (
        <p>No client errors have been reported.</p>
      ) : (
        <DataTable
          label="Client errors"
          rows={data.errors.map((e) => ({ ...e, id: e.message }))}
          columns={[
            {
              header: "Message",
              cell: (e) => (
                <>
                  {e.message}
                  {e.stack ? (
                    <details>
                      <summary>Newest stack{e.href ? ` (${e.href})` : ""}</summary>
                      <pre className="mail">{e.stack}</pre>
                    </details>
                  ) : null}
                </>
              ),
            },
            {
              header: "Reports",
              cell: (e) => (
                <Link to={`/db/error_reports?message=${encodeURIComponent(e.message.slice(0, 200))}`}>{n(e.n)}</Link>
              ),
            },
            { header: "Last", cell: (e) => formatDateTime(e.last) },
          ]}
        />
      )}
    </section>
  );
}
