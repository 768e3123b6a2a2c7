import { invalid } from "~/domain/errors";
import type { Recipient, StepContext } from "~/domain/nol/step-form";
import type { Step } from "~/domain/nol/steps";
import { dayOf, earlyRound, type Timeline } from "~/domain/nol/timeline";
import { formatDate } from "~/lib/format";
import { awaitingProof, waitingRespondents, type RoundService } from "~/domain/nol/service";
import type { VersionState } from "./entries.server";

/** What a step's checks read of its version, and the refusal of a round sent before its day. */

type Values = Record<string, unknown>;

function earlyMessage(next: NonNullable<Timeline["next"]>): string {
  return `${next.name} can go out from ${next.availableOn ? formatDate(next.availableOn) : "later"}, when the respondents' time to answer the last round has passed. Tick "Send it early anyway" to send it now.`;
}

/** A new round before its day goes out only when the member chose to send it early (decision 034). */
export function refuseEarly(timeline: Timeline, step: Step, values: Values): void {
  const early = earlyRound(timeline.next, step);
  if (!early || values.sendEarly === "on") return;
  throw invalid(earlyMessage(early), { sendEarly: [earlyMessage(early)] });
}

/**
 * What a step's checks know of its version: today, the day the round's notice was made, the day
 * the envelopes awaiting their proof were mailed (the latest), who a mailing goes to (the
 * respondents nothing is on its way to, where the round's service was read).
 */
export function stepContext(
  state: VersionState,
  now: Date,
  recipients: Recipient[] = [],
  read: { service?: RoundService | null; noticeOn?: string | null } = {},
): StepContext {
  const { step } = state;
  const { service } = read;
  const proof = step.kind === "proof" || step.kind === "true-bill-proof";
  const typedMailedOn = proof
    ? step.kind === "proof"
      ? (state.creator?.nolMailingDate[(step.round ?? 1) - 1] ?? null)
      : (state.bills.at(-1)?.billMailingDate ?? null)
    : null;
  const awaiting = service ? awaitingProof(service).flatMap((r) => (r.current?.mailedOn ? [r.current.mailedOn] : [])) : [];
  const mailedOn = proof ? (awaiting.sort().at(-1) ?? typedMailedOn) : null;
  const mailing = step.kind === "mailing" || step.kind === "true-bill-mailing";
  const waiting =
    mailing && service && service.respondents.length > 0
      ? waitingRespondents(service).map((r) => ({ slot: r.slot, name: r.name }))
      : recipients;
  return { today: dayOf(now), mailedOn, recipients: waiting, noticeOn: read.noticeOn ?? null };
}
