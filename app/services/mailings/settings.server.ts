import { inArray } from "drizzle-orm";
import { z } from "zod";
import type { AppServices } from "~/context";
import { settings } from "~/db/schema";
import { postalAddressSchema, type PostalAddress } from "~/domain/mailing/address";
import { mailingPricesSchema, type MailingPrices } from "~/domain/mailing/quote";
import { audit, actorOf } from "../audit.server";
import type { Viewer } from "../session.server";

/**
 * The community's mailing settings (/admin/settings): what a member pays per envelope, the
 * return address letters carry when the community gives one (the member's name with it; else
 * each member's own address, as they confirm it), and after how many days without news a letter
 * is flagged to admins as lost. Kept in `settings` under `mailing`.
 */

/** What an envelope costs the member until an admin sets it: about a certified letter's postage and printing. */
export const DEFAULT_PER_ENVELOPE_CENTS = 950;
/** Days without an event before a letter on its way is flagged as lost. */
export const DEFAULT_LOST_AFTER_DAYS = 10;

const returnAddressSchema = postalAddressSchema.innerType().omit({ name: true });
export type ReturnAddress = Omit<PostalAddress, "name">;

export const mailingSettingsSchema = z.object({
  prices: mailingPricesSchema,
  /** The community's return address; null: each member's own. */
  returnAddress: returnAddressSchema.nullable(),
  lostAfterDays: z.number().int().min(2).max(60),
});
export type MailingSettings = z.output<typeof mailingSettingsSchema>;

const KEY = "mailing";

export const DEFAULT_MAILING_SETTINGS: MailingSettings = {
  prices: { perEnvelopeCents: DEFAULT_PER_ENVELOPE_CENTS, currency: "usd" },
  returnAddress: null,
  lostAfterDays: DEFAULT_LOST_AFTER_DAYS,
};

/** The settings as saved, the defaults where nothing (or nothing readable) is. */
export async function mailingSettings(services: Pick<AppServices, "db">): Promise<MailingSettings> {
  const [row] = await services.db
    .select()
    .from(settings)
    .where(inArray(settings.key, [KEY]));
  const parsed = mailingSettingsSchema.safeParse(row?.value);
  return parsed.success ? parsed.data : DEFAULT_MAILING_SETTINGS;
}

/** The sender of a member's letters: their name, at the community's return address when it gives one. */
export function senderOf(settings: MailingSettings, name: string, own: ReturnAddress | null): PostalAddress | null {
  const at = settings.returnAddress ?? own;
  return at ? { name: name.slice(0, 40), ...at } : null;
}

/** Saves the settings an admin gives (validated by the caller's form); audited with what was before. */
export async function saveMailingSettings(
  services: AppServices,
  viewer: Viewer,
  next: MailingSettings,
): Promise<MailingSettings> {
  const value = mailingSettingsSchema.parse(next);
  const before = await mailingSettings(services);
  await services.db
    .insert(settings)
    .values({ key: KEY, value })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
  await audit(services.db, actorOf(viewer), "settings.mailing", "settings", KEY, { before, after: value });
  return value;
}

export type { MailingPrices };
