import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import { newsletterSubscriptions } from "~/db/schema";
import { mailerFor } from "./mail.server";
import { hitRateLimit } from "./rate-limit.server";
import { tokenHash } from "./tokens.server";

const newToken = () => randomBytes(32).toString("base64url");

/**
 * Double opt-in: a subscription is pending until the confirmation link is used. One row per
 * address whatever happens; every mail carries an unsubscribe link.
 */
export async function subscribeNewsletter(
  services: AppServices,
  email: string,
  ip: string,
): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }> {
  const byIp = await hitRateLimit(services.db, `newsletter:ip:${ip}`, 10, 60);
  if (!byIp.ok) return byIp;
  const byAddress = await hitRateLimit(services.db, `newsletter:email:${email}`, 3, 3_600);
  // Past three mails an hour to one address, answer as usual but send nothing more.
  if (!byAddress.ok) return { ok: true };

  const confirm = newToken();
  const unsubscribe = newToken();
  const [existing] = await services.db
    .select()
    .from(newsletterSubscriptions)
    .where(sql`lower(${newsletterSubscriptions.email}) = ${email}`);
  const alreadyConfirmed = existing?.status === "confirmed";
  if (!existing) {
    await services.db
      .insert(newsletterSubscriptions)
      .values({
        email,
        status: "pending",
        confirmTokenHash: tokenHash(confirm),
        unsubscribeTokenHash: tokenHash(unsubscribe),
      })
      .onConflictDoNothing();
  } else {
    await services.db
      .update(newsletterSubscriptions)
      .set({
        status: alreadyConfirmed ? "confirmed" : "pending",
        confirmTokenHash: alreadyConfirmed ? null : tokenHash(confirm),
        unsubscribeTokenHash: tokenHash(unsubscribe),
      })
      .where(eq(newsletterSubscriptions.id, existing.id));
  }
  const base = `${services.config.baseUrl}/newsletter-subscribe`;
  const unsubscribeLine = `To stop the newsletter: ${base}?unsubscribe=${unsubscribe}`;
  await mailerFor(services).send(
    alreadyConfirmed
      ? {
          to: email,
          template: "newsletter-already",
          subject: "You already receive our newsletter",
          text: `This address already receives our newsletter; there is nothing more to do.\n\n${unsubscribeLine}`,
        }
      : {
          to: email,
          template: "newsletter-confirm",
          subject: "Confirm your newsletter subscription",
          text: `Confirm that you want our newsletter at this address:\n\n${base}?confirm=${confirm}\n\nIf you did not ask for it, ignore this message.\n\n${unsubscribeLine}`,
        },
  );
  return { ok: true };
}

export async function confirmNewsletter(services: AppServices, token: string): Promise<boolean> {
  const rows = await services.db
    .update(newsletterSubscriptions)
    .set({ status: "confirmed", confirmedAt: new Date(), confirmTokenHash: null })
    .where(
      and(
        eq(newsletterSubscriptions.confirmTokenHash, tokenHash(token)),
        eq(newsletterSubscriptions.status, "pending"),
      ),
    )
    .returning({ id: newsletterSubscriptions.id });
  return rows.length > 0;
}

export async function unsubscribeNewsletter(services: AppServices, token: string): Promise<boolean> {
  const rows = await services.db
    .update(newsletterSubscriptions)
    .set({ status: "unsubscribed", unsubscribedAt: new Date(), confirmTokenHash: null })
    .where(eq(newsletterSubscriptions.unsubscribeTokenHash, tokenHash(token)))
    .returning({ id: newsletterSubscriptions.id });
  return rows.length > 0;
}
