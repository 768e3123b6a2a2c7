import { PageForm, PageLink } from "~/components/page-link";
import type { NavigationFor, SessionState } from "~/domain/session-state";

/** Logging out forgets the remembered after-login path too (spec §2.3). */
function forgetAfterLogin() {
  try {
    window.localStorage.removeItem("afterLogin");
  } catch {
    // Storage may be refused; the server's copy is cleared by /redirect-logout-success.
  }
}

/** The navigation as the member it is for sees it: in agent mode, the represented member's. */
export function TopNav({
  session,
  navigation,
  homeLabel,
}: {
  session: SessionState;
  navigation: NavigationFor;
  homeLabel: string;
}) {
  return (
    <nav className="topnav" aria-label="Main">
      <div className="topnav-inner">
        <PageLink to="/" className="topnav-brand">
          {homeLabel}
        </PageLink>
        <ul className="topnav-links">
          {session.nolCreator || session.nolTester ? (
            <li>
              <PageLink to="/nol">Notices</PageLink>
            </li>
          ) : null}
          {/* A member still in setup would land on setup: the respondents open once it is done. */}
          {session.needsSetup ? null : (
            <li>
              <PageLink to="/respondents">Respondents</PageLink>
            </li>
          )}
          {navigation.admin ? (
            <>
              <li>
                <PageLink to="/members">Members</PageLink>
              </li>
              <li>
                <PageLink to="/coupon/discounts">Coupons</PageLink>
              </li>
            </>
          ) : null}
          <li>
            <PageLink to="/profile" title={navigation.email}>
              {session.agent ?? session.username}
            </PageLink>
          </li>
          <li className="topnav-user" aria-label="E-mail address">
            {navigation.email}
          </li>
          <li>
            <PageForm method="post" action="/logout" onSubmit={forgetAfterLogin}>
              <button type="submit" className="link-button">
                Logout
              </button>
            </PageForm>
          </li>
        </ul>
      </div>
    </nav>
  );
}

export function LogoHeader({
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
      <PageLink to="/" className="logo">
        <img src="/favicon.svg" alt="" width={32} height={32} />
        <span>{name || homeLabel}</span>
      </PageLink>
      {session ? (
        <nav className="logo-header-user" aria-label="Account">
          <span className="muted">{session.agent ?? session.username}</span>
          <PageForm method="post" action="/logout" onSubmit={forgetAfterLogin} className="inline">
            <button type="submit" className="link-button">
              Logout
            </button>
          </PageForm>
        </nav>
      ) : null}
    </header>
  );
}
