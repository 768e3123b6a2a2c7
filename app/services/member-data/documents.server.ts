import { and, asc, eq, inArray, isNotNull } from "drizzle-orm";
import type { AppServices } from "~/context";
import { causes, claims, mailings, notarizations, notices } from "~/db/schema";
import { documentFilename } from "~/domain/documents/document-data";
import { noticesOf } from "../documents/notices.server";
import { returnReceiptOf } from "../mailings/receipts.server";
import { proofOfServiceOf } from "../documents/proof-of-service.server";
import { renderNoticePdf } from "../documents/render.server";
import { entriesOf, versionsOf, versionState } from "../nol/entries.server";
import { roundRecordsOf } from "../nol/timeline.server";
import { notarizedDocumentOf } from "../notary/notarize.server";
import type { UserRow } from "../session.server";

/**
 * The PDFs of a member's data archive, made by the same services as their pages': each
 * recorded notice and true bill, each mailed round's proof of service, and each notarized
 * document the notary holds. Each is made when the archive writes it.
 */

export type ArchiveDocument = { name: string; about: string; content: () => Promise<Uint8Array> };

type Owner = Pick<UserRow, "id" | "name" | "username" | "countryCode">;

async function noticeDocuments(services: AppServices, owner: Owner): Promise<ArchiveDocument[]> {
  const codes = await services.db
    .selectDistinct({ code: claims.causeCode })
    .from(claims)
    .where(eq(claims.claimantId, owner.id))
    .orderBy(asc(claims.causeCode));
  const records = (await Promise.all(codes.map(({ code }) => noticesOf(services.db, owner, code)))).flat();
  return records.map((record) => ({
    name: `documents/notices/${documentFilename({ cause: { code: record.claim.causeCode }, version: record.claim.nolVersion, round: record.notice.roundCnt })}`,
    about: "a notice (rounds 1 to 3) or true bill of yours, as its page shows it",
    content: async () => (await renderNoticePdf(services, record)).bytes,
  }));
}

async function proofsOfService(services: AppServices, owner: Owner): Promise<ArchiveDocument[]> {
  const rows = await entriesOf(services.db, owner.id);
  const codes = [...new Set(rows.map((r) => r.causeCode))];
  if (codes.length === 0) return [];
  const names = await services.db
    .select({ code: causes.code, name: causes.name })
    .from(causes)
    .where(inArray(causes.code, codes));
  return codes.flatMap((code) => {
    const mine = rows.filter((r) => r.causeCode === code);
    const cause = { code, name: names.find((c) => c.code === code)?.name ?? code };
    return versionsOf(mine).flatMap((version) =>
      roundRecordsOf(versionState(mine, version))
        .filter((record) => record.mailedOn)
        .map(({ round }) => ({
          name: `documents/proofs-of-service/${documentFilename({ cause, version, round }, "proof-of-service")}`,
          about: "the proof of service of a mailed round: to whom, where, when, with which tracking number",
          content: async () =>
            (await proofOfServiceOf(services, { owner, cause, rows: mine }, { version, round })).bytes,
        })),
    );
  });
}

async function notarizedDocuments(services: AppServices, owner: Owner): Promise<ArchiveDocument[]> {
  const rows = await services.db
    .select({
      notarization: notarizations,
      cause: claims.causeCode,
      version: claims.nolVersion,
      round: notices.roundCnt,
    })
    .from(notarizations)
    .innerJoin(notices, eq(notices.id, notarizations.noticeId))
    .innerJoin(claims, eq(claims.id, notices.claimId))
    .where(
      and(
        eq(claims.claimantId, owner.id),
        eq(notarizations.provider, services.providers.notary.name),
        eq(notarizations.nzStatus, "completed"),
      ),
    )
    .orderBy(asc(notarizations.createdAt));
  return rows.map(({ notarization, cause, version, round }) => ({
    name: `documents/notarized/notarized-${documentFilename({ cause: { code: cause }, version, round }, notarization.document)}`,
    about: "a document notarized online, as the notary keeps it",
    content: async () => (await notarizedDocumentOf(services, notarization)).bytes,
  }));
}

async function returnReceipts(services: AppServices, owner: Owner): Promise<ArchiveDocument[]> {
  const rows = await services.db
    .select({ id: mailings.id })
    .from(mailings)
    .where(and(eq(mailings.userId, owner.id), isNotNull(mailings.returnReceiptAt)))
    .orderBy(asc(mailings.createdAt));
  return rows.map(({ id }, i) => ({
    name: `documents/return-receipts/${String(i + 1).padStart(3, "0")}-return-receipt.pdf`,
    about: "the electronic return receipt of a letter mailed for you from the app",
    content: async () => (await returnReceiptOf(services, owner, id)).pdf,
  }));
}

export async function memberDocuments(services: AppServices, owner: Owner): Promise<ArchiveDocument[]> {
  return [
    ...(await noticeDocuments(services, owner)),
    ...(await proofsOfService(services, owner)),
    ...(await notarizedDocuments(services, owner)),
    ...(await returnReceipts(services, owner)),
  ];
}
