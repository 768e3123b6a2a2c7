import type { SerializeFrom } from "@remix-run/node";
import { ProgressRefresh } from "~/components/ui/progress-refresh";
import type { archiveSection } from "~/services/member-data/archive.server";
import { IntentForm } from "~/components/ui/intent-form";

export type DataArchive = SerializeFrom<Awaited<ReturnType<typeof archiveSection>>>;

/** /profile: "Download my data": one ZIP of everything the community holds about the member, by e-mailed link. */
export function DataArchiveSection({ archive }: { archive: DataArchive }) {
  return (
    <section aria-labelledby="data-archive-title">
      <h2 id="data-archive-title">Download my data</h2>
      <p>
        One ZIP file of everything we hold about you, with the PDFs of your notices and documents. We e-mail you a link
        when it is ready. One archive a day.
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
