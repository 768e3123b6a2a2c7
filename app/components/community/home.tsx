import type { SerializeFrom } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { CreatorOfferNote } from "~/components/billing/creator-offer";
import { Alert } from "~/components/ui/alert";
import { continueSetupPath, SETUP_PROFILE_PATH } from "~/domain/shell";
import type { loader as rootLoader } from "~/root";
import type { loader as homeLoader } from "~/routes/_index";

type Next = NonNullable<SerializeFrom<typeof homeLoader>["member"]>;

/** What a member can do next: their notices, their membership, and how to become a creator. */
function MemberNext({ next }: { next: Next }) {
  return (
    <>
      <section aria-labelledby="notices-title">
        <h2 id="notices-title">Your notices</h2>
        {next.causes === null ? (
          <>
            <p>The NoL creator prepares your Notices of Liability round by round, through to billing.</p>
            {next.creatorOffer ? <CreatorOfferNote offer={next.creatorOffer} /> : null}
          </>
        ) : next.causes.length === 0 ? (
          <p>
            {next.hasCountry
              ? "No cause is open in your country yet."
              : "Set your country in your profile to see the causes open to you."}
          </p>
        ) : (
          <ul className="next-list">
            {next.causes.map((cause) => (
              <li key={cause.href}>
                <Link to={cause.href}>{cause.name}</Link>
                {cause.versions.length === 0 ? (
                  <span className="muted"> · start your first notice</span>
                ) : (
                  <ul>
                    {cause.versions.map((v) => (
                      <li key={v.version}>
                        {v.version}: next <Link to={v.href}>{v.step}</Link>
                      </li>
                    ))}
                    {cause.more > 0 ? (
                      <li>
                        <Link to={cause.href}>and {cause.more} more</Link>
                      </li>
                    ) : null}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="membership-title">
        <h2 id="membership-title">Your membership</h2>
        {next.membership ? (
          <p>
            {next.membership.plan}: {next.membership.status}
            {next.membership.renewsOn ? `, renews ${next.membership.renewsOn}` : ""}.{" "}
            {next.membership.finishPayment ? (
              // The card page's policy, which lets the payments provider in, comes only with its document.
              <Link reloadDocument to={next.membership.finishPayment}>
                Finish your payment
              </Link>
            ) : (
              <Link to="/profile/billing">Billing and payments</Link>
            )}
          </p>
        ) : (
          <p>
            You have no subscription. <Link to="/subscription">See the plans</Link>.
          </p>
        )}
      </section>
    </>
  );
}

/** spec §2.4 "Home": a welcome for visitors; for members, the setup warning or the community. */
export function Home() {
  const data = useRouteLoaderData<typeof rootLoader>("root");
  const community = data?.community;
  const session = data?.session;
  const home = useLoaderData<typeof homeLoader>();
  const payment = home?.payment;

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
        {home?.member ? <MemberNext next={home.member} /> : null}
        <div className="actions">
          <Link className="button" to={session.needsSetup ? SETUP_PROFILE_PATH : "/profile"}>
            Your profile
          </Link>
          {data?.navigation?.admin ? (
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
