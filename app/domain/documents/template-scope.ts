import type { DocumentKind } from "./placeholders";

/** A template's scope: a cause (or any), a kind, a round (or any round of its kind). */
export type TemplateScope = { causeCode: string | null; kind: DocumentKind; round: number | null };

export const KIND_NAMES: Record<DocumentKind, string> = {
  notice: "Notice",
  "true-bill": "True bill",
  "proof-of-service": "Proof of service",
};

/** "Notice · round 2 · Traffic Stop", "True bill · any round · any cause". */
export function scopeLabel(scope: TemplateScope, causeName: string | null): string {
  const round = scope.round === null ? "any round" : `round ${scope.round}`;
  return `${KIND_NAMES[scope.kind]} · ${round} · ${causeName ?? "any cause"}`;
}
