import type { SubmissionResult } from "@conform-to/react";
import type { SerializeFrom } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { ConfirmButton } from "~/components/ui/confirm-button";
import { DataTable } from "~/components/ui/record-table";
import { formatDate } from "~/lib/format";
import type { couponAdminPage, DiscountFilter } from "~/services/coupons-admin.server";
import { CouponForm, type EditedCoupon } from "./coupon-form";

type Data = SerializeFrom<Awaited<ReturnType<typeof couponAdminPage>>> & {
  show: DiscountFilter;
  editing: EditedCoupon | null;
};

const FILTER_LABELS: [DiscountFilter, string][] = [
  ["active", "Active"],
  ["inactive", "Inactive"],
  ["all", "All"],
];

const yesNo = (value: boolean) => (value ? "yes" : "no");
const dateOr = (value: string | null, none: string) => (value ? formatDate(value) : none);

/** "3 of 100", or "3" without a limit. */
const redeemed = (c: { timesRedeemed: number; maxRedemptions: number | null }) =>
  c.maxRedemptions === null ? String(c.timesRedeemed) : `${c.timesRedeemed} of ${c.maxRedemptions}`;

/** /coupon/discounts: the coupon discounts (filtered), the coupons, and the form that makes a coupon. */
export function CouponDiscountsPage({ data, lastResult }: { data: Data; lastResult?: SubmissionResult<string[]> }) {
  const currencies = [...new Set(data.plans.map((p) => p.currency.toLowerCase()))];
  return (
    <>
      <section className="card card-wide" aria-labelledby="discounts-title">
        <h1 id="discounts-title">Coupon discounts</h1>
        <p className="actions">
          <Link className="button button-primary" to="/coupon/discount">
            New coupon discount
          </Link>
          <a href={data.couponsLink} target={data.couponsLink.startsWith("/") ? undefined : "_blank"} rel="noreferrer">
            Coupons at the payments provider
          </a>
        </p>
        <nav aria-label="Show coupon discounts" className="actions">
          {FILTER_LABELS.map(([filter, label]) => (
            <Link key={filter} to={`?show=${filter}`} aria-current={data.show === filter ? "page" : undefined}>
              {label}
            </Link>
          ))}
        </nav>
        {data.discounts.length === 0 ? <p>No coupon discounts to show.</p> : null}
        <DataTable
          rows={data.discounts}
          columns={[
            { header: "Slug", cell: (d) => <Link to={`/coupon/discount/${d.id}`}>{d.slug}</Link> },
            { header: "Group", cell: (d) => d.groupName ?? "" },
            {
              header: "Coupon",
              cell: (d) => (
                <>
                  {d.couponName}
                  {d.couponValid ? "" : " (archived)"}
                  <br />
                  <span className="muted">{d.couponTerms}</span>
                </>
              ),
            },
            { header: "Plans", cell: (d) => d.plans.join(", ") },
            { header: "Active", cell: (d) => yesNo(d.active) },
            { header: "Redemptions", cell: (d) => d.redemptions },
            { header: "Last redeemed", cell: (d) => dateOr(d.lastRedeemedAt, "never") },
            {
              header: "Actions",
              cell: (d) => (
                <>
                  <Link to={`/coupon/discount/${d.id}`} aria-label={`Edit ${d.slug}`}>
                    Edit
                  </Link>{" "}
                  <Link to={`/c/${d.slug}`} aria-label={`Landing page of ${d.slug}`}>
                    Landing page
                  </Link>
                </>
              ),
            },
          ]}
        />
      </section>
      <section className="card card-wide" id="coupons" aria-labelledby="coupons-title">
        <h2 id="coupons-title">Coupons</h2>
        <p className="muted">
          The terms of a coupon that has been redeemed never change: archive it and create another.
        </p>
        <DataTable
          rows={data.coupons}
          columns={[
            { header: "Code", cell: (c) => c.id },
            { header: "Name", cell: (c) => c.name },
            { header: "Terms", cell: (c) => c.terms },
            { header: "Plans", cell: (c) => c.plans.join(", ") },
            { header: "Redeem by", cell: (c) => dateOr(c.redeemBy, "no end") },
            { header: "Redeemed", cell: redeemed },
            { header: "Valid", cell: (c) => (c.valid ? "yes" : "archived") },
            {
              header: "Actions",
              cell: (c) =>
                c.valid ? (
                  <>
                    <Link to={`?coupon=${encodeURIComponent(c.id)}#coupon-form-title`} aria-label={`Change ${c.id}`}>
                      Change
                    </Link>{" "}
                    <Form method="post" className="inline">
                      <input type="hidden" name="intent" value="archive-coupon" />
                      <input type="hidden" name="coupon_id" value={c.id} />
                      <ConfirmButton className="link-button">Archive</ConfirmButton>
                    </Form>
                  </>
                ) : null,
            },
          ]}
        />
        <CouponForm
          key={data.editing?.id ?? "new"}
          editing={data.editing}
          plans={data.plans.filter((p) => p.active || data.editing?.planIds.includes(p.id))}
          currencies={currencies.length ? currencies : ["usd"]}
          lastResult={lastResult}
        />
      </section>
    </>
  );
}
