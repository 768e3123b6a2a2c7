import { redirect } from "@remix-run/node";
import type { AppServices } from "~/context";
import { DomainError } from "~/domain/errors";
import { creatorOffer } from "../billing/creator-offer.server";
import { stepNotarizes } from "~/domain/documents/notarize-offer";
import { formBase, FORM_NAMES, ownerParam, ownerQuery, seamlessLink, stepHref } from "~/domain/nol/addresses";
import { formForStep, formListsEntry, formOffersStep } from "~/domain/nol/billing";
import type { NolForm } from "~/domain/nol/entries";
import { entryLabel, entryName } from "~/domain/nol/labels";
import { roundsDoneLabel } from "~/domain/nol/rounds";
import { autoSelect, canEdit, emptySelection, linkHash, selectByHash, type AutoSelect } from "~/domain/nol/selection";
import { roundsDelivered } from "~/domain/nol/steps";
import type { Viewer } from "../session.server";
import { causeChoices, requireCause, resolveOwner } from "./access.server";
import { proofNotarizeView } from "../notary/proof-notarize-view.server";
import { roundDocumentBases, versionTimelineView } from "./timeline.server";
import { stepService } from "./service.server";
import { serviceNote } from "~/domain/nol/service";
import {
  entriesOf,
  facts,
  linksOf,
  versionsOf,
  versionState,
  type EntryRow,
  type VersionState,
} from "./entries.server";

/** What the NoL pages of a cause show: each page's data, computed by the rules, ready for its view. */

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
    // The member's own way to the creator; someone else's notices are not theirs to open.
    creatorOffer: other ? null : await creatorOffer(services, viewer),
  };
}

/**
 * The cause of a page of the owner's notices. Without the creator no cause is open to a member:
 * their own pages go to the cause list, which says which plans include it.
 */
export function causeOfOwnPages(
  services: AppServices,
  owner: Parameters<typeof requireCause>[1],
  slug: string,
  address: PageAddress,
  own: boolean,
) {
  return requireCause(services, owner, slug).catch((error: unknown) => {
    const withoutCreator = own && !owner.nolCreator && !owner.nolTester;
    if (withoutCreator && error instanceof DomainError && error.status === 403)
      throw redirect(formBase(address.segment));
    throw error;
  });
}

/** A cause page's owner (`other` when the notices are someone else's), cause and rows. */
export async function causeOf(services: AppServices, viewer: Viewer, address: PageAddress, slug: string) {
  const { owner, other } = await ownerOf(services, viewer, address);
  const cause = await causeOfOwnPages(services, owner, slug, address, !other);
  // A page that may be kept reads them through the server's cache (owned-cache.server.ts).
  const rows = await services.owned.read(`entries:${owner.id}:${cause.code}`, `entries:${owner.id}`, () =>
    entriesOf(services.db, owner.id, cause.code),
  );
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
  input: { cause: string; href?: string; auto?: AutoSelect; remembered: string | null; version?: string },
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
  const versions = await Promise.all(
    versionsOf(rows).map(async (version) => {
      const state = versionState(rows, version);
      const served = await stepService(services.db, state);
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
        // Where the round in hand stands: its letters at the mail house, respondents still to serve.
        serviceNote: served ? serviceNote(served) : null,
        timelineHref: `${causeBase}?${new URLSearchParams({ version, ...(other ? { username: other } : {}) })}`,
        selected: selectedHere !== null,
        roundsDone: delivered > 0 ? roundsDoneLabel(delivered) : null,
        entries: listedEntries(form, state, selectedHere?.id ?? null),
        nextHref: offered ? versionStepHref({ causeBase, other }, version, state.step.kind) : null,
        // Notarizing is for the member's own notices only, and a notice step needs saved answers to make its notice from.
        notarizeHref:
          other === null && stepNotarizes(state.step, state.creator !== null)
            ? `${causeBase}/notarize?${new URLSearchParams({ version })}`
            : null,
        elsewhere: {
          href: stepHref(elsewhere, cause.slug, state.step.kind, version, other),
          name: FORM_NAMES[elsewhere],
        },
      };
    }),
  );
  const chosen = selection.selectedNolId;
  const remember =
    chosen && chosen !== input.remembered
      ? { set: chosen }
      : // A cleared selection stays cleared: "back" has nothing to go back to.
        !chosen && input.remembered && (input.href || input.auto === "never")
        ? { clear: true as const }
        : null;
  const shown = input.version && versions.some((v) => v.version === input.version) ? input.version : null;
  const calendarQuery = new URLSearchParams({ version: shown ?? "", ...(other ? { username: other } : {}) });
  return {
    page: {
      title: cause.name,
      // The version named in the address: its timeline above the list (the version's page).
      timeline: shown
        ? {
            version: shown,
            view: await versionTimelineView(services, {
              windows: cause.windows,
              state: versionState(rows, shown),
              bases: roundDocumentBases(causeBase, shown, other),
            }).then((read) => read.view),
            trackingUrl: services.config.trackingUrl,
            calendarHref: `${causeBase}/calendar.ics?${calendarQuery}`,
            // The member's own proofs of service may be notarized from here.
            proofNotarize:
              other === null
                ? await proofNotarizeView(services, {
                    memberId: viewer.member.id,
                    causeCode: cause.code,
                    version: shown,
                    returnPath: `${causeBase}?${new URLSearchParams({ version: shown })}`,
                    action: `${causeBase}/proof-of-service/notarize`,
                  })
                : null,
          }
        : null,
      base: formBase(address.segment),
      cause,
      versions,
      // The versions with answers a new version may start from.
      reusable: [...new Set(rows.filter((row) => row.form === "NoLCreator2").map((row) => row.descriptiveVersion))],
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

/** The address of a version's step on the page's own form. */
export function versionStepHref(place: { causeBase: string; other: string | null }, version: string, kind: string) {
  return `${place.causeBase}/${kind}?version=${encodeURIComponent(version)}${ownerParam(place.other)}`;
}

/** A version's entries as its form's page lists them, with Edit only where it applies. */
function listedEntries(form: NolForm, state: VersionState, selectedId: string | null) {
  return [state.creator, state.billingProfile, ...state.bills]
    .filter((e): e is EntryRow => e !== null && formListsEntry(form, e.form))
    .map((e) => {
      const label = entryLabel({ form: e.form, tb_value: e.tbValue });
      // "The edit permission exists only if the selected entry has an edit_link": the
      // entry's own (a hosted form's), and never on a read-only entry.
      const links = linksOf(e);
      const editable = selectedId === e.id && canEdit(links) && !label.readOnly;
      return {
        id: e.id,
        ...label,
        label: entryName({ form: e.form, tb_value: e.tbValue, nol_tracking: e.nolTracking }),
        viewLink: seamlessLink(e, e.viewHash),
        editLink: editable ? links.edit_link : null,
      };
    });
}
