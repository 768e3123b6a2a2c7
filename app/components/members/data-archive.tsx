import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { ProgressRefresh } from "~/components/ui/progress-refresh";
import type { archiveSection } from "~/services/member-data/archive.server";
import { IntentForm } from "~/components/ui/intent-form";

export type DataArchive = SerializeFrom<Awaited<ReturnType<typeof archiveSection>>>;

/** /profile: "Download my data": one ZIP of everything the community holds about the member, here or by e-mailed link. */
export function DataArchiveSection({ archive }: { archive: DataArchive }) {
  return (
    <section aria-labelledby="data-archive-title">
      <h2 id="data-archive-title">Download my data</h2>
      <p>
        One ZIP file of everything we hold about you, with the PDFs of your notices and documents. When it is ready you
        can download it here, and we e-mail you a link for when you are away. One archive a day.
      </p>
      {archive.state ? (
        <p role="status">
          {archive.state}{" "}
          {archive.progress ? (
            <progress max={archive.progress.total} value={archive.progress.done} aria-label="Files written" />
          ) : null}
        </p>
      ) : null}
      <ProgressRefresh running={archive.running} />
      {archive.download ? (
        // A plain form: the browser saves the file the answer is, and the page stays.
        <form method="post" action="/profile/data/download" className="actions">
          <input type="hidden" name="archive" value={archive.download.archiveId} />
          <button type="submit" className="button button-primary">
            Download your data
          </button>
        </form>
      ) : null}
      {archive.nextAt ? (
        <p>You can ask for the next archive from {archive.nextAt}.</p>
      ) : (
        <IntentForm intent="data-archive" pendingText="Asking…">
          Prepare my archive
        </IntentForm>
      )}
    </section>
  );
}

/** The e-mailed link when it gives no file (used, expired, another member's): why, and what to do. */
export function ArchiveRefusalPage({ why, todo }: { why: string; todo: string }) {
  return (
    <section className="card" aria-labelledby="archive-refusal-title">
      <h1 id="archive-refusal-title">Your data archive</h1>
      <p>{why}</p>
      <p>{todo}</p>
      <p>
        <Link to="/profile#data-archive-title">Go to your profile</Link>
      </p>
    </section>
  );
}
