import { Fragment, type ReactNode } from "react";
import type { RoundState } from "~/domain/nol/timeline";
import type { TimelineView } from "~/services/nol/timeline.server";

export type TimelineRow = TimelineView["rows"][number];
type Row = TimelineRow;

const STATE_WORDS: Record<RoundState, string> = {
  delivered: "Delivered",
  mailed: "Mailed, delivery not yet recorded",
  sending: "At the mail house, to be mailed",
  prepared: "Prepared, not yet mailed",
  next: "Next",
};

/**
 * A version's rounds over time (decision 034): for each notice and true bill, when it was
 * mailed (with the tracking numbers, linked to the carrier), when it was delivered, until when
 * the respondents may answer and from when the next round may go out; today's place in it.
 * A list read top to bottom, the same with or without JavaScript and on a narrow phone.
 */
export function RoundTimeline({
  timeline,
  trackingBase,
  calendarHref,
  title = "Timeline",
  titleId = "timeline-title",
  proofActions,
}: {
  timeline: TimelineView;
  /** What a mailed round offers beside its proof of service (the member's own: notarizing it). */
  proofActions?: (row: TimelineRow) => ReactNode;
  trackingBase: string;
  calendarHref: string;
  /** The heading, where a page shows several timelines (a member's versions). */
  title?: string;
  titleId?: string;
}) {
  const today = (
    <li className="timeline-today" aria-current="date">
      <span className="timeline-marker" aria-hidden="true" />
      Today, {timeline.todayShown}
    </li>
  );
  return (
    <section className="timeline" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <ol className="timeline-rounds">
        {timeline.rows.map((row, i) => (
          <Fragment key={row.round}>
            {i === timeline.todayAfter ? today : null}
            <RoundItem row={row} trackingBase={trackingBase} proofActions={proofActions} />
          </Fragment>
        ))}
        {timeline.todayAfter >= timeline.rows.length ? today : null}
      </ol>
      {timeline.next ? <NextRound next={timeline.next} /> : null}
      {timeline.rows.some((row) => row.nextFrom) ? (
        <p>
          <a href={calendarHref} download>
            Add these days to your calendar (.ics)
          </a>
        </p>
      ) : null}
    </section>
  );
}

function RoundItem({
  row,
  trackingBase,
  proofActions,
}: {
  row: Row;
  trackingBase: string;
  proofActions: ((row: TimelineRow) => ReactNode) | undefined;
}) {
  return (
    <li className={`timeline-round timeline-${row.state}`}>
      <span className="timeline-marker" aria-hidden="true" />
      <strong>{row.name}</strong> <span className="muted">· {STATE_WORDS[row.state]}</span>
      <dl className="timeline-facts">
        {row.mailedOn ? (
          <>
            <dt>Mailed</dt>
            <dd>{row.mailedShown}</dd>
          </>
        ) : null}
        {row.respondents.length === 0 && row.tracking.length > 0 ? (
          <>
            <dt>Tracking</dt>
            <dd>
              {row.tracking.map((number, i) => (
                <Fragment key={number}>
                  {i > 0 ? ", " : null}
                  <TrackingLink number={number} trackingBase={trackingBase} />
                </Fragment>
              ))}
            </dd>
          </>
        ) : null}
        {row.state === "delivered" ? (
          <>
            <dt>Delivered</dt>
            <dd>{row.deliveredShown ?? "yes (the day was not recorded)"}</dd>
          </>
        ) : null}
        {row.respondBy ? (
          <>
            <dt>Time to answer</dt>
            <dd>
              {row.windowDays} days, until {row.respondByShown}
            </dd>
          </>
        ) : null}
      </dl>
      {row.respondents.length > 0 ? (
        <RespondentList
          respondents={row.respondents}
          trackingBase={trackingBase}
          label={`Respondents of ${row.name}`}
        />
      ) : null}
      {row.noticeHref || row.proofHref ? (
        <p className="timeline-documents">
          {row.noticeHref ? (
            <a href={row.noticeHref} download>
              Download {row.name} (PDF)
            </a>
          ) : null}
          {row.noticeHref && row.proofHref ? " · " : null}
          {row.proofHref ? (
            <a href={row.proofHref} download aria-label={`Proof of service of ${row.name} (PDF)`}>
              Proof of service (PDF)
            </a>
          ) : null}
        </p>
      ) : null}
      {row.proofHref && proofActions ? proofActions(row) : null}
    </li>
  );
}

function TrackingLink({ number, trackingBase }: { number: string; trackingBase: string }) {
  // Groups of four, as USPS prints them: where a line too narrow for the whole number breaks it.
  const groups = number.match(/.{1,4}/g) ?? [number];
  return (
    <a
      className="tracking-number"
      href={`${trackingBase}${encodeURIComponent(number)}`}
      rel="noreferrer"
      target="_blank"
    >
      {groups.map((group, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {group}
        </Fragment>
      ))}
      <span className="visually-hidden"> (the carrier's tracking page, in a new tab)</span>
    </a>
  );
}

export type RespondentLine = Row["respondents"][number];

/** Each respondent of a round on a line of their own: where their envelope stands, its number, its receipt. */
export function RespondentList<Line extends RespondentLine>({
  respondents,
  trackingBase,
  label,
  action,
}: {
  respondents: readonly Line[];
  trackingBase: string;
  label?: string;
  /** What a line offers beside it (the step's page: what is left to record). */
  action?: (line: Line) => ReactNode;
}) {
  return (
    <ul className="timeline-respondents" aria-label={label}>
      {respondents.map((r) => (
        <li key={r.slot} className={`respondent-service service-${r.status}`}>
          <span className="respondent-name">
            {r.slot}. {r.name}
          </span>
          <span className="respondent-status">
            {r.words}
            {r.by === "hand" && r.status !== "left-out" ? " (by hand)" : ""}
          </span>
          {r.tracking ? (
            <span className="respondent-tracking">
              Tracking <TrackingLink number={r.tracking} trackingBase={trackingBase} />
            </span>
          ) : null}
          {r.receiptHref ? (
            <a href={r.receiptHref} download aria-label={`Return receipt of the letter to ${r.name} (PDF)`}>
              Return receipt (PDF)
            </a>
          ) : null}
          {action ? action(r) : null}
        </li>
      ))}
    </ul>
  );
}

function NextRound({ next }: { next: NonNullable<TimelineView["next"]> }) {
  if (!next.early)
    return (
      <p className="timeline-next">
        <strong>{next.name}</strong> can go out now.
      </p>
    );
  return (
    <p className="timeline-next">
      <strong>{next.name}</strong> can go out from {next.availableShown}, when the respondents' time to answer has
      passed.
    </p>
  );
}
