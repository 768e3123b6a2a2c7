import { eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import { directoryRespondents } from "~/db/schema";
import { conflict, invalid, isDomainError } from "~/domain/errors";
import { formBase, FORM_NAMES, ownerQuery, stepHref } from "~/domain/nol/addresses";
import { addressLine, escalationFee, formForStep, formOffersStep, slotsOpenIn } from "~/domain/nol/billing";
import { versionSchema } from "~/domain/nol/entries";
import type { StepKind } from "~/domain/nol/steps";
import { earlyRound, roundName } from "~/domain/nol/timeline";
import { NOTICE_ROUNDS } from "~/domain/nol/rounds";
import { signedLine, signPageHref } from "~/domain/documents/signature";
import { latestSignature } from "../documents/signatures.server";
import { formatMoney } from "~/lib/format";
import type { UserRow, Viewer } from "../session.server";
import {
  entriesOf,
  mailingRecipients,
  nextBillLines,
  respondentsOf,
  versionState,
  type EntryRow,
  type VersionState,
} from "./entries.server";
import { hostedStep } from "./hosted.server";
import { causeOf, versionStepHref, type PageAddress } from "./pages.server";
import { submitStep } from "./save-step.server";
import { noticeDayOf } from "./service.server";
import { roundServiceView } from "./round-service-view.server";
import { stepContext } from "./step-rules.server";
import { roundDocumentBases, versionTimelineView } from "./timeline.server";

/** The step page of a version: what it shows, and saving the step from it (spec §4 "NoL steps"). */

/** /nol/{form}/{cause}/{step}?version=: the step's form, prefilled, or its hosted form. */
export async function stepPage(
  services: AppServices,
  viewer: Viewer,
  address: PageAddress,
  input: {
    cause: string;
    kind: StepKind;
    version: string | undefined;
    badVersion?: string;
    respondent?: number;
    /** An earlier version whose answers a new version's first notice starts with. */
    from?: string;
  },
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
  const respondents: Record<number, KnownRespondent> = await knownRespondents(services, state);
  let prefill = prefillOf(state, owner, profile);
  const notices: PageNotice[] = [];
  const copy = input.from && reusesAnswers(state) ? await copiedAnswers(services, rows, input.from, slots) : null;
  if (copy) {
    prefill = { ...prefill, ...copy.prefill };
    Object.assign(respondents, copy.respondents);
    notices.push(copy.notice);
  }
  if (slots > 0 && input.respondent)
    notices.push(pickedNotice(await pickRespondent(services, respondents, slots, input.respondent)));
  const stepPath = versionStepHref(place, version, state.step.kind);
  const now = new Date();
  const documents = roundDocumentBases(place.causeBase, version, place.other);
  const { view: timeline, service } = await versionTimelineView(services, {
    windows: cause.windows,
    state,
    bases: documents,
    now,
  });
  const mails = state.step.kind === "mailing" || state.step.kind === "true-bill-mailing";
  const proves = state.step.kind === "proof" || state.step.kind === "true-bill-proof";
  const roundNow = (mails || proves) && state.step.round ? (service.get(state.step.round) ?? null) : null;
  const signature = mails && state.step.round ? await roundSignature(services, state, state.step.round) : null;
  return {
    redirectTo: null,
    page: {
      title: state.step.label,
      cause,
      causeBase: place.causeBase,
      version,
      step: state.step,
      // The checks of the step's form: a delivery neither in the future nor before its mailing.
      checks: stepContext(state, now, await mailingRecipients(services.db, state), {
        service: roundNow,
        noticeOn: roundNow ? await noticeDayOf(services.db, owner.id, state) : null,
      }),
      // Each respondent of the round in hand: where their envelope stands, and what is left to record.
      roundService: roundNow
        ? roundServiceView(roundNow, state.step, `${place.causeBase}/service`, version, place.other)
        : null,
      timeline,
      // A mailing step offers what it mails: the round's notice, one letter per respondent.
      mailedNotice:
        mails && state.step.round
          ? {
              name: roundName(state.step.round),
              href: `${documents.notice}&round=${state.step.round}`,
              // Mailing from the app is the member's own: an editor mails by hand.
              mailHref: place.other ? null : `${place.causeBase}/mail?${new URLSearchParams({ version })}`,
              // Signing is the member's own too.
              signHref: place.other ? null : signPageHref(place.causeBase, version, state.step.round),
              signed: signature ? signedLine({ name: signature.signerName, signedAt: signature.createdAt }) : null,
            }
          : null,
      // The round this step makes, asked for before the last round's window has closed.
      early: earlyRound(timeline.next, state.step),
      trackingUrl: services.config.trackingUrl,
      calendarHref: `${place.causeBase}/calendar.ics?${new URLSearchParams({ version, ...(place.other ? { username: place.other } : {}) })}`,
      slots,
      prefill,
      respondents,
      notices,
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

/** The newest signature of the round's notice (or bill), when the member signed it. */
async function roundSignature(services: AppServices, state: VersionState, round: number) {
  const entry =
    round <= NOTICE_ROUNDS
      ? state.creator
      : (state.bills.find((bill) => bill.tbValue === round - NOTICE_ROUNDS) ?? null);
  return entry ? latestSignature(services.db, entry.id, round) : null;
}

function prefillOf(state: VersionState, owner: UserRow, profile: { DailyAmount?: number }) {
  const data = state.creator?.data as { claimantName?: string; claimantAddress?: unknown } | undefined;
  return {
    claimantName: data?.claimantName ?? owner.name ?? "",
    claimantAddress: typeof data?.claimantAddress === "string" ? data.claimantAddress : "",
    dailyAmount: profile.DailyAmount !== undefined ? String(profile.DailyAmount) : "",
  };
}

/** A respondent of the directory in the first empty slot open in this round; the slot it took, or why none. */
async function pickRespondent(
  services: AppServices,
  respondents: Record<number, KnownRespondent>,
  slots: number,
  id: number,
): Promise<{ slot: number; name: string } | { slot: null; name: string | null }> {
  const [row] = await services.db
    .select({
      name: directoryRespondents.name,
      type: directoryRespondents.type,
      address: directoryRespondents.address,
    })
    .from(directoryRespondents)
    .where(eq(directoryRespondents.id, id));
  if (!row) return { slot: null, name: null };
  if (Object.values(respondents).some((r) => r.name.toLowerCase() === row.name.toLowerCase())) {
    return { slot: null, name: row.name };
  }
  for (let slot = 1; slot <= slots; slot += 1) {
    if (!respondents[slot]?.name) {
      respondents[slot] = { name: row.name, type: row.type, address: row.address ?? "" };
      return { slot, name: row.name };
    }
  }
  return { slot: null, name: row.name };
}

/** A respondent a notice step starts with: its name, type and mailing address. */
type KnownRespondent = { name: string; type: string; address: string };

/** Later rounds show the respondents named before, so nothing has to be typed twice. */
async function knownRespondents(services: AppServices, state: VersionState) {
  if (state.step.kind !== "notice" || !state.creator) return {};
  const named = await respondentsOf(services.db, [state.creator.id]);
  return Object.fromEntries(
    named.map((r) => [r.slot, { name: r.name, type: r.type, address: addressLine(r.address) ?? "" }]),
  );
}

type PageNotice = { kind: "success" | "warn"; message: string };

function pickedNotice(picked: { slot: number | null; name: string | null }): PageNotice {
  if (picked.slot)
    return {
      kind: "success",
      message: `${picked.name} is in respondent slot ${picked.slot}. Save the step to keep it.`,
    };
  return {
    kind: "warn",
    message: picked.name
      ? `${picked.name} is named in this notice already, or no slot is free in this round.`
      : "That respondent is not in the directory.",
  };
}

/** A new version's first notice, nothing saved yet: the one that may start from an earlier version's answers. */
const reusesAnswers = (state: VersionState) =>
  state.creator === null && state.step.kind === "notice" && state.step.round === 1;

/**
 * The answers of an earlier version of the owner's, for a new version's first notice: the
 * claimant's name, the daily amount and the respondents of the slots open in round 1, each with
 * its type and address. Nothing is saved: the form starts with them, and says what it copied.
 */
async function copiedAnswers(services: AppServices, rows: EntryRow[], from: string, slots: number) {
  const earlier = versionState(rows, from).creator;
  if (!earlier)
    return {
      prefill: {},
      respondents: {},
      notice: { kind: "warn", message: `“${from}” has no answers to copy.` } as PageNotice,
    };
  const data = earlier.data as { claimantName?: unknown; claimantAddress?: unknown };
  const daily = (earlier.profile as { DailyAmount?: unknown } | null)?.DailyAmount;
  const prefill: { claimantName?: string; claimantAddress?: string; dailyAmount?: string } = {};
  if (typeof data.claimantName === "string" && data.claimantName) prefill.claimantName = data.claimantName;
  if (typeof data.claimantAddress === "string" && data.claimantAddress) prefill.claimantAddress = data.claimantAddress;
  if (typeof daily === "number") prefill.dailyAmount = String(daily);
  const named = await respondentsOf(services.db, [earlier.id]);
  const respondents: Record<number, KnownRespondent> = {};
  for (const r of named.filter((r) => r.slot <= slots))
    respondents[r.slot] = { name: r.name, type: r.type, address: addressLine(r.address) ?? "" };
  const left = named.length - Object.keys(respondents).length;
  const names = Object.values(respondents).map((r) => r.name);
  const copied = [
    prefill.claimantName ? "the claimant's name" : null,
    prefill.claimantAddress ? "the claimant's mailing address" : null,
    prefill.dailyAmount ? "the daily amount" : null,
    names.length
      ? `${names.length === 1 ? "1 respondent" : `${names.length} respondents`} (${names.join(", ")})`
      : null,
  ].filter((part): part is string => part !== null);
  const later =
    left === 0
      ? ""
      : left === 1
        ? " One respondent of a later round was not copied."
        : ` ${left} respondents of later rounds were not copied.`;
  const message =
    copied.length === 0
      ? `“${from}” has no answers to copy.`
      : `Copied from “${from}”: ${listWords(copied)}. Change anything before you save; nothing is saved until you do.${later}`;
  return { prefill, respondents, notice: { kind: copied.length ? "success" : "warn", message } as PageNotice };
}

/** "a, b and c". */
function listWords(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}
