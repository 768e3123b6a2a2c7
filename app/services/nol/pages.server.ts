import type { AppServices } from "~/context";
import { formBase, FORM_NAMES, ownerParam, ownerQuery, seamlessLink, stepHref } from "~/domain/nol/addresses";
import { escalationFee, formForStep, formListsEntry, formOffersStep, slotsOpenIn } from "~/domain/nol/billing";
import { conflict, invalid, isDomainError } from "~/domain/errors";
import { versionSchema, type NolForm } from "~/domain/nol/entries";
import { entryLabel } from "~/domain/nol/labels";
import { roundsDoneLabel } from "~/domain/nol/rounds";
import { autoSelect, canEdit, emptySelection, linkHash, selectByHash, type AutoSelect } from "~/domain/nol/selection";
import { roundsDelivered, type StepKind } from "~/domain/nol/steps";
import { formatMoney } from "~/lib/format";
import type { UserRow, Viewer } from "../session.server";
import { causeChoices, requireCause, resolveOwner } from "./access.server";
import {
  entriesOf,
  facts,
  nextBillLines,
  respondentsOf,
  versionsOf,
  versionState,
  type EntryRow,
  type VersionState,
} from "./entries.server";
import { hostedStep } from "./hosted.server";
import { submitStep } from "./save-step.server";

/** What the NoL pages show: each page's data, computed by the rules, ready for its view. */

/** The address of a NoL page: the form as the address named it, and whose notices. */
export type PageAddress = { segment: string; form: NolForm; username?: string };

async function ownerOf(services: AppServices, viewer: Viewer, address: PageAddress) {
  const owner = await resolveOwner(services.db, viewer, address.username);
  return { owner, other: owner.id === viewer.member.id ? null : owner.username };
}

/** /nol/{form}: the causes of the owner's country and which are open to them (spec §4). */
export async function causesPage(services: AppServices, viewer: Viewer, address: PageAddress) {
  const { owner, other } = await ownerOf(services, viewer, address);
  const { choices, anyAvailable } = await causeChoices(services, owner);
  return {
    title: "Choose a cause",
    base: formBase(address.segment),
    choices,
    ownerQuery: ownerQuery(other),
    anyAvailable,
    creatorOrTester: owner.nolCreator || owner.nolTester,
  };
}

/** A cause page's owner, cause and rows. */
async function causeOf(services: AppServices, viewer: Viewer, address: PageAddress, slug: string) {
  const { owner, other } = await ownerOf(services, viewer, address);
  const cause = await requireCause(services, owner, slug);
  const rows = await entriesOf(services.db, owner.id, cause.code);
  return { owner, other, cause, rows, causeBase: `${formBase(address.segment)}/${cause.slug}` };
}

/**
 * /nol/{form}/{cause}: the owner's versions with their next step and entries, and the
 * selection (spec §4 "Selection"): by `href`, else by the auto-select mode and the one
 * remembered for "back". `remember` says what the remembered selection becomes.
 */
export async function versionsPage(
  services: AppServices,
  viewer: Viewer,
  address: PageAddress,
  input: { cause: string; href?: string; auto?: AutoSelect; remembered: string | null },
) {
  const { form } = address;
  const { other, cause, rows, causeBase } = await causeOf(services, viewer, address, input.cause);
  const listed = rows.filter((row) => formListsEntry(form, row.form)).map(facts);
  let selection = emptySelection;
  let selectionNotice: string | null = null;
  if (input.href) {
    selection = selectByHash(listed, linkHash(input.href), emptySelection);
    if (!selection.selectedNolId) selectionNotice = "No single notice matches that link, so nothing is selected.";
  } else {
    const entry = listed.find((e) => e.id === autoSelect(input.auto ?? "never", listed, input.remembered));
    if (entry) selection = selectByHash([entry], linkHash(entry.view_link), emptySelection);
  }
  const selectedEntry = listed.find((e) => e.id === selection.selectedNolId) ?? null;
  const versions = versionsOf(rows).map((version) => {
    const state = versionState(rows, version);
    const selectedHere = selectedEntry?.descriptive_version === version ? selectedEntry : null;
    const delivered = roundsDelivered(state.creator?.nolProofOfDelivery ?? null);
    const elsewhere = formForStep(state.step.kind, state.bills.length > 0);
    const offered = formOffersStep(form, state.step.kind, {
      selectedEntryId: selectedHere?.id ?? null,
      billExistsForVersion: state.bills.length > 0,
    });
    return {
      version,
      step: state.step,
      selected: selectedHere !== null,
      roundsDone: delivered > 0 ? roundsDoneLabel(delivered) : null,
      entries: listedEntries(form, state, selectedHere?.id ?? null),
      nextHref: offered
        ? `${causeBase}/${state.step.kind}?version=${encodeURIComponent(version)}${ownerParam(other)}`
        : null,
      elsewhere: {
        href: stepHref(elsewhere, cause.slug, state.step.kind, version, other),
        name: FORM_NAMES[elsewhere],
      },
    };
  });
  const chosen = selection.selectedNolId;
  const remember =
    chosen && chosen !== input.remembered
      ? { set: chosen }
      : // A cleared selection stays cleared: "back" has nothing to go back to.
        !chosen && input.remembered && (input.href || input.auto === "never")
        ? { clear: true as const }
        : null;
  return {
    page: {
      title: cause.name,
      base: formBase(address.segment),
      cause,
      versions,
      causeBase,
      owner: other ?? viewer.member.username,
      ownsNotices: other === null,
      formName: FORM_NAMES[form],
      selectionNotice,
      clearSelectionHref: `${causeBase}?auto=never${ownerParam(other)}`,
    },
    remember,
  };
}

