import { PageForm, PageLink } from "~/components/page-link";
import { couponBannerFixed, couponBannerWay } from "~/domain/shell";

export type CouponBannerData = { slug: string; description: string; groupName: string | null; dismissed: boolean };

export function AgentBanner({ agent }: { agent: string }) {
  return (
    <div className="banner banner-agent" role="status">
      WARNING, representing: {agent}
      <PageForm method="post" action="/admin" className="inline">
        <input type="hidden" name="intent" value="stop-agent" />
        <button type="submit" className="link-button">
          Stop representing
        </button>
      </PageForm>
    </div>
  );
}

/** spec §2.4: dismissible everywhere except on /c/ and /signup paths. */
export function CouponBanner({
  coupon,
  session,
  pathname,
  search,
}: {
  coupon: CouponBannerData;
  session: { needsSetup: boolean } | null;
  pathname: string;
  search: string;
}) {
  const fixed = couponBannerFixed(pathname);
  const way = couponBannerWay(session);
  if (coupon.dismissed && !fixed) return null;
  return (
    <div className="banner banner-coupon" role="region" aria-label="Your offer">
      <span>
        {coupon.groupName ? `${coupon.groupName}: ` : ""}
        <strong>{coupon.description}</strong> when you <PageLink to={way.to}>{way.link}</PageLink>.
      </span>
      {fixed ? null : (
        <PageForm method="post" action="/c" className="inline">
          <input type="hidden" name="intent" value="dismiss-coupon" />
          <input type="hidden" name="slug" value={coupon.slug} />
          {/* Back to the same page; a very long query (an entry's JSON) is left off. */}
          <input
            type="hidden"
            name="redirectTo"
            value={(pathname + search).length <= 2_000 ? pathname + search : pathname}
          />
          <button type="submit" className="banner-dismiss" aria-label="Dismiss the offer">
            ×
          </button>
        </PageForm>
      )}
    </div>
  );
}

export function WarningBar({ status }: { status: string }) {
  return (
    <div className="warning-bar" role="status">
      {/* A status has one underscore at most; "canceled" is the one with "led", spelt here as the product spells it. */}
      Your subscription is {status.toLowerCase().replace("_", " ").replace("led", "lled")}.{" "}
      <PageLink to="/profile">See your profile</PageLink>
    </div>
  );
}

export function ErrorBar({ supportEmail }: { supportEmail: string }) {
  return (
    <div className="error-bar" role="alert">
      An error was detected and reported, please try back later. Support:{" "}
      <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
    </div>
  );
}
