import type { AppServices } from "~/context";
import { COMPANY_TAG, ENTRY_TYPE } from "~/domain/forms";
import { FORM_ID, type NolForm } from "~/domain/nol/entries";
import { seamlessEmbed, type SeamlessEmbed } from "~/lib/seamless-embed";
import type { PendingBody } from "~/lib/submitted-entry";
import type { UserRow } from "../session.server";
import { authEntry } from "./access.server";
import type { VersionState } from "./entries.server";

/** Steps and entries filled in the hosted forms (FORMS=cognito) instead of our own pages. */

/** The hosted form of a form id, prefilled with the member's fields; null with the built-in forms. */
export function hostedEmbed(
  services: AppServices,
  owner: UserRow,
  formId: number,
  prefill: Record<string, unknown>,
): SeamlessEmbed | null {
  const { config } = services;
  if (config.forms !== "cognito" || !config.cognitoEmbedKey) return null;
  return seamlessEmbed({ apiUrl: config.cognitoApiUrl, embedKey: config.cognitoEmbedKey }, formId, {
    ...prefill,
    Username: owner.username,
    EntryType: ENTRY_TYPE,
    Company: COMPANY_TAG,
    Hash: authEntry(services, owner).hash,
  });
}

export type HostedStep =
  { kind: "edit"; editLink: string | null } | { kind: "embed"; embed: SeamlessEmbed; pending: PendingBody };

/**
 * With Cognito Forms a step is filled in the hosted form of its form id. A step that makes an
 * entry (Round 1, Setup Billing, a new true bill) opens the form in its seamless embed,
 * prefilled like the seamless page; a step that records progress on an existing entry opens
 * that entry through its own edit link, so the hosted entry is updated rather than a second
 * one made.
 */
export function hostedStep(
  services: AppServices,
  owner: UserRow,
  causeCode: string,
  state: VersionState,
  priorRows: number,
): HostedStep | null {
  const { step } = state;
  const billing = step.kind.startsWith("true-bill");
  const creates =
    (step.kind === "notice" && !state.creator) || step.kind === "setup-billing" || step.kind === "true-bill";
  const form: NolForm = step.kind === "setup-billing" ? "NoLProfileBilling" : billing ? "NoLBilling" : "NoLCreator2";
  const embed = hostedEmbed(services, owner, FORM_ID[form], {
    Cause: causeCode,
    DescriptiveVersion: state.version,
    Round: step.round ?? null,
    ...(step.kind === "true-bill" ? { TbValue: (step.round ?? 4) - 3 } : {}),
  });
  if (!embed) return null;
  if (!creates) {
    const existing = billing ? (state.bills.at(-1) ?? null) : state.creator;
    return { kind: "edit", editLink: existing?.editLink ?? null };
  }
  return {
    kind: "embed",
    embed,
    pending: {
      username: owner.username,
      cause: causeCode,
      descriptive_version: state.version,
      prior_rows: priorRows,
      entry_id: null,
      prior_updated: null,
    },
  };
}
