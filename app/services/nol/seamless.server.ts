import { and, eq, or } from "drizzle-orm";
import { z } from "zod";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { nolEntries, users } from "~/db/schema";
import { causeSlug } from "~/domain/causes";
import { isDomainError, notFound } from "~/domain/errors";
import { isFormHash } from "~/domain/forms";
import { ownerQuery } from "~/domain/nol/addresses";
import { FORM_BY_ID } from "~/domain/nol/entries";
import { deliveredWords, entryLabel, entryName } from "~/domain/nol/labels";
import { roundName } from "~/domain/nol/timeline";
import { dayWords } from "~/domain/words";
import { addressLines } from "~/domain/documents/letters";
import { addressLine } from "~/domain/nol/billing";
import { NOTICE_ROUNDS } from "~/domain/nol/rounds";
import { statusWords, type RoundService } from "~/domain/nol/service";
import { formatDate } from "~/lib/format";
import { versionService } from "./service.server";
import { formatMoney } from "~/lib/format";
import { getCauseCatalogue } from "../causes.server";
import type { Viewer } from "../session.server";
import { resolveOwner } from "./access.server";
import { entriesOf, respondentsOf, versionState, type EntryRow } from "./entries.server";
import { hostedEmbed } from "./hosted.server";

const entryQuerySchema = z.record(z.unknown());

/** The `entry` query: URL-encoded JSON of an object; anything else fails the page's validation (spec §8: 404). */
export function entryQuery(entryParam: string | null): Record<string, unknown> {
  if (!entryParam) throw notFound();
  try {
    const parsed = entryQuerySchema.safeParse(JSON.parse(entryParam));
    if (parsed.success) return parsed.data;
  } catch {
    // not JSON: the same 404 below
  }
  throw notFound();
}

/**
 * /nol/seemless/{form_id}/{form_hash}?entry=…: the entry a hash names by its view or edit
 * link, when the viewer may see its owner's notices. The entry (URL-encoded JSON) must be
 * given; a missing, unknown or someone else's entry is the same not-found.
 */
export async function seamlessEntry(
  db: Database,
  viewer: Viewer,
  formIdParam: string | undefined,
  hash: string,
  entryParam: string | null,
) {
  const prefill = entryQuery(entryParam);
  // The form id may be left out (spec §2.2): the hash alone then finds the entry.
  const formId = formIdParam === undefined ? null : Number(formIdParam);
  if (formId !== null && !FORM_BY_ID[formId]) throw notFound();
  // spec §9: a form hash is longer than 30 characters and ends in "*".
  if (hash.length > 200 || !isFormHash(hash)) throw notFound();
  const byHash = or(eq(nolEntries.viewHash, hash), eq(nolEntries.editHash, hash));
  const [row] = await db
    .select({ entry: nolEntries, owner: users.username })
    .from(nolEntries)
    .innerJoin(users, eq(users.id, nolEntries.userId))
    .where(formId === null ? byHash : and(eq(nolEntries.formId, formId), byHash))
    .limit(1);
  if (!row) throw notFound();
  const ownerRow = await resolveOwner(db, viewer, row.owner).catch((error: unknown) => {
    // Someone else's entry is as good as missing.
    throw isDomainError(error) ? notFound() : error;
  });
  return { row: row.entry, owner: row.owner, ownerRow, editable: row.entry.editHash === hash, prefill };
}

const money = (cents: number | null) => (cents === null ? null : formatMoney(cents, "USD"));

/** When a round went into the mail, or that its letters wait at the mail house. */
function mailedWords(served: RoundService): string {
  if (served.mailedOn) return dayWords(served.mailedOn);
  return served.state === "sending" ? "At the mail house, to be mailed" : dayWords(null);
}

