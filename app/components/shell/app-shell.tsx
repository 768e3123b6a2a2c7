import type { ReactNode } from "react";
import { LoadingBar } from "~/components/loading-bar";
import { Alert } from "~/components/ui/alert";
import type { NavigationFor, SessionState } from "~/domain/session-state";
import type { SeamlessEmbed } from "~/lib/seamless-embed";
import { usernameChangeMessage } from "~/domain/session-state";
import { subscriptionWarning } from "~/domain/shell";
import { AgentBanner, CouponBanner, ErrorBar, WarningBar, type CouponBannerData } from "./banners";
import { Footer } from "./footer";
import { LogoHeader, TopNav } from "./header";

/** spec §2.4: the layouts a route may ask for in its `handle`. */
export type Layout = "container" | "default" | "empty" | "home" | "logo-left" | "logo";

type Flash = { kind: "success" | "error" | "warn"; message: string } | null;

export function AppShell(props: {
  layout: Layout;
  pathname: string;
  search: string;
  session: SessionState | null;
  navigation: NavigationFor | null;
  flash: Flash;
  coupon: CouponBannerData | null;
  footerName: string;
  homeLabel: string;
  supportEmail: string;
  /** The hosted support form, when the community uses one. */
  supportEmbed: SeamlessEmbed | null;
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
  const warnStatus = subscriptionWarning(session);
  return (
    <div className="page">
      <LoadingBar />
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {errorBar}
      {session?.agent ? <AgentBanner agent={session.agent} /> : null}
      {session && !logoLayout ? (
        <TopNav session={session} navigation={props.navigation ?? session} homeLabel={props.homeLabel} />
      ) : (
        <LogoHeader
          centered={layout === "logo"}
          name={props.footerName}
          homeLabel={props.homeLabel}
          session={session}
        />
      )}
      {props.coupon ? (
        <CouponBanner coupon={props.coupon} session={session} pathname={props.pathname} search={props.search} />
      ) : null}
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
      <Footer name={props.footerName} email={session?.email ?? ""} embed={props.supportEmbed} />
      {warnStatus ? <WarningBar status={warnStatus} /> : null}
    </div>
  );
}
