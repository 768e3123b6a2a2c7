import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import { newsletterSubscriptions } from "~/db/schema";
import { enforceRateLimit, hitRateLimit } from "./rate-limit.server";
import { hmacHex } from "./state-header.server";
import { tokenHash } from "./tokens.server";

const newToken = () => randomBytes(32).toString("base64url");

/**
 * The unsubscribe token of an address: the same in every mail it gets, so a later
 * subscribe request never breaks the links already sent.
 */
function unsubscribeToken(secret: string, email: string): string {
  return Buffer.from(hmacHex(secret, `newsletter-unsubscribe:${email.toLowerCase()}`), "hex").toString("base64url");
}

/**
 * Double opt-in: a subscription is pending until the confirmation link is used. One row per
 * address whatever happens; every mail carries an unsubscribe link.
 */
export async function subscribeNewsletter(services: AppServices, email: string, ip: string): Promise<void> {
  await enforceRateLimit(
    services.db,
    `newsletter:ip:${ip}`,
    10,
    60,
    "Too many requests from your network. Wait a minute and try again.",
  );
  const byAddress = await hitRateLimit(services.db, `newsletter:email:${email}`, 3, 3_600);
  // Past three mails an hour to one address, answer as usual but send nothing more.
  if (!byAddress.ok) return;

  const confirm = newToken();
  const unsubscribe = unsubscribeToken(services.config.sessionSecret, email);
  const find = async () =>
    (
      await services.db
        .select()
        .from(newsletterSubscriptions)
        .where(sql`lower(${newsletterSubscriptions.email}) = ${email.toLowerCase()}`)
    )[0];
  const fresh = {
    status: "pending" as const,
    confirmTokenHash: tokenHash(confirm),
    unsubscribeTokenHash: tokenHash(unsubscribe),
  };
  // Two first requests at once: the unique index keeps one row, and the loser updates it.
  let existing = await find();
  if (!existing) {
    const inserted = await services.db
      .insert(newsletterSubscriptions)
      .values({ email, ...fresh })
      .onConflictDoNothing()
      .returning({ id: newsletterSubscriptions.id });
    if (inserted.length === 0) existing = await find();
  }
  const alreadyConfirmed = existing?.status === "confirmed";
  if (existing) {
    // A confirmed address keeps its status; its stored unsubscribe token is brought to the
    // one its mails carry (the same every time, so earlier links keep working).
    await services.db
      .update(newsletterSubscriptions)
      .set(alreadyConfirmed ? { unsubscribeTokenHash: fresh.unsubscribeTokenHash } : fresh)
      .where(eq(newsletterSubscriptions.id, existing.id));
  }
  const base = `${services.config.baseUrl}/newsletter-subscribe`;
  const unsubscribeLine = `To stop the newsletter: ${base}?unsubscribe=${unsubscribe}`;
  await services.providers.mail.send(
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
