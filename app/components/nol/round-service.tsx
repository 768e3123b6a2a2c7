import { RespondentList, type RespondentLine } from "./round-timeline";

/** The round's respondents on its mailing or proof step: where each envelope stands, and what is left to record. */
export function RoundServicePanel({
  service,
  trackingBase,
}: {
  service: {
    held: string | null;
    respondents: (RespondentLine & { recordHref: string | null; recordLabel: string | null })[];
  };
  trackingBase: string;
}) {
  if (service.respondents.length === 0) return null;
  return (
    <section className="round-service" aria-labelledby="round-service-title">
      <h2 id="round-service-title">Each respondent of this round</h2>
      {service.held ? (
        <p className="alert alert-warn" role="status">
          {service.held}
        </p>
      ) : null}
      <RespondentList
        respondents={service.respondents}
        trackingBase={trackingBase}
        action={(r) => (r.recordHref ? <a href={r.recordHref}>{r.recordLabel}</a> : null)}
      />
    </section>
  );
}
