import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { AppServices } from "~/context";
import { REMOVED_MESSAGE, UPDATED_MESSAGE } from "~/domain/documents/notarize-flow";
import { noticeIdsQuerySchema, previewHref, type NoticeIds } from "~/domain/documents/notice-ids";
import { isDomainError } from "~/domain/errors";
import { formBase } from "~/domain/nol/addresses";
import { formatMoney } from "~/lib/format";
import { creditBalance } from "../billing/credits.server";
import { oneOffOffer } from "../billing/subscription-page.server";
import { noticeJson, type NoticeRecord } from "../documents/notices.server";
import { documentDisclaimer } from "../documents/templates.server";
import { causeOfOwnPages, type PageAddress } from "../nol/pages.server";
import { entriesOf, versionsOf } from "../nol/entries.server";
import { labelOfStoredRound } from "../round-labels.server";
import type { Viewer } from "../session.server";
import {
  deleteNotarization,
  notarize,
  nzIdParam,
  isOpen,
  refreshNotarization,
  updateNotarization,
  versionOffer,
} from "./notarize.server";

/**
 * /nol/{form}/{cause}/notarize: the member's own notices of a cause, by version, with the
 * current NoL's preview and its notarize (spec §4 "Notarize flow"). The page's forms post here
 * without JavaScript; with it, the page calls the /api/nol/* calls itself.
 */

export async function notarizePage(
  services: AppServices,
  viewer: Viewer,
  address: PageAddress,
  slug: string,
  chosenVersion: string | undefined,
) {
  const { db, config, providers, logger } = services;
  const cause = await causeOfOwnPages(services, viewer.member, slug, address, true);
  const causeBase = `${formBase(address.segment)}/${cause.slug}`;
  const pagePath = `${causeBase}/notarize`;
  const names = versionsOf(await entriesOf(db, viewer.member.id, cause.code));
  const offers = await Promise.all(
    names.map(async (version) => ({ version, ...(await versionOffer(db, viewer.member, cause.code, version)) })),
  );
  const chosen =
    offers.find((o) => o.version === chosenVersion) ?? offers.find((o) => o.offer.round !== null) ?? offers[0] ?? null;
  const versionHref = (version: string) => `${pagePath}?${new URLSearchParams({ version })}`;
  const current: NoticeIds | null = chosen?.current ?? null;
  let records: NoticeRecord[] = [];
  if (chosen) {
    records = chosen.records;
    const open = records.find((r) => r.notice.roundCnt === chosen.offer.round)?.notarization;
    if (open?.nzId && open.provider === providers.notary.name && isOpen(open.nzStatus)) {
      // Back from the signing page: the status as the notary has it now, not as the last event left it.
      try {
        await refreshNotarization(services, viewer, open.nzId);
        records = (await versionOffer(db, viewer.member, cause.code, chosen.version)).records;
      } catch (error) {
        logger.warn({ err: error, nzId: open.nzId }, "the notarize status could not be refreshed");
      }
    }
  }
  const returnPath = chosen ? versionHref(chosen.version) : pagePath;
  return {
    credits: await notarizeCredits(services, viewer, returnPath),
    cause: { name: cause.name, code: cause.code },
    causeHref: causeBase,
    pagePath,
    returnPath,
    disclaimer: await documentDisclaimer(db),
    cost: formatMoney(config.notarizeCostCents),
    versions: offers.map((o) => {
      const notarized =
        o.offer.round !== null &&
        o.records.find((r) => r.notice.roundCnt === o.offer.round)?.notarization?.nzStatus === "completed";
      return {
        version: o.version,
        href: versionHref(o.version),
        step: o.state.step.label,
        chosen: o === chosen,
        // Its notice can be notarized now, or it was notarized already.
        ready: o.offer.round !== null && !notarized,
        notarized,
      };
    }),
    chosen: chosen
      ? {
          version: chosen.version,
          step: chosen.state.step.label,
          reason: chosen.offer.reason,
          current,
          // At a notice step: the notice being written, as the saved answers make it.
          written: chosen.offer.reason === null && chosen.offer.written,
          currentLabel: current ? labelOfStoredRound(logger, current.round_cnt, "the notarize page") : null,
          preview: current ? { href: previewHref(current), download: previewHref(current, { download: true }) } : null,
          notices: records.map(noticeJson),
        }
      : null,
  };
}

/** Where notarizing costs money: the member's credits, and a credit to buy that comes back here. */
async function notarizeCredits(services: AppServices, viewer: Viewer, returnPath: string) {
  if (!services.config.notarizeNeedsCredit) return null;
  return {
    balance: await creditBalance(services.db, viewer.member.id),
    offer: await oneOffOffer(services, randomUUID(), returnPath),
  };
}

const nzIdField = z.object({ nz_id: z.string().max(200) });

/** The page's forms: one per action, named by `intent`. */
const formSchema = z.discriminatedUnion("intent", [
  noticeIdsQuerySchema.omit({ download: true }).extend({
    intent: z.literal("create"),
    draft: z
      .literal("on")
      .optional()
      .transform((v) => v === "on"),
  }),
  nzIdField.extend({ intent: z.literal("refresh") }),
  nzIdField.extend({ intent: z.literal("update") }),
  nzIdField.extend({ intent: z.literal("delete") }),
]);

export type NotarizeOutcome = {
  intent: string | null;
  error: string | null;
  warn: string | null;
  success: string | null;
};

const outcome = (intent: string | null, parts: Partial<NotarizeOutcome>): NotarizeOutcome => ({
  intent,
  error: null,
  warn: null,
  success: null,
  ...parts,
});

/** One of the page's forms, posted without JavaScript: the same services the API calls use. */
export async function notarizePageAction(
  services: AppServices,
  viewer: Viewer,
  form: FormData | null,
): Promise<{ status: number; outcome: NotarizeOutcome }> {
  const parsed = formSchema.safeParse(form ? Object.fromEntries(form) : {});
  if (!parsed.success) {
    return {
      status: 400,
      outcome: outcome(null, { error: "That action could not be read; reload the page and try again." }),
    };
  }
  const input = parsed.data;
  try {
    switch (input.intent) {
      case "create": {
        const { intent, draft, ...ids } = input;
        const result = await notarize(services, viewer, { ...ids, draft });
        if ("error" in result) return { status: 500, outcome: outcome(intent, { error: result.error }) };
        const success = draft
          ? "Prepared as a draft. Use Update to send it to the signer."
          : "Sent to the notary. Open the signing page to meet the notary and sign.";
        return { status: 200, outcome: outcome(intent, { success }) };
      }
      case "refresh": {
        const result = await refreshNotarization(services, viewer, nzIdParam(input.nz_id));
        return { status: 200, outcome: outcome(input.intent, result.deleted ? { warn: REMOVED_MESSAGE } : {}) };
      }
      case "update": {
        const result = await updateNotarization(services, viewer, nzIdParam(input.nz_id), { send: true });
        const shown = result.deleted ? { warn: REMOVED_MESSAGE } : { success: UPDATED_MESSAGE };
        return { status: 200, outcome: outcome(input.intent, shown) };
      }
      case "delete":
        await deleteNotarization(services, viewer, nzIdParam(input.nz_id));
        return { status: 200, outcome: outcome(input.intent, { success: "The notarization was deleted." }) };
    }
  } catch (error) {
    if (isDomainError(error)) return { status: error.status, outcome: outcome(input.intent, { error: error.message }) };
    throw error;
  }
}
