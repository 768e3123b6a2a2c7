import type { SerializeFrom } from "@remix-run/node";
import { Form } from "@remix-run/react";
import { ProgressRefresh } from "~/components/ui/progress-refresh";
import { SubmitButton } from "~/components/ui/submit-button";
import type { archiveSection } from "~/services/member-data/archive.server";

export type DataArchive = SerializeFrom<Awaited<ReturnType<typeof archiveSection>>>;

/** Where the member's latest archive stands, in words. */
function ArchiveState({ archive }: { archive: DataArchive }) {
  const latest = archive.latest;
  if (!latest) return null;
  switch (latest.status) {
    case "queued":
    case "running":
      return (
        <p role="status" aria-live="polite">
          Your archive is being made (asked for {latest.createdAt}).{" "}
          {latest.progressTotal > 0 ? (
            <>
              <progress max={latest.progressTotal} value={latest.progressDone} aria-label="Files written" />{" "}
              {latest.progressDone} of {latest.progressTotal} files
            </>
          ) : (
            "It starts in a moment."
          )}
        </p>
      );
    case "done":
      return latest.downloaded ? (
        <p>You downloaded your archive of {latest.createdAt}.</p>
      ) : (
        <p role="status">
          Your archive of {latest.createdAt} is ready: we e-mailed a link to {archive.email}. It works once, for you
          signed in, until {latest.expiresOn}.
        </p>
      );
    case "failed":
      return <p role="status">Your archive of {latest.createdAt} could not be made. Please ask again.</p>;
    case "expired":
      return <p>Your archive of {latest.createdAt} has expired.</p>;
  }
}

/** /profile: "Download my data": one ZIP of everything the community holds about the member, by e-mailed link. */
export function DataArchiveSection({ archive }: { archive: DataArchive }) {
  const running = archive.latest?.status === "queued" || archive.latest?.status === "running";
  return (
    <section aria-labelledby="data-archive-title">
      <h2 id="data-archive-title">Download my data</h2>
      <p>
        One ZIP file of everything we hold about you: your profile, sessions, memberships, payments and receipts,
        credits, notices and their answers, form entries, notarizations, reminders, second factors (without their
        secrets) and the record of what was done to your account, with the PDFs of your notices, proofs of service and
        notarized documents. We e-mail you a link when it is ready. One archive a day.
      </p>
      <ArchiveState archive={archive} />
      <ProgressRefresh running={running} />
      {archive.nextAt ? (
        <p>You can ask for the next archive from {archive.nextAt}.</p>
      ) : (
        <Form method="post">
          <SubmitButton name="intent" value="data-archive" pendingText="Asking…">
            Prepare my archive
          </SubmitButton>
        </Form>
      )}
    </section>
  );
}
