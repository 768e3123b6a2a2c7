import { z } from "zod";
import { NOTICE_ROUNDS } from "../nol/rounds";
import { DOCUMENT_KINDS, templateProblems, type DocumentKind } from "./placeholders";
import { KIND_NAMES, LAST_ROUND, scopeLabel, type TemplateScope } from "./template-scope";
import { INTEGER_MAX } from "../whole-numbers";

export { KIND_NAMES, LAST_ROUND, scopeLabel, type TemplateScope };

/**
 * Document templates (docs/decisions/020): a template's scope is a cause (or any) and a round
 * (or any round of its kind); each save is a new version of its scope; the newest version of
 * the most specific scope that has one makes a round's document.
 */

export type VersionedTemplate = TemplateScope & { version: number };

/**
 * The scopes a template of this scope falls back on, most specific first: (cause, round),
 * (cause, any round), (any cause, round), (any cause, any round), each once.
 */
export function fallbackScopes(scope: TemplateScope): TemplateScope[] {
  const scopes: TemplateScope[] = [];
  for (const causeCode of [scope.causeCode, null])
    for (const round of [scope.round, null]) {
      const candidate = { causeCode, kind: scope.kind, round };
      if (!scopes.some((s) => sameScope(s, candidate))) scopes.push(candidate);
    }
  return scopes;
}

/** The template in use for a scope: the newest version of the first of its fallback scopes that has one. */
export function pickTemplate<T extends VersionedTemplate>(templates: T[], want: TemplateScope): T | null {
  for (const scope of fallbackScopes(want)) {
    const inScope = templates.filter((t) => sameScope(t, scope));
    if (inScope.length > 0) return inScope.reduce((a, b) => (b.version > a.version ? b : a));
  }
  return null;
}

export function sameScope(a: TemplateScope, b: TemplateScope): boolean {
  return a.causeCode === b.causeCode && a.kind === b.kind && a.round === b.round;
}

/** A template's id as an address names it ("12"), or null for anything else. */
export function templateIdOf(param: string | undefined): number | null {
  if (!param || !/^[1-9]\d{0,9}$/.test(param)) return null;
  const id = Number(param);
  return id <= INTEGER_MAX ? id : null;
}

export const MAX_TEMPLATE_LENGTH = 20_000;
const ENTER_TEXT = "Enter the template's text";

/** The text of a template of this kind: the same check in the browser and in the save. */
export function templateBodySchema(kind: DocumentKind) {
  return z.object({
    body: z
      .string({ required_error: ENTER_TEXT })
      .trim()
      .min(1, ENTER_TEXT)
      .max(MAX_TEMPLATE_LENGTH, `Use at most ${MAX_TEMPLATE_LENGTH.toLocaleString("en-US")} characters`)
      .superRefine((body, ctx) => {
        for (const message of templateProblems(body, kind)) ctx.addIssue({ code: "custom", message });
      }),
  });
}

const ROUND_OF_KIND = "A notice template is for one of the notices, a true bill template for a true bill";
const KIND_CHOICE = "Choose notice, true bill or proof of service";

/** A new template scope: which cause (empty: any), which kind, which round (empty: any). */
export const newTemplateSchema = z
  .object({
    intent: z.literal("create"),
    causeCode: z.string().trim().max(40).optional(),
    kind: z.enum(DOCUMENT_KINDS, { errorMap: () => ({ message: KIND_CHOICE }) }),
    round: z.coerce
      .number({ invalid_type_error: "Choose a round" })
      .int("Choose a round")
      .min(1, ROUND_OF_KIND)
      .max(LAST_ROUND, `Rounds go up to ${LAST_ROUND}`)
      .optional(),
  })
  .superRefine((v, ctx) => {
    // A proof of service is made for any round, notice or true bill.
    if (v.round === undefined || v.kind === "proof-of-service") return;
    if ((v.kind === "notice") !== v.round <= NOTICE_ROUNDS)
      ctx.addIssue({ code: "custom", path: ["round"], message: ROUND_OF_KIND });
  });

export const MAX_DISCLAIMER_LENGTH = 1_000;
const ENTER_DISCLAIMER = "Enter the notice shown with every document";

/** The community's "not legal advice" notice. */
export const disclaimerSchema = z.object({
  intent: z.literal("disclaimer"),
  disclaimer: z
    .string({ required_error: ENTER_DISCLAIMER })
    .trim()
    .min(1, ENTER_DISCLAIMER)
    .max(MAX_DISCLAIMER_LENGTH, `Use at most ${MAX_DISCLAIMER_LENGTH.toLocaleString("en-US")} characters`),
});

/** The settings key of the "not legal advice" notice. */
export const DISCLAIMER_KEY = "documentDisclaimer";

export const DEFAULT_DISCLAIMER =
  "Not legal advice. This document was made from a sample template that the community provides. " +
  "It does not tell you what the law says or what you should do; ask a qualified professional about your situation.";
