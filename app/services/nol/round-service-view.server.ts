import { awaitingProof, onTheirWay, waitingRespondents, type RoundService } from "~/domain/nol/service";
import type { Step } from "~/domain/nol/steps";
import { respondentLine } from "./timeline.server";

/**
 * A round's respondents as a mailing or proof step shows them: each one's envelope in words,
 * its number, and the page where the member records what is left (mailing them by hand, their
 * delivery or return, leaving them out with a reason); and whether the step's own form can be
 * saved now, or what it waits for.
 */
export function roundServiceView(
  service: RoundService,
  step: Pick<Step, "kind" | "round">,
  servicePath: string,
  version: string,
  other: string | null,
) {
  const hrefOf = (slot: number) =>
    `${servicePath}?${new URLSearchParams({ version, round: String(service.round), slot: String(slot), ...(other ? { username: other } : {}) })}`;
  const waiting = new Set(waitingRespondents(service).map((r) => r.slot));
  const awaiting = new Set(awaitingProof(service).map((r) => r.slot));
  const going = onTheirWay(service);
  const proof = step.kind === "proof" || step.kind === "true-bill-proof";
  const held =
    service.respondents.length === 0
      ? null
      : proof
        ? waiting.size > 0
          ? "Someone of this round has not been served: mail their notice again or leave them out of the round (below), then record the delivery."
          : going.length > 0
            ? "A letter mailed from here is still on its way: its delivery is recorded when USPS reports it."
            : null
        : waiting.size === 0
          ? going.length > 0
            ? "Your letters are at the mail house, on their way: this round moves on when USPS takes them."
            : null
          : null;
  return {
    round: service.round,
    state: service.state,
    /** "Mail it for me" for the respondents still to serve: the member's own, while someone waits. */
    mailAgainHref:
      !other &&
      step.round === service.round &&
      // At the mailing step the notice offers its own link until a letter has gone and come to nothing.
      waitingRespondents(service).some((r) => proof || r.status !== "not-sent")
        ? `${servicePath.replace(/\/service$/, "/mail")}?${new URLSearchParams({ version })}`
        : null,
    /** Why the step's form cannot be saved now; null when it can. */
    held,
    respondents: service.respondents.map((r) => ({
      ...respondentLine(r, null),
      /** Where the member records what is left for this respondent; null when nothing is. */
      recordHref: waiting.has(r.slot) || awaiting.has(r.slot) ? hrefOf(r.slot) : null,
      recordLabel: waiting.has(r.slot)
        ? `Mail again or leave out ${r.name}`
        : awaiting.has(r.slot)
          ? `Record delivery or return for ${r.name}`
          : null,
    })),
  };
}
