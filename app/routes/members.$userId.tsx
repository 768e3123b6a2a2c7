import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { MemberErasure } from "~/components/admin/account-erasure";
import { MemberDetail } from "~/components/admin/members";
import { invalid } from "~/domain/errors";
import { notFoundPage, withPageErrors } from "~/lib/http.server";
import type { AppServices } from "~/context";
import { isDomainError } from "~/domain/errors";
import { formatDate } from "~/lib/format";
import {
  creditsText,
  eraseFormSchema,
  grantComplimentarySchema,
  grantCreditsSchema,
  memberActionSchema,
  userIdSchema,
} from "~/lib/schemas.server";
import { endComplimentary, grantComplimentary, grantorOf } from "~/services/billing/complimentary.server";
import { grantCredits } from "~/services/billing/credits.server";
import { readForm } from "~/lib/submission.server";
import { actorOf } from "~/services/audit.server";
import { resetFactors } from "~/services/factors/records.server";
import { requireStepUp } from "~/services/factors/step-up.server";
import type { SensitiveAction } from "~/domain/second-factor";
import { redirectWithFlash } from "~/services/flash.server";
import { membershipWords } from "~/domain/words";
import { endMemberSession, memberPage, setMemberFlags } from "~/services/member-page.server";
import { memberPageInWords } from "~/services/member-page-words.server";
import { endMemberSessions, memberDetail, renewMemberNow } from "~/services/members.server";
import { setVersionFeatures } from "~/services/nol/features.server";
import { requireAdmin, type Viewer } from "~/services/session.server";
import { erasureState } from "~/services/member-data/deletion.server";
import { eraseOnRequest } from "~/services/member-data/erasure.server";

export const handle = { layout: "container" };

export const meta: MetaFunction = () => [{ title: "Members" }];

/** A member's id in the path; anything else names no member. */
function memberId(params: { userId?: string }): string {
  const id = userIdSchema.safeParse(params.userId);
  return id.success ? id.data : notFoundPage();
}

/** /members/{user_id}: a member's page for admins (reading it is audited by the service). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  const id = memberId(params);
  const page = await withPageErrors(() => memberPage(services, viewer, id));
  const erasure = await erasureState(services, id);
  return json({ page: memberPageInWords(page), erasure }, { headers: { "Cache-Control": "no-store" } });
}

/**
 * POST /members/{id}: an admin sets the member's flags, logs out one session or all of them, or
 * has the sandbox renew the member's membership now. Each is audited by its service.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  const id = memberId(params);
  const {
    member,
    message,
    kind = "success",
  } = await withPageErrors(async () => {
    const found = await memberDetail(services.db, id);
    const posted = await readForm(request);
    const values = Object.fromEntries(posted);
    const sensitive = STEP_UP_INTENTS[String(values.intent)];
    if (sensitive) await requireStepUp(services, viewer, sensitive, request, posted);
    if (values.intent === "grant-complimentary") return grantFromPage(services, viewer, found, values);
    if (values.intent === "erase") {
      const erase = eraseFormSchema.safeParse(values);
      if (!erase.success || erase.data.confirm !== found.username) {
        return { member: found, message: "Type the member's username to erase them.", kind: "error" as const };
      }
      const outcome = await eraseOnRequest(services, viewer, found.id);
      const message =
        outcome === "waiting-for-mail"
          ? `${found.username} is being erased: it completes once the e-mail telling them has gone.`
          : `${found.username} is erased.`;
      return { member: found, message };
    }
    if (values.intent === "grant-credits") {
      const grant = grantCreditsSchema.safeParse(values);
      if (!grant.success) throw invalid(grant.error.issues[0]!.message, grant.error.flatten().fieldErrors);
      const balance = await grantCredits(services, viewer, found.id, grant.data);
      const message = `${creditsText(grant.data.count)} granted to ${found.username}, who now has ${balance}.`;
      return { member: found, message };
    }
    const parsed = memberActionSchema.safeParse(values);
    if (!parsed.success) throw invalid("Unknown action");
    const form = parsed.data;
    switch (form.intent) {
      case "reset-factors":
        await resetFactors(services, actorOf(viewer), found.id);
        return {
          member: found,
          message: `${found.username}'s second factors are reset and every session of theirs ended: they sign in with their password and set one up again.`,
        };
      case "end-sessions":
        await endMemberSessions(services.db, viewer, found.id);
        return { member: found, message: `${found.username} is signed out everywhere.` };
      case "end-session":
        await endMemberSession(services, viewer, found.id, form.session);
        return { member: found, message: `That session of ${found.username} is logged out.` };
      case "version-features":
        await setVersionFeatures(
          services,
          viewer,
          { userId: found.id, causeCode: form.cause, version: form.version },
          { AllowNotarizeOnline: form.allowNotarizeOnline === "on" },
        );
        return { member: found, message: `The features of ${form.cause} · ${form.version} are saved.` };
      case "flags":
        await setMemberFlags(services, viewer, found.id, {
          nolCreator: form.nolCreator === "on",
          nolTester: form.nolTester === "on",
        });
        return { member: found, message: `${found.username}'s flags are saved.` };
      case "end-complimentary":
        await endComplimentary(services, viewer, found.id);
        return { member: found, message: `${found.username}'s complimentary membership has ended.` };
      case "renew-now": {
        const status = await renewMemberNow(services, viewer, found.id);
        return { member: found, message: renewedMessage(found.username, status) };
      }
    }
  });
  return redirectWithFlash(`/members/${member.id}`, { kind, message }, services.config);
}

/** The member page's actions that ask for a fresh second factor. */
const STEP_UP_INTENTS: Record<string, SensitiveAction | undefined> = {
  "grant-complimentary": "grant-membership",
  "grant-credits": "grant-credits",
  flags: "role-change",
  "reset-factors": "factor-change",
  erase: "member-erase",
};

/** A complimentary membership granted from the page; a grant it refuses says why and changes nothing. */
async function grantFromPage(
  services: AppServices,
  admin: Viewer,
  member: { id: string; username: string },
  values: Record<string, FormDataEntryValue>,
): Promise<{ member: typeof member; message: string; kind?: "error" }> {
  const grant = grantComplimentarySchema.safeParse(values);
  if (!grant.success) return { member, message: grant.error.issues[0]!.message, kind: "error" };
  try {
    const { plan, endsOn } = await grantComplimentary(services, grantorOf(admin), member.id, grant.data);
    const until = endsOn ? ` until ${formatDate(endsOn)}` : "";
    return { member, message: `${member.username} has the ${plan} as a complimentary membership${until}.` };
  } catch (error) {
    if (isDomainError(error) && error.status < 500) return { member, message: error.message, kind: "error" };
    throw error;
  }
}

export default function Member() {
  const { page, erasure } = useLoaderData<typeof loader>();
  return (
    <>
      <MemberDetail page={page} />
      <MemberErasure username={page.detail.username} state={erasure} />
    </>
  );
}

/** What "Renew now" did, in words: a renewal, or the end a membership set to end came to. */
function renewedMessage(username: string, status: string): string {
  if (status === "CANCELED") return `${username}'s membership has ended, as it was set to at its period's end.`;
  return `${username}'s membership was renewed: it is now ${membershipWords(status).toLowerCase()}.`;
}

/** A step-up prompt in the place of the page when a sensitive action asks for a fresh second factor. */
export { StepUpBoundary as ErrorBoundary } from "~/components/factors/step-up-card";
