import type { SerializeFrom } from "@remix-run/node";
import { formatDate } from "~/lib/format";
import type { formEntryPage } from "~/services/form-entries.server";

type Entry = SerializeFrom<Awaited<ReturnType<typeof formEntryPage>>>;

/** One entry of the community's forms as it was sent, with where its review stands. */
export function FormEntryView({ entry }: { entry: Entry }) {
  return (
    <section className="card" aria-labelledby="form-entry-title">
      <h1 id="form-entry-title">{entry.title}</h1>
      <p className="muted">Sent {formatDate(entry.sent)}</p>
      {entry.review ? (
        <p>
          Review: <strong>{entry.review.status}</strong>
          {entry.review.note ? ` — ${entry.review.note}` : ""}
        </p>
      ) : null}
      <dl className="details">
        {entry.fields.map((f) => (
          <div key={f.key}>
            <dt>{f.label}</dt>
            <dd>{f.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
