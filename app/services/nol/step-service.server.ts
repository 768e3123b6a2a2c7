import type { Database } from "~/db/client.server";
import { conflict, invalid } from "~/domain/errors";
import { awaitingProof, onTheirWay, waitingRespondents, type RoundService } from "~/domain/nol/service";
import type { Step } from "~/domain/nol/steps";
import { recordRound, type Tx } from "../mailings/records.server";
import type { UserRow, Viewer } from "../session.server";
import type { VersionState } from "./entries.server";
import { addServiceRecords, roundServiceOf, serviceEntry } from "./service.server";

/** The mailing and proof steps of a round that names its respondents: each envelope recorded on its own (docs/decisions/057). */

type Values = Record<string, unknown>;

/** What a step's save writes with: its transaction, whose version, and who saves it. */
type ServiceWriter = {
  tx: Tx;
  db: Database;
  owner: Pick<UserRow, "id">;
  input: { causeCode: string; version: string };
  viewer: Viewer;
};

/**
 * A mailing or proof step of a round that names its respondents: each respondent's envelope
 * recorded on its own (mailed, with its day and number; delivered, with its day), then the
 * round's fields written from the reading of its service (recordRound). Null for a round that
 * names nobody: its step keeps its one day and number as typed.
 */
export async function recordService(
  w: ServiceWriter,
  state: VersionState,
  kind: "mailed" | "delivered",
  data: Values,
): Promise<string | null> {
  const round = state.step.round!;
  const entry = serviceEntry(state, round);
  if (!entry) return null;
  const service = await roundServiceOf(w.db, { creator: state.creator, entry, round });
  if (service.respondents.length === 0) return null;
  const to = kind === "mailed" ? waitingRespondents(service) : awaitingProof(service);
  await addServiceRecords(
    w.db,
    { userId: w.owner.id, creator: state.creator, entry, round, recordedBy: w.viewer.agent?.id ?? w.viewer.user.id },
    to.map((r) => ({
      slot: r.slot,
      kind,
      day: (kind === "mailed" ? data.mailingDate : data.deliveredOn) as string,
      trackingNumber: kind === "mailed" ? ((data[`track${r.slot}`] as string | undefined) ?? null) : null,
      reason: null,
    })),
  );
  const after = await recordRound(w.tx, {
    entryId: entry.id,
    round,
    userId: w.owner.id,
    causeCode: w.input.causeCode,
    descriptiveVersion: w.input.version,
  });
  if (kind === "delivered" && !after?.complete) throw invalid(unservedMessage(after ?? service));
  return entry.id;
}

/** What a proof of delivery cannot be saved over: a respondent nothing reached yet, a letter still on its way. */
function unservedMessage(service: RoundService): string {
  const waiting = waitingRespondents(service);
  if (waiting.length > 0)
    return `${names(waiting)} ${waiting.length === 1 ? "has" : "have"} not been served: mail the notice again or leave them out of this round first.`;
  const going = onTheirWay(service);
  if (going.length > 0)
    return `The letter to ${names(going)} is still on its way: its delivery is recorded when USPS reports it.`;
  return "Record each respondent's delivery first.";
}

const names = (list: readonly { name: string }[]) =>
  list.length === 1
    ? list[0]!.name
    : `${list
        .slice(0, -1)
        .map((r) => r.name)
        .join(", ")} and ${list.at(-1)!.name}`;

/**
 * A proof step is taken when every respondent mailed by hand awaits only their delivery day; a
 * mailing step when someone is left to mail.
 */
export function refuseUnserved(step: Step, service: RoundService | null): void {
  if (!service || service.respondents.length === 0) return;
  if (step.kind === "proof" || step.kind === "true-bill-proof") {
    if (waitingRespondents(service).length > 0 || onTheirWay(service).length > 0)
      throw invalid(unservedMessage(service));
    return;
  }
  if (waitingRespondents(service).length === 0)
    throw conflict(
      onTheirWay(service).length > 0
        ? "Your letters are at the mail house: this round moves on when USPS takes them."
        : "Every respondent of this round has been mailed.",
    );
}