/** The seamless page: the entry in its hosted form's embed, or its rounds and bill read here. */
export async function seamlessPage(
  services: AppServices,
  viewer: Viewer,
  params: { formId?: string; formHash: string; entry: string | null },
) {
  const { row, owner, ownerRow, prefill } = await seamlessEntry(
    services.db,
    viewer,
    params.formId,
    params.formHash,
    params.entry,
  );
  // With Cognito Forms the entry opens in its seamless embed, prefilled with the entry JSON.
  const embed = hostedEmbed(services, ownerRow, row.formId, {
    ...prefill,
    Cause: row.causeCode,
    DescriptiveVersion: row.descriptiveVersion,
  });
  const cause = (await getCauseCatalogue(services)).causes[row.causeCode];
  const label = entryLabel({ form: row.form, tb_value: row.tbValue });
  const versionRows = await entriesOf(services.db, row.userId, row.causeCode);
  const priorRows = embed ? versionRows.length : 0;
  // The rounds as the one reading of their service states them: each respondent's envelope.
  const read =
    row.form === "NoLCreator2" || row.form === "NoLBilling"
      ? await versionService(services.db, versionState(versionRows, row.descriptiveVersion))
      : new Map<number, RoundService>();
  const billRound = row.form === "NoLBilling" && row.tbValue ? read.get(NOTICE_ROUNDS + row.tbValue) : undefined;
  return {
    kind: "nol" as const,
    embed,
    pending: {
      username: owner,
      cause: row.causeCode,
      descriptive_version: row.descriptiveVersion,
      prior_rows: priorRows,
      entry_id: row.id,
      prior_updated: row.updatedAt.toISOString(),
    },
    testMode: !services.config.isProduction,
    label: entryName({ form: row.form, tb_value: row.tbValue, nol_tracking: row.nolTracking }),
    status: label.status,
    readOnly: label.readOnly,
    owner,
    version: row.descriptiveVersion,
    causeName: cause?.name ?? row.causeCode,
    causeHref: `/nol/creator/${cause ? causeSlug(cause.name) : row.causeCode}${ownerQuery(owner === viewer.member.username ? null : owner)}`,
    rounds: row.nolTracking.map((tracked, i) => {
      const served = read.get(i + 1);
      return {
        round: i + 1,
        label: roundName(i + 1),
        tracked,
        mailed: served ? mailedWords(served) : dayWords(row.nolMailingDate[i]),
        delivered: served ? deliveredWords(served.complete) : deliveredWords(row.nolProofOfDelivery[i] ?? false),
        respondents: served ? served.respondents.map((r) => `${r.slot}. ${r.name}: ${statusWords(r, formatDate)}`) : [],
      };
    }),
    answers: embed ? null : await answersOf(services.db, row, versionRows, ownerRow.name ?? owner),
    bill:
      row.form === "NoLBilling"
        ? {
            preparationDate: dayWords(row.preparationDate),
            administrativeJudgment: money(row.administrativeJudgment),
            escalationFee: money(row.escalationFee),
            total: money(row.trueBillTotal),
            mailed: billRound ? mailedWords(billRound) : dayWords(row.billMailingDate),
            delivered: deliveredWords(billRound ? billRound.complete : (row.billProofOfDelivery ?? false)),
            respondents: billRound
              ? billRound.respondents.map((r) => `${r.slot}. ${r.name}: ${statusWords(r, formatDate)}`)
              : [],
          }
        : null,
  };
}

/**
 * What the member answered on a notice or true bill, to read: the claimant, the daily amount
 * and the respondents (the version's, named on its notices; a bill's, those it bills).
 */
async function answersOf(db: Database, row: EntryRow, rows: EntryRow[], ownerName: string) {
  if (row.form !== "NoLCreator2" && row.form !== "NoLBilling") return null;
  const creator = row.form === "NoLCreator2" ? row : versionState(rows, row.descriptiveVersion).creator;
  const given = (creator?.data as { claimantName?: unknown } | undefined)?.claimantName;
  const daily = creator?.profile?.DailyAmount;
  const billed = row.form === "NoLBilling" ? (row.data as { billedSlots?: unknown }).billedSlots : null;
  const named = creator ? await respondentsOf(db, [creator.id]) : [];
  const address = (creator?.data as { claimantAddress?: unknown } | undefined)?.claimantAddress;
  return {
    claimant: typeof given === "string" && given ? given : ownerName,
    claimantAddress: typeof address === "string" && address.trim() ? addressLines(address).join(", ") : null,
    dailyAmount: typeof daily === "number" ? formatMoney(Math.round(daily * 100), "USD") : null,
    respondents: named
      .filter((r) => !Array.isArray(billed) || billed.includes(r.slot))
      .map((r) => ({ slot: r.slot, name: r.name, type: r.type, address: addressLine(r.address) })),
  };
}
