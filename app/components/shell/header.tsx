import { Form, Link } from "@remix-run/react";
import type { SessionState } from "~/domain/session-state";

/** Logging out forgets the remembered after-login path too (spec §2.3). */
function forgetAfterLogin() {
  try {
    window.localStorage.removeItem("afterLogin");
  } catch {
    // Storage may be refused; the server's copy is cleared by /redirect-logout-success.
  }
}

export function TopNav({ session, homeLabel }: { session: SessionState; homeLabel: string }) {
  return (
    <nav className="topnav" aria-label="Main">
      <div className="topnav-inner">
        <Link to="/" className="topnav-brand">
          {homeLabel}
        </Link>
        <ul className="topnav-links">
          {session.nolCreator || session.nolTester ? (
            <li>
              <Link to="/nol">Notices</Link>
            </li>
          ) : null}
          <li>
            <Link to="/respondents">Respondents</Link>
          </li>
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
