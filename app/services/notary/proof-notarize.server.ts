import { and, eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { claims, notarizations, notices } from "~/db/schema";
import { canStartNotarize } from "~/domain/documents/notarize-view";
import { forbidden, invalid, notFound } from "~/domain/errors";
import { proofOfService } from "../documents/proof-of-service.server";
import { causeOf, type PageAddress } from "../nol/pages.server";
import type { Viewer } from "../session.server";
import { NOTARIZE_FAILED_MESSAGE, openTransaction, sendToNotary } from "./notarize.server";
import { allowsNotarizing } from "./proof-notarize-view.server";
import { versionClaim } from "../version-keys.server";

/**
 * A mailed round's proof of service notarized online (decision 036): the same notary, credits
 * and events as a notice's, on a notarizations row of the round's notice marked
 * `proof-of-service`. Offered to the member on their own version's timeline where the
 * version's features allow notarizing online.
 */

type Round = { cause: string; version: string; round: number };

export const NOT_ALLOWED_MESSAGE = "Notarizing online is not enabled for this version.";

/** The round's notice row with its proof's notarization: the row the notarization belongs to. */
async function roundNotice(db: Database, memberId: string, causeCode: string, { version, round }: Round) {
  const [row] = await db
    .select({ noticeId: notices.id, notarization: notarizations })
    .from(notices)
    .innerJoin(claims, eq(claims.id, notices.claimId))
    .leftJoin(
      notarizations,
      and(eq(notarizations.noticeId, notices.id), eq(notarizations.document, "proof-of-service")),
    )
    .where(and(versionClaim(memberId, causeCode, version), eq(notices.roundCnt, round)));
  return row ?? null;
}

/** Sends the round's proof of service to the notary; an open transaction of it is the one (a second tab, a double submit). */
export async function notarizeProofOfService(
  services: AppServices,
  viewer: Viewer,
  address: PageAddress,
  input: Round,
): Promise<{ error: string | null }> {
  const { db, config, providers, logger } = services;
  const place = await causeOf(services, viewer, address, input.cause);
  if (place.other) throw forbidden("Only the member notarizes their own proof of service");
  if (!(await allowsNotarizing(db, viewer.member.id, place.cause.code, input.version)))
    throw invalid(NOT_ALLOWED_MESSAGE);
  // The round must be mailed: its document is made (and refused) as the download makes it.
  const document = await proofOfService(services, viewer, address, input);
  const found = await roundNotice(db, viewer.member.id, place.cause.code, input);
  if (!found) throw notFound("This round has no notice on record");
  const existing = found.notarization;
  const notary = providers.notary;
  if (await openTransaction(services, existing)) return { error: null };
  if (existing && existing.provider === notary.name && !canStartNotarize({ nz_status: existing.nzStatus }))
    throw invalid("This proof of service is notarized already");
  const made = await sendToNotary(services, viewer, found.noticeId, document, {
    document: "proof-of-service",
    draft: false,
    idempotencyKey: `proof-of-service-${found.noticeId}-after-${existing?.nzId ?? "none"}`,
    metadata: { notice_id: String(found.noticeId), member_id: viewer.member.id, document: "proof-of-service" },
  });
  if (!made) {
    logger.error(
      { noticeId: found.noticeId, provider: notary.name },
      "the notary made no proof-of-service transaction",
    );
    return { error: `${NOTARIZE_FAILED_MESSAGE} Contact: ${config.supportEmail}` };
  }
  logger.info({ noticeId: found.noticeId, nzId: made.id }, "proof of service sent to the notary");
  return { error: null };
}
