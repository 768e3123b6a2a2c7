import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { Alert } from "~/components/ui/alert";
import { continueSetupPath } from "~/domain/shell";
import type { loader as rootLoader } from "~/root";
import type { loader as homeLoader } from "~/routes/_index";

/** spec §2.4 "Home": a welcome for visitors; for members, the setup warning or the community. */
export function Home() {
  const data = useRouteLoaderData<typeof rootLoader>("root");
  const community = data?.community;
  const session = data?.session;
  const payment = useLoaderData<typeof homeLoader>()?.payment;

  if (session) {
    return (
      <section className="card welcome" aria-labelledby="welcome-title">
        <h1 id="welcome-title">Welcome, {session.agent ?? session.username}</h1>
        {session.needsSetup ? (
          <Alert kind="warn" title="Your account is not ready yet">
            Finish your setup to use the {community?.place ?? "community"}.{" "}
            <Link to={continueSetupPath(session)}>Continue setup</Link>
          </Alert>
        ) : (
          <p className="lead">{community?.description}</p>
        )}
        <div className="actions">
          <Link className="button" to="/profile">
            Your profile
          </Link>
          {session.admin ? (
            <Link className="button" to="/admin">
              Admin
            </Link>
          ) : null}
        </div>
      </section>
    );
  }

  return (
    <section className="card welcome" aria-labelledby="welcome-title">
      <h1 id="welcome-title">Welcome to {community?.name}</h1>
      {payment ? (
        <Alert kind="warn" title="Your account is not ready yet">
          Your {payment.what.toLowerCase()} of {payment.amount} is recorded under {payment.email}. Sign up with this
          address to keep it with your account.{" "}
          <Link to={`${continueSetupPath({ user_id: null })}?email=${encodeURIComponent(payment.email)}`}>
            Continue signup
          </Link>
        </Alert>
      ) : null}
      <p className="lead">{community?.description}</p>
      <div className="actions">
        <Link className="button button-primary" to="/login">
          Login
        </Link>
        <Link className="button" to="/signup">
          Sign Up
        </Link>
      </div>
    </section>
  );
}
