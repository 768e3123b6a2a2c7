import { and, eq, isNull } from "drizzle-orm";
import type { AppServices } from "~/context";
import { mailings } from "~/db/schema";
import { notFound } from "~/domain/errors";
import type { UserRow } from "../viewer.server";

/**
 * The electronic return receipts of letters mailed from the app: asked of the mail house once
 * a letter is delivered, kept with the letter as a document of its round, and downloaded from
 * the timeline, the proof of service's list and the member's notices.
 */

/** Keeps the delivered letter's receipt when the mail house gives one and none is kept yet. */
export async function keepReturnReceipt(services: AppServices, mailingId: string): Promise<boolean> {
  const [row] = await services.db
    .select({
      letterId: mailings.letterId,
      state: mailings.state,
      provider: mailings.provider,
      at: mailings.returnReceiptAt,
    })
    .from(mailings)
    .where(eq(mailings.id, mailingId));
  if (!row?.letterId || row.state !== "delivered" || row.at || row.provider !== services.providers.mailhouse.name)
    return false;
  let pdf: Uint8Array | null;
  try {
    pdf = await services.providers.mailhouse.returnReceipt(row.letterId);
  } catch (error) {
    services.logger.warn({ err: error, mailing: mailingId }, "the return receipt could not be read");
    return false;
  }
  if (!pdf) return false;
  const [kept] = await services.db
    .update(mailings)
    .set({ returnReceiptPdf: Buffer.from(pdf).toString("base64"), returnReceiptAt: new Date() })
    .where(and(eq(mailings.id, mailingId), isNull(mailings.returnReceiptAt)))
    .returning({ id: mailings.id });
  return Boolean(kept);
}

/** A member's letter's return receipt: its PDF and a file name. */
export async function returnReceiptOf(
  services: AppServices,
  member: Pick<UserRow, "id">,
  mailingId: string,
): Promise<{ pdf: Uint8Array; filename: string }> {
  if (!/^[0-9a-f-]{36}$/i.test(mailingId)) throw notFound("No such return receipt");
  const [row] = await services.db
    .select({ pdf: mailings.returnReceiptPdf, tracking: mailings.trackingNumber })
    .from(mailings)
    .where(and(eq(mailings.id, mailingId), eq(mailings.userId, member.id)));
  if (!row?.pdf) throw notFound("No such return receipt");
  return {
    pdf: new Uint8Array(Buffer.from(row.pdf, "base64")),
    filename: `return-receipt-${row.tracking ?? mailingId}.pdf`,
  };
}