/** A version's entries as its form's page lists them, with Edit only where it applies. */
function listedEntries(form: NolForm, state: VersionState, selectedId: string | null) {
  return [state.creator, state.billingProfile, ...state.bills]
    .filter((e): e is EntryRow => e !== null && formListsEntry(form, e.form))
    .map((e) => {
      const label = entryLabel({ form: e.form, tb_value: e.tbValue });
      // "The edit permission exists only if the selected entry has an edit_link": the
      // entry's own (a hosted form's), and never on a read-only entry.
      const editable = selectedId === e.id && canEdit({ edit_link: e.editLink }) && !label.readOnly;
      return { id: e.id, ...label, viewLink: seamlessLink(e, e.viewHash), editLink: editable ? e.editLink : null };
    });
}

/** The address of a version's step on a form's page, or on this page when no form is named. */
function stepAddress(place: { causeBase: string; cause: { slug: string }; other: string | null }, version: string) {
  return (form: NolForm | null, kind: string) =>
    form
      ? stepHref(form, place.cause.slug, kind, version, place.other)
      : `${place.causeBase}/${kind}?version=${encodeURIComponent(version)}${ownerParam(place.other)}`;
}

/** /nol/{form}/{cause}/{step}?version=: the step's form, prefilled, or its hosted form. */
export async function stepPage(
  services: AppServices,
  viewer: Viewer,
  address: PageAddress,
  input: { cause: string; kind: StepKind; version: string | undefined },
) {
  const place = await causeOf(services, viewer, address, input.cause);
  const { owner, cause, rows } = place;
  const { version } = input;
  if (!version) return { redirectTo: place.causeBase } as const;
  const state = versionState(rows, version);
  const billed = state.bills.length > 0;
  const at = stepAddress(place, version);
  if (state.step.kind !== input.kind) return { redirectTo: at(null, state.step.kind) } as const;
  // A step this form does not offer is taken on the form that does.
  if (!formOffersStep(address.form, input.kind, { selectedEntryId: null, billExistsForVersion: billed }))
    return { redirectTo: at(formForStep(input.kind, billed), input.kind) } as const;
  const profile = (state.creator?.profile ?? state.billingProfile?.profile ?? {}) as { DailyAmount?: number };
  const prior = state.bills.at(-1)?.administrativeJudgment ?? null;
  return {
    redirectTo: null,
    page: {
      title: state.step.label,
      cause,
      causeBase: place.causeBase,
      version,
      step: state.step,
      slots: state.step.kind === "notice" ? slotsOpenIn(state.step.round ?? 1) : 0,
      prefill: prefillOf(state, owner, profile),
      respondents: await knownRespondents(services, state),
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
      to: stepAddress(place, version.data)(elsewhere, input.kind),
      flash: { kind: "warn", message: `This step is taken on the ${FORM_NAMES[elsewhere].toLowerCase()} page.` },
    } as const;
  }
  try {
    await submitStep(services, viewer, place.owner, {
      causeCode: place.cause.code,
      version: version.data,
      kind: input.kind,
      form: input.form,
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
async function knownRespondents(services: AppServices, state: VersionState) {
  if (state.step.kind !== "notice" || !state.creator) return {};
  const named = await respondentsOf(services.db, [state.creator.id]);
  return Object.fromEntries(named.map((r) => [r.slot, { name: r.name, type: r.type }]));
}

/** /nol/{form}/{cause}/notarize: which of the member's versions can be notarized online now. */
export async function notarizePage(services: AppServices, viewer: Viewer, address: PageAddress, slug: string) {
  const cause = await requireCause(services, viewer.member, slug);
  const rows = await entriesOf(services.db, viewer.member.id, cause.code);
  const versions = versionsOf(rows).map((version) => {
    const { step } = versionState(rows, version);
    return { version, step: step.label, notarize: step.notarize };
  });
  return { cause: cause.name, causeHref: `${formBase(address.segment)}/${cause.slug}`, versions };
}
