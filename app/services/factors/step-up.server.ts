import { json, redirect } from "@remix-run/node";
import type { AppServices } from "~/context";
import { DomainError, isDomainError } from "~/domain/errors";
import { safeRedirectPath } from "~/domain/guard";
import {
  factorGate,
  SENSITIVE_ACTION_WORDS,
  STEP_UP_CODE,
  STEP_UP_PASSKEY,
  stepUpFresh,
  type SensitiveAction,
} from "~/domain/second-factor";
import { errorJson } from "~/lib/http.server";
import { actorOf } from "../audit.server";
import { flashHeader } from "../flash.server";
import type { Viewer } from "../viewer.server";
import { checkTypedCode, type CodeAttempt } from "./codes.server";
import { readPasskeyField, verifyPasskey } from "./passkeys.server";
import { factorOverview, factorPassed, type PassedKind } from "./records.server";

/**
 * A fresh second factor before a sensitive action ("step-up", decision 045). The action's
 * form, when the factor passed too long ago, is answered with a prompt (a 403 the root error
 * boundary shows as the factor's form) that carries the form's own fields back: posting it
 * passes the factor and does the action, with or without JavaScript.
 */

export type StepUpPrompt = {
  action: SensitiveAction;
  /** "act as a member": what the member is confirming. */
  label: string;
  /** Where the form was posted (its index-route mark kept). */
  postTo: string;
  /** The action's own fields, posted again with the factor (files cannot be, and are left out). */
  fields: [string, string][];
  error: string | null;
  methods: { passkey: boolean; code: boolean };
};

/**
 * The factor a form posts, checked for the member: a passkey's answer in the field
 * `names.passkey`, or a code in `names.code`. Throws a DomainError when it is wrong; answers
 * null when the form carries none.
 */
export async function factorFromForm(
  services: AppServices,
  userId: string,
  form: FormData,
  names: { passkey: string; code: string },
  attempt?: CodeAttempt,
): Promise<{ kind: PassedKind; factorId: string | null } | null> {
  const passkey = readPasskeyField(form.get(names.passkey));
  if (passkey) {
    const { factorId } = await verifyPasskey(services, "factor", userId, passkey);
    return { kind: "passkey", factorId };
  }
  const code = form.get(names.code);
  if (typeof code === "string" && code.trim() !== "")
    return checkTypedCode(services, userId, code, Date.now(), attempt);
  return null;
}

/**
 * Passes the factor posted with a form, for the session: throws a DomainError when it is wrong.
 * Answers false when the form carries none.
 */
export async function passPostedFactor(services: AppServices, viewer: Viewer, form: FormData): Promise<boolean> {
  const passed = await factorFromForm(
    services,
    viewer.user.id,
    form,
    { passkey: STEP_UP_PASSKEY, code: STEP_UP_CODE },
    { use: "step-up", ip: actorOf(viewer).ip ?? null },
  );
  if (!passed) return false;
  await factorPassed(services, {
    userId: viewer.user.id,
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
  postTo: string,
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
    postTo,
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
  request: Request,
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
  const url = new URL(request.url);
  const stepUp = await prompt(services, viewer, action, form, url.pathname + url.search, error);
  throw json(
    { error: error ?? `Confirm it is you to ${stepUp.label}.`, code: "step_up_required", stepUp },
    { status: 403, headers: { "Cache-Control": "no-store" } },
  );
}

/**
 * The same for an API call (JSON, no form to post back): a 403 naming the page where the
 * factor passes, after which the call can be made again.
 */
export function requireStepUpForApi(viewer: Viewer, action: SensitiveAction): void {
  if (!viewer.hasFactor || stepUpFresh(viewer.session.factorPassedAt, new Date())) return;
  throw errorJson(
    new DomainError("forbidden", `Confirm it is you to ${SENSITIVE_ACTION_WORDS[action]}, then try again.`, {
      extra: { code: "step_up_required", verify: `/profile/security/verify?for=${action}` },
    }),
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
 * redirect and an API call by a 403. An admin held so is no admin meanwhile
 * (session.server.ts's `adminLocked`); a member is held where the policy requires it of all.
 */
export async function requireFactorGate(
  services: AppServices,
  request: Request,
  viewer: Viewer,
  answer: "page" | "api",
): Promise<void> {
  const gate =
    viewer.adminLocked ??
    factorGate(services.config.mfaRequiredFor, {
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
