import { and, eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { claims, notarizations, notices } from "~/db/schema";
import {
  canDeleteNotarize,
  canStartNotarize,
  notarizeStatusLabel,
  notarizedHref,
  signingHref,
} from "~/domain/documents/notarize-view";
import { featuresOf } from "../nol/features.server";
import { atProvider, isOpen, recordTransaction } from "./notarize.server";
import { versionClaim } from "../version-keys.server";

/** What a version's timeline shows of its proofs of service at the notary (decision 036). */

type NotarizationRow = typeof notarizations.$inferSelect;

/** The member's proof-of-service notarizations of a version, by round. */
export async function proofNotarizations(
  db: Database,
  memberId: string,
  causeCode: string,
  version: string,
): Promise<Map<number, NotarizationRow>> {
  const rows = await db
    .select({ round: notices.roundCnt, notarization: notarizations })
    .from(notarizations)
    .innerJoin(notices, eq(notices.id, notarizations.noticeId))
    .innerJoin(claims, eq(claims.id, notices.claimId))
    .where(and(eq(notarizations.document, "proof-of-service"), versionClaim(memberId, causeCode, version)));
  return new Map(rows.map((row) => [row.round, row.notarization]));
}

/** Whether the member's version may notarize online (its nolFeatures). */
export async function allowsNotarizing(db: Database, memberId: string, causeCode: string, version: string) {
  return (await featuresOf(db, memberId, causeCode))(causeCode, version).AllowNotarizeOnline;
}

/**
 * Back from the signing page: an open transaction's status as the notary has it now, not as
 * the last event left it. True when one was read.
 */
async function refreshOpen(services: AppServices, rows: Iterable<NotarizationRow>): Promise<boolean> {
  const { db, providers, logger } = services;
  let read = false;
  for (const row of rows) {
    if (!row.nzId || row.provider !== providers.notary.name || !isOpen(row.nzStatus)) continue;
    const nzId = row.nzId;
    try {
      await recordTransaction(db, row, await atProvider(() => providers.notary.getTransaction(nzId)));
      read = true;
    } catch (error) {
      logger.warn({ err: error, nzId }, "the notarize status could not be refreshed");
    }
  }
  return read;
}

/**
 * What the member's own timeline offers of each mailed round's proof of service: notarizing it
 * (where the version allows it), its status and links once sent. Null where nothing is offered.
 */
export async function proofNotarizeView(
  services: AppServices,
  input: { memberId: string; causeCode: string; version: string; returnPath: string; action: string },
) {
  const { db, providers } = services;
  if (!(await allowsNotarizing(db, input.memberId, input.causeCode, input.version))) return null;
  let rows = await proofNotarizations(db, input.memberId, input.causeCode, input.version);
  if (await refreshOpen(services, rows.values()))
    rows = await proofNotarizations(db, input.memberId, input.causeCode, input.version);
  const rounds: Record<number, ProofNotarizeRound> = {};
  for (const [round, row] of rows) {
    const json = { nz_id: row.nzId, nz_status: row.nzStatus, access_url: row.accessUrl };
    const current = row.provider === providers.notary.name;
    rounds[round] = {
      status: notarizeStatusLabel(json),
      nzId: current ? row.nzId : null,
      signingHref: current ? signingHref(json, input.returnPath) : null,
      notarizedHref: current ? notarizedHref(json) : null,
      canStart: !current || canStartNotarize(json),
      canDelete: current && row.nzId !== null && row.nzStatus !== null && canDeleteNotarize(json),
    };
  }
  return { action: input.action, version: input.version, rounds };
}

export type ProofNotarizeRound = {
  status: string;
  nzId: string | null;
  signingHref: string | null;
  notarizedHref: string | null;
  canStart: boolean;
  canDelete: boolean;
};
export type ProofNotarizeView = NonNullable<Awaited<ReturnType<typeof proofNotarizeView>>>;
