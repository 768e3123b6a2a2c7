import { eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import { directoryRespondents } from "~/db/schema";
import { conflict, invalid, isDomainError } from "~/domain/errors";
import { formBase, FORM_NAMES, ownerQuery, stepHref } from "~/domain/nol/addresses";
import { escalationFee, formForStep, formOffersStep, slotsOpenIn } from "~/domain/nol/billing";
import { versionSchema } from "~/domain/nol/entries";
import type { StepKind } from "~/domain/nol/steps";
import { earlyRound } from "~/domain/nol/timeline";
import { formatMoney } from "~/lib/format";
import type { UserRow, Viewer } from "../session.server";
import {
  entriesOf,
  mailingRecipients,
  nextBillLines,
  respondentsOf,
  versionState,
  type VersionState,
} from "./entries.server";
import { hostedStep } from "./hosted.server";
import { causeOf, versionStepHref, type PageAddress } from "./pages.server";
import { stepContext, submitStep } from "./save-step.server";
import { proofOfServiceBase, timelineView, versionTimeline } from "./timeline.server";

/** The step page of a version: what it shows, and saving the step from it (spec §4 "NoL steps"). */

/** /nol/{form}/{cause}/{step}?version=: the step's form, prefilled, or its hosted form. */
export async function stepPage(
  services: AppServices,
  viewer: Viewer,
  address: PageAddress,
  input: { cause: string; kind: StepKind; version: string | undefined; badVersion?: string; respondent?: number },
) {
  const place = await causeOf(services, viewer, address, input.cause);
  const { owner, cause, rows } = place;
  const { version } = input;
  if (!version) {
    // A name that is not one goes back with it, for the new version form to say why.
    if (input.badVersion === undefined) return { redirectTo: place.causeBase } as const;
    const back = new URLSearchParams(place.other ? { username: place.other } : {});
    back.set("version", input.badVersion);
    return { redirectTo: `${place.causeBase}?${back}` } as const;
  }
  const state = versionState(rows, version);
  const billed = state.bills.length > 0;
  if (state.step.kind !== input.kind) return { redirectTo: versionStepHref(place, version, state.step.kind) } as const;
  // A step this form does not offer is taken on the form that does.
  if (!formOffersStep(address.form, input.kind, { selectedEntryId: null, billExistsForVersion: billed })) {
    const elsewhere = formForStep(input.kind, billed);
    return { redirectTo: stepHref(elsewhere, cause.slug, input.kind, version, place.other) } as const;
  }
  const profile = (state.creator?.profile ?? state.billingProfile?.profile ?? {}) as { DailyAmount?: number };
  const prior = state.bills.at(-1)?.administrativeJudgment ?? null;
  const slots = state.step.kind === "notice" ? slotsOpenIn(state.step.round ?? 1) : 0;
  const respondents: Record<number, { name: string; type: string }> = await knownRespondents(services, state);
  const picked =
    slots > 0 && input.respondent ? await pickRespondent(services, respondents, slots, input.respondent) : null;
  const stepPath = versionStepHref(place, version, state.step.kind);
  const now = new Date();
  const timeline = timelineView(
    versionTimeline(services.config, cause.windows, state, now),
    proofOfServiceBase(place.causeBase, version, place.other),
  );
  return {
    redirectTo: null,
    page: {
      title: state.step.label,
      cause,
      causeBase: place.causeBase,
      version,
      step: state.step,
      // The checks of the step's form: a delivery neither in the future nor before its mailing.
      checks: stepContext(state, now, await mailingRecipients(services.db, state)),
      timeline,
      // The round this step makes, asked for before the last round's window has closed.
      early: earlyRound(timeline.next, state.step),
      trackingUrl: services.config.trackingUrl,
      calendarHref: `${place.causeBase}/calendar.ics?${new URLSearchParams({ version, ...(place.other ? { username: place.other } : {}) })}`,
      slots,
      prefill: prefillOf(state, owner, profile),
      respondents,
      picked,
      directoryHref: slots > 0 ? `/respondents?${new URLSearchParams({ for: stepPath })}` : null,
      // "The escalation fee is 20% of the prior administrative judgment" (spec §5), as the save adds it.
      escalationFee: prior ? formatMoney(escalationFee(prior), "USD") : null,
      billLines: await nextBillLines(services.db, state),
      hosted: hostedStep(services, owner, cause.code, state, rows.length),
      testMode: !services.config.isProduction,
    },
  } as const;
}

/**
 * Saves a step from its page. With hosted forms, entries come from their webhooks only (one
 * source of entry ids): a conflict. A step this form does not offer is taken elsewhere; a step
 * taken meanwhile (another tab, a double submit) sends the member back to the version.
 */
export async function takeStep(
  services: AppServices,
  viewer: Viewer,
  address: PageAddress,
  input: { cause: string; kind: StepKind; version: unknown; form: FormData },
) {
  const place = await causeOf(services, viewer, address, input.cause);
  if (services.config.forms === "cognito")
    throw conflict("Fill in the form on this page: it is sent to the forms service.");
  const version = versionSchema.safeParse(input.version);
  if (!version.success) throw invalid(version.error.issues[0]?.message ?? "Name this version");
  const causePage = `${formBase(address.segment)}/${place.cause.slug}${ownerQuery(place.other)}`;
  const billed = versionState(place.rows, version.data).bills.length > 0;
  if (!formOffersStep(address.form, input.kind, { selectedEntryId: null, billExistsForVersion: billed })) {
    const elsewhere = formForStep(input.kind, billed);
    return {
      to: stepHref(elsewhere, place.cause.slug, input.kind, version.data, place.other),
      flash: { kind: "warn", message: `This step is taken on the ${FORM_NAMES[elsewhere].toLowerCase()} page.` },
    } as const;
  }
  try {
    await submitStep(services, viewer, place.owner, {
      causeCode: place.cause.code,
      version: version.data,
      kind: input.kind,
      form: input.form,
      windows: place.cause.windows,
    });
  } catch (error) {
    if (!isDomainError(error) || error.kind !== "conflict") throw error;
    return { to: causePage, flash: { kind: "warn", message: error.message } } as const;
  }
  const next = versionState(await entriesOf(services.db, place.owner.id, place.cause.code), version.data).step;
  return { to: causePage, flash: { kind: "success", message: `Saved. Next: ${next.label}.` } } as const;
}

function prefillOf(state: VersionState, owner: UserRow, profile: { DailyAmount?: number }) {
  return {
    claimantName: (state.creator?.data as { claimantName?: string } | undefined)?.claimantName ?? owner.name ?? "",
    dailyAmount: profile.DailyAmount !== undefined ? String(profile.DailyAmount) : "",
  };
}

/** Later rounds show the respondents named before, so nothing has to be typed twice. */
/** A respondent of the directory in the first empty slot open in this round; the slot it took, or why none. */
async function pickRespondent(
  services: AppServices,
  respondents: Record<number, { name: string; type: string }>,
  slots: number,
  id: number,
): Promise<{ slot: number; name: string } | { slot: null; name: string | null }> {
  const [row] = await services.db
    .select({ name: directoryRespondents.name, type: directoryRespondents.type })
    .from(directoryRespondents)
    .where(eq(directoryRespondents.id, id));
  if (!row) return { slot: null, name: null };
  if (Object.values(respondents).some((r) => r.name.toLowerCase() === row.name.toLowerCase())) {
    return { slot: null, name: row.name };
  }
  for (let slot = 1; slot <= slots; slot += 1) {
    if (!respondents[slot]?.name) {
      respondents[slot] = { name: row.name, type: row.type };
      return { slot, name: row.name };
    }
  }
  return { slot: null, name: row.name };
}

async function knownRespondents(services: AppServices, state: VersionState) {
  if (state.step.kind !== "notice" || !state.creator) return {};
  const named = await respondentsOf(services.db, [state.creator.id]);
  return Object.fromEntries(named.map((r) => [r.slot, { name: r.name, type: r.type }]));
}
