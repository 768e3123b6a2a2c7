import { json, redirect } from "@remix-run/node";
import type { AppServices } from "~/context";
import { DomainError, isDomainError } from "~/domain/errors";
import { safeRedirectPath } from "~/domain/guard";
import { factorGate, SENSITIVE_ACTION_WORDS, stepUpFresh, type SensitiveAction } from "~/domain/second-factor";
import { errorJson } from "~/lib/http.server";
import { actorOf } from "../audit.server";
import { flashHeader } from "../flash.server";
import type { Viewer } from "../session.server";
import { checkTypedCode } from "./codes.server";
import { passkeyAnswerSchema, verifyPasskey } from "./passkeys.server";
import { factorOverview, factorPassed } from "./records.server";

/**
 * A fresh second factor before a sensitive action ("step-up", decision 045). The action's
 * form, when the factor passed too long ago, is answered with a prompt (a 403 the root error
 * boundary shows as the factor's form) that carries the form's own fields back: posting it
 * passes the factor and does the action, with or without JavaScript.
 */

/** The fields the prompt adds to the action's own form. */
export const STEP_UP_CODE = "stepUpCode";
export const STEP_UP_PASSKEY = "stepUpPasskey";

export type StepUpPrompt = {
  action: SensitiveAction;
  /** "act as a member": what the member is confirming. */
  label: string;
  /** The action's own fields, posted again with the factor (files cannot be, and are left out). */
  fields: [string, string][];
  error: string | null;
  methods: { passkey: boolean; code: boolean };
};

/** The code or passkey posted with an action, if any, without the action's own fields. */
function factorFields(form: FormData) {
  const code = form.get(STEP_UP_CODE);
  const passkey = form.get(STEP_UP_PASSKEY);
  return {
    code: typeof code === "string" && code.trim() !== "" ? code : null,
    passkey: typeof passkey === "string" && passkey !== "" ? passkey : null,
  };
}

/**
 * Passes the factor posted with a form, for the session: throws a DomainError when it is wrong.
 * Answers false when the form carries none.
 */
export async function passPostedFactor(services: AppServices, viewer: Viewer, form: FormData): Promise<boolean> {
  const posted = factorFields(form);
  const userId = viewer.user.id;
  let passed: { kind: "passkey" | "totp" | "recovery"; factorId: string | null } | null = null;
  if (posted.passkey) {
    let answer: unknown = null;
    try {
      answer = JSON.parse(posted.passkey);
    } catch {
      answer = null;
    }
    const parsed = passkeyAnswerSchema.safeParse(answer);
    if (!parsed.success) throw new DomainError("invalid", "That passkey could not be used. Try again.");
    const { factorId } = await verifyPasskey(services, "factor", userId, parsed.data);
    passed = { kind: "passkey", factorId };
  } else if (posted.code) {
    passed = await checkTypedCode(services, userId, posted.code);
  }
  if (!passed) return false;
  await factorPassed(services, {
    userId,
    sessionId: viewer.session.id,
    ...passed,
    use: "step-up",
    actor: actorOf(viewer),
  });
  return true;
}

async function prompt(
  services: AppServices,
  viewer: Viewer,
  action: SensitiveAction,
  form: FormData,
  error: string | null,
): Promise<StepUpPrompt> {
  const overview = await factorOverview(services.db, viewer.user.id);
  const fields: [string, string][] = [];
  for (const [name, value] of form) {
    if (typeof value === "string" && name !== STEP_UP_CODE && name !== STEP_UP_PASSKEY) fields.push([name, value]);
  }
  return {
    action,
    label: SENSITIVE_ACTION_WORDS[action],
    fields,
    error,
    methods: { passkey: overview.passkeys.length > 0, code: overview.totp !== null || overview.recoveryCodesLeft > 0 },
  };
}

/**
 * Lets a sensitive action go on when the person signed in passed a factor within
 * STEP_UP_MINUTES, or passes one posted with the form now; otherwise throws the prompt. A
 * person with no factor is not asked (where one is required, requireAdmin stopped them first).
 */
export async function requireStepUp(
  services: AppServices,
  viewer: Viewer,
  action: SensitiveAction,
  form: FormData,
): Promise<void> {
  if (!viewer.hasFactor || stepUpFresh(viewer.session.factorPassedAt, new Date())) return;
  let error: string | null = null;
  try {
    if (await passPostedFactor(services, viewer, form)) return;
  } catch (caught) {
    if (!isDomainError(caught) || caught.status >= 500) throw caught;
    error = caught.message;
  }
  const stepUp = await prompt(services, viewer, action, form, error);
  throw json(
    { error: error ?? `Confirm it is you to ${stepUp.label}.`, code: "step_up_required", stepUp },
    { status: 403, headers: { "Cache-Control": "no-store" } },
  );
}

/**
 * The same for a link (an export): a person whose factor is not fresh goes to the factor's
 * page, which brings them back here once it passes.
 */
export async function requireStepUpForLink(request: Request, viewer: Viewer, action: SensitiveAction): Promise<void> {
  if (!viewer.hasFactor || stepUpFresh(viewer.session.factorPassedAt, new Date())) return;
  const url = new URL(request.url);
  const back = encodeURIComponent(safeRedirectPath(url.pathname + url.search));
  throw redirect(`/profile/security/verify?for=${action}&redirectTo=${back}`);
}

/**
 * Where the policy requires a second factor of this person: refuses them until they have one
 * (sent to set one up) and until this session passed it (sent to pass it), a page by a
 * redirect and an API call by a 403.
 */
export async function requireFactorGate(
  services: AppServices,
  request: Request,
  viewer: Viewer,
  answer: "page" | "api",
): Promise<void> {
  const gate = factorGate(services.config.mfaRequiredFor, {
    isAdmin: viewer.user.admin,
    hasFactor: viewer.hasFactor,
    factorPassed: viewer.session.factorPassedAt !== null,
  });
  if (gate === "ok") return;
  const message =
    gate === "setup"
      ? "Set up a second factor first: this community requires one of you."
      : "Confirm it is you with your second factor first.";
  if (answer === "api") {
    const code = gate === "setup" ? "factor_setup_required" : "factor_required";
    throw errorJson(new DomainError("forbidden", message, { extra: { code } }));
  }
  const url = new URL(request.url);
  const back = encodeURIComponent(safeRedirectPath(url.pathname + url.search));
  const to = gate === "setup" ? `/profile/security?redirectTo=${back}` : `/profile/security/verify?redirectTo=${back}`;
  throw redirect(to, { headers: { "Set-Cookie": await flashHeader(services.config, { kind: "warn", message }) } });
}
