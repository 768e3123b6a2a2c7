import { Form, Link } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import type { SessionState } from "~/domain/session-state";
import { usernameChangeMessage } from "~/domain/session-state";
import { LoadingBar } from "./loading-bar";
import { SupportDialog } from "./support";
import { Alert } from "./ui/alert";

/** spec §2.4: the layouts a route may ask for in its `handle`. */
export type Layout = "container" | "default" | "empty" | "home" | "logo-left" | "logo";

type Flash = { kind: "success" | "error" | "warn"; message: string } | null;
type CouponBannerData = { slug: string; description: string; groupName: string | null; dismissed: boolean } | null;

/** Logging out forgets the remembered after-login path too (spec §2.3). */
function forgetAfterLogin() {
  try {
    window.localStorage.removeItem("afterLogin");
  } catch {
    // Storage may be refused; the server's copy is cleared by /redirect-logout-success.
  }
}

function TopNav({ session, homeLabel }: { session: SessionState; homeLabel: string }) {
  return (
    <nav className="topnav" aria-label="Main">
      <div className="topnav-inner">
        <Link to="/" className="topnav-brand">
          {homeLabel}
        </Link>
        <ul className="topnav-links">
          {session.admin ? (
            <>
              <li>
                <Link to="/members">Members</Link>
              </li>
              <li>
                <Link to="/coupon/discounts">Coupons</Link>
              </li>
            </>
          ) : null}
          <li>
            <Link to="/profile" title={session.email}>
              {session.agent ?? session.username}
            </Link>
          </li>
          <li className="topnav-user" aria-label="E-mail address">
            {session.email}
          </li>
          <li>
            <Form method="post" action="/logout" onSubmit={forgetAfterLogin}>
              <button type="submit" className="link-button">
                Logout
              </button>
            </Form>
          </li>
        </ul>
      </div>
    </nav>
  );
}

function LogoHeader({
  centered,
  name,
  homeLabel,
  session,
}: {
  centered: boolean;
  name: string;
  homeLabel: string;
  session: SessionState | null;
}) {
  return (
    <header className={`logo-header${centered ? " logo-header-centered" : ""}`}>
      <Link to="/" className="logo">
        <img src="/favicon.svg" alt="" width={32} height={32} />
        <span>{name || homeLabel}</span>
      </Link>
      {session ? (
        <nav className="logo-header-user" aria-label="Account">
          <span className="muted">{session.agent ?? session.username}</span>
          <Form method="post" action="/logout" onSubmit={forgetAfterLogin} className="inline">
            <button type="submit" className="link-button">
              Logout
            </button>
          </Form>
        </nav>
      ) : null}
    </header>
  );
}

function AgentBanner({ agent }: { agent: string }) {
  return (
    <div className="banner banner-agent" role="status">
      WARNING, representing: {agent}
      <Form method="post" action="/admin" className="inline">
        <input type="hidden" name="intent" value="stop-agent" />
        <button type="submit" className="link-button">
          Stop representing
        </button>
      </Form>
    </div>
  );
}

/** spec §2.4: dismissible everywhere except on /c/ and /signup paths. */
function CouponBanner({
  coupon,
  pathname,
  search,
}: {
  coupon: NonNullable<CouponBannerData>;
  pathname: string;
  search: string;
}) {
  const fixed = pathname.startsWith("/c/") || pathname === "/c" || pathname.startsWith("/signup");
  if (coupon.dismissed && !fixed) return null;
  return (
    <div className="banner banner-coupon" role="region" aria-label="Your offer">
      <span>
        {coupon.groupName ? `${coupon.groupName}: ` : ""}
        <strong>{coupon.description}</strong> when you <Link to="/signup">sign up</Link>.
      </span>
      {fixed ? null : (
        <Form method="post" action="/c" className="inline">
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
        </Form>
      )}
    </div>
  );
}

function WarningBar({ status }: { status: string }) {
  return (
    <div className="warning-bar" role="status">
      Your subscription is {status.toLowerCase().replace(/_/g, " ")}. <Link to="/profile">See your profile</Link>
    </div>
  );
}

function ErrorBar({ supportEmail }: { supportEmail: string }) {
  return (
    <div className="error-bar" role="alert">
      An error was detected and reported, please try back later. Support:{" "}
      <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
    </div>
  );
}

function Footer({ name, email }: { name: string; email: string }) {
  const [supportOpen, setSupportOpen] = useState(false);
  return (
    <footer className="page-footer">
      <span className="footer-name">{name}</span>
      <nav aria-label="Footer">
        <ul className="footer-links">
          <li>
            <Link to="/terms-of-service">Terms of Service</Link>
          </li>
          <li>
            <Link to="/privacy-policy">Privacy Policy</Link>
          </li>
          <li>
            <a
              href="/support"
              onClick={(event) => {
                event.preventDefault();
                setSupportOpen(true);
              }}
            >
              Support
            </a>
          </li>
        </ul>
      </nav>
      <SupportDialog email={email} open={supportOpen} onClose={() => setSupportOpen(false)} />
    </footer>
  );
}

export function AppShell(props: {
  layout: Layout;
  pathname: string;
  search: string;
  session: SessionState | null;
  flash: Flash;
  coupon: CouponBannerData;
  footerName: string;
  homeLabel: string;
  supportEmail: string;
  errorDetected: boolean;
  stateRejected: boolean;
  children: ReactNode;
}) {
  const { layout, session } = props;
  const errorBar = props.errorDetected ? <ErrorBar supportEmail={props.supportEmail} /> : null;
  if (layout === "empty") {
    return (
      <>
        <LoadingBar />
        {errorBar}
        <main id="main" className="page-main page-main-empty">
          {props.children}
        </main>
      </>
    );
  }
  // The logo layouts keep the page to its task: the logo, and for a member only who they are
  // and Logout; the default and home layouts carry the full navigation.
  const logoLayout = layout === "logo" || layout === "logo-left";
  // A member without a subscription (a free community, a donation) has no status to warn about.
  const warnStatus = session && !session.needsSetup && session.sub_status !== "ACTIVE" ? session.sub_status : null;
  return (
    <div className="page">
      <LoadingBar />
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {errorBar}
      {session?.agent ? <AgentBanner agent={session.agent} /> : null}
      {session && !logoLayout ? (
        <TopNav session={session} homeLabel={props.homeLabel} />
      ) : (
        <LogoHeader
          centered={layout === "logo"}
          name={props.footerName}
          homeLabel={props.homeLabel}
          session={session}
        />
      )}
      {props.coupon ? <CouponBanner coupon={props.coupon} pathname={props.pathname} search={props.search} /> : null}
      <main id="main" className={`page-main${layout === "container" ? " page-main-wide" : ""}`}>
        {props.stateRejected ? (
          <div className="flash">
            <Alert kind="error">{usernameChangeMessage(props.supportEmail)}</Alert>
          </div>
        ) : null}
        {props.flash ? (
          <div className="flash">
            <Alert kind={props.flash.kind}>{props.flash.message}</Alert>
          </div>
        ) : null}
        {props.children}
      </main>
      <Footer name={props.footerName} email={session?.email ?? ""} />
      {warnStatus ? <WarningBar status={warnStatus} /> : null}
    </div>
  );
}
