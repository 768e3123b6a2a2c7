import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { CreatorOfferNote } from "~/components/billing/creator-offer";
import { Alert } from "~/components/ui/alert";
import type { causesPage } from "~/services/nol/pages.server";

type Data = SerializeFrom<Awaited<ReturnType<typeof causesPage>>>;

const STATUS_NOTE = { live: "", testing: " (testing: open to testers)", beta: " (coming soon)" } as const;

/** The causes of the owner's country: a link where open, a disabled name where not. */
export function CauseList({ data }: { data: Data }) {
  return (
    <section className="card" aria-labelledby="causes-title">
      <h1 id="causes-title">Choose a cause</h1>
      {data.creatorOffer ? (
        <CreatorOfferNote offer={data.creatorOffer} />
      ) : data.creatorOrTester ? null : (
        <Alert kind="warn">The notice creator is open to NoL creators and testers: this member is neither.</Alert>
      )}
      {data.choices.length === 0 ? <p>No causes are offered in your country yet.</p> : null}
      {data.choices.length > 0 && !data.anyAvailable ? (
        <p>No cause is available in your country yet; the ones below are still being tested or prepared.</p>
      ) : null}
      <ul className="cause-list">
        {data.choices.map((c) => (
          <li key={c.code} data-status={c.status}>
            {c.enabled ? (
              <Link to={`${data.base}/${c.slug}${data.ownerQuery}`}>{c.name}</Link>
            ) : (
              <span className="disabled" aria-disabled="true">
                {c.name}
              </span>
            )}
            <span className="muted">{STATUS_NOTE[c.status]}</span>
          </li>
        ))}
      </ul>
      <p>
        <Link to="/nol/editor">Who may edit your notices</Link>
      </p>
    </section>
  );
}
