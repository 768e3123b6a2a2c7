import { NOTICE_ROUNDS } from "../nol/rounds";
import { roundName } from "../nol/timeline";
import type { DocumentKind } from "./placeholders";

/** A template's scope: a cause (or any), a kind, a round (or any round of its kind). */
export type TemplateScope = { causeCode: string | null; kind: DocumentKind; round: number | null };

export const KIND_NAMES: Record<DocumentKind, string> = {
  notice: "Notice",
  "true-bill": "True bill",
  "proof-of-service": "Proof of service",
};

/** The largest round a true bill template may name (the Cognito form takes rounds up to 200). */
export const LAST_ROUND = 200;

/** "Notice · Round 2 Notice of Fault · Traffic Stop", "True bill · any round · any cause". */
export function scopeLabel(scope: TemplateScope, causeName: string | null): string {
  const round = scope.round === null ? "any round" : roundName(scope.round);
  return `${KIND_NAMES[scope.kind]} · ${round} · ${causeName ?? "any cause"}`;
}

export type RoundChoice = { value: number; name: string };

/**
 * The rounds a template may be for, by name, in the groups an admin picks from: the three
 * notices ("Round 1 Notice of Liability"…), then the true bills ("First True Bill" is round 4…).
 */
export function roundChoices(last = LAST_ROUND): { notices: RoundChoice[]; trueBills: RoundChoice[] } {
  const rounds = Array.from({ length: last }, (_, i) => ({ value: i + 1, name: roundName(i + 1) }));
  return { notices: rounds.slice(0, NOTICE_ROUNDS), trueBills: rounds.slice(NOTICE_ROUNDS) };
}
