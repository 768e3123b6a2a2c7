import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { AppConfig } from "~/config/config.server";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { nolReminders, reminderOptOuts, users } from "~/db/schema";
import { causeSlug } from "~/domain/causes";
import { stepHref } from "~/domain/nol/addresses";
import {
  dueReminders,
  REMINDER_KINDS,
  REMINDER_LABELS,
  reminderWords,
  type DueReminder,
  type ReminderKind,
} from "~/domain/nol/reminders";
import { equalHex, hmacHex } from "~/lib/crypto.server";
import { formatDate } from "~/lib/format";
import { sweepJob } from "../queue.server";
import { mailedVersions, type MemberVersion } from "./version-timelines.server";

/**
 * The NoL reminders (decision 035): a sweep of the job runner looks at every version with a
 * mailing recorded, and e-mails its member each reminder its timeline makes due, once.
 */

/** The secret part of a reminder's unsubscribe link: the same in every mail of that kind to that member. */
export function reminderToken(secret: string, userId: string, kind: ReminderKind): string {
  return Buffer.from(hmacHex(secret, `nol-reminder-unsubscribe:${userId}:${kind}`), "hex").toString("base64url");
}

/** The one-click unsubscribe link of a kind of reminder, for one member. */
export function unsubscribeLink(
  config: Pick<AppConfig, "baseUrl" | "sessionSecret">,
  userId: string,
  kind: ReminderKind,
) {
  const query = new URLSearchParams({ member: userId, kind, token: reminderToken(config.sessionSecret, userId, kind) });
  return `${config.baseUrl}/reminders/unsubscribe?${query}`;
}

/** Whether a link's token is the one made for the member and kind it names. */
export function linkIsGenuine(config: Pick<AppConfig, "sessionSecret">, link: UnsubscribeLink): boolean {
  const expected = reminderToken(config.sessionSecret, link.member, link.kind);
  const given = Buffer.from(link.token, "base64url").toString("hex");
  return equalHex(given, Buffer.from(expected, "base64url").toString("hex"));
}

export type UnsubscribeLink = { member: string; kind: ReminderKind; token: string };

/** Turns a kind of reminder off for the member of a genuine link; false for a link that is not. */
export async function unsubscribeByLink(services: AppServices, link: UnsubscribeLink): Promise<boolean> {
  if (!linkIsGenuine(services.config, link)) return false;
  const [member] = await services.db.select({ id: users.id }).from(users).where(eq(users.id, link.member));
  if (!member) return false;
  await services.db.insert(reminderOptOuts).values({ userId: member.id, kind: link.kind }).onConflictDoNothing();
  return true;
}

/** Which kinds of reminder the member gets. */
export async function reminderChoices(db: Database, userId: string): Promise<Record<ReminderKind, boolean>> {
  const off = await db
    .select({ kind: reminderOptOuts.kind })
    .from(reminderOptOuts)
    .where(eq(reminderOptOuts.userId, userId));
  const offKinds = new Set(off.map((row) => row.kind));
  return Object.fromEntries(REMINDER_KINDS.map((kind) => [kind, !offKinds.has(kind)])) as Record<ReminderKind, boolean>;
}

/** A kind of reminder as the profile's form shows it: its words and whether the member gets it. */
export type ReminderChoice = { kind: ReminderKind; label: string; on: boolean };

/** The profile's reminder choices, in the order of the kinds. */
export async function reminderChoiceList(db: Database, userId: string): Promise<ReminderChoice[]> {
  const on = await reminderChoices(db, userId);
  return REMINDER_KINDS.map((kind) => ({ kind, label: REMINDER_LABELS[kind], on: on[kind] }));
}

/** Saves the kinds of reminder the member gets: every other kind is turned off. */
export async function saveReminderChoices(db: Database, userId: string, on: readonly ReminderKind[]): Promise<void> {
  const off = REMINDER_KINDS.filter((kind) => !on.includes(kind));
  await db.transaction(async (tx) => {
    await tx.delete(reminderOptOuts).where(eq(reminderOptOuts.userId, userId));
    if (off.length > 0) await tx.insert(reminderOptOuts).values(off.map((kind) => ({ userId, kind })));
  });
}

type Recipient = { id: string; email: string; optedOut: ReminderKind[] };

/** The members who may still use the creator, with the kinds they turned off. */
async function recipients(db: Database, ids: string[]): Promise<Map<string, Recipient>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      optedOut: sql<ReminderKind[]>`coalesce((select json_agg(${reminderOptOuts.kind}) from ${reminderOptOuts}
        where ${reminderOptOuts.userId} = ${users.id}), '[]'::json)`,
    })
    .from(users)
    .where(
      and(inArray(users.id, ids), isNull(users.disabledAt), or(eq(users.nolCreator, true), eq(users.nolTester, true))),
    );
  return new Map(rows.map((row) => [row.id, row]));
}

type VersionAt = MemberVersion & { member: Recipient };

/** A reminder's e-mail: what is due, the version's next step, and how to stop this kind. */
function reminderMail(config: AppConfig, at: VersionAt, reminder: DueReminder) {
  const row = at.timeline.rows.find((candidate) => candidate.round === reminder.round);
  const name = at.timeline.next?.round === reminder.round ? at.timeline.next.name : (row?.name ?? "");
  const available = at.timeline.next?.availableOn;
  const words = reminderWords(
    reminder,
    {
      name,
      mailed: row?.mailedOn ? formatDate(row.mailedOn) : null,
      available: available ? formatDate(available) : null,
    },
    at.state.version,
  );
  const href = stepHref("NoLCreator2", causeSlug(at.cause.name), at.state.step.kind, at.state.version, null);
  const unsubscribe = unsubscribeLink(config, at.member.id, reminder.kind);
  return {
    to: at.member.email,
    template: `nol-reminder-${reminder.kind}`,
    subject: words.subject,
    text: [
      words.lead,
      `${at.cause.name} · ${at.state.version}: ${config.baseUrl}${href}`,
      `To stop these e-mails (${REMINDER_LABELS[reminder.kind].toLowerCase()}): ${unsubscribe}`,
      `You choose which reminders you get on your profile: ${config.baseUrl}/profile/notices`,
    ].join("\n\n"),
    headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}

/**
 * Sends a reminder unless it was sent: its row is written first, and only the sweep that
 * writes it sends the e-mail. A mail that cannot be written takes its row back, for the
 * next try.
 */
async function sendOnce(services: AppServices, at: VersionAt, reminder: DueReminder): Promise<boolean> {
  const [claimed] = await services.db
    .insert(nolReminders)
    .values({
      userId: at.member.id,
      causeCode: at.cause.code,
      descriptiveVersion: at.state.version,
      kind: reminder.kind,
      round: reminder.round,
      dueOn: reminder.dueOn,
    })
    .onConflictDoNothing()
    .returning({ id: nolReminders.id });
  if (!claimed) return false;
  try {
    await services.providers.mail.send(reminderMail(services.config, at, reminder));
  } catch (error) {
    await services.db.delete(nolReminders).where(eq(nolReminders.id, claimed.id));
    throw error;
  }
  return true;
}

/** Sends every reminder due at `now` that has not been sent; resolves with how many went. */
export async function sendDueReminders(services: AppServices, now = new Date()): Promise<{ sent: number }> {
  const versions = await mailedVersions(services, now);
  const members = await recipients(services.db, [...new Set(versions.map((version) => version.userId))]);
  let sent = 0;
  for (const version of versions) {
    const member = members.get(version.userId);
    if (!member) continue;
    const at = { ...version, member };
    for (const reminder of dueReminders(version.timeline, services.config.reminders)) {
      if (member.optedOut.includes(reminder.kind)) continue;
      if (await sendOnce(services, at, reminder)) sent += 1;
    }
  }
  return { sent };
}

/** The sweep, on the configured schedule (hourly by default); one runs at a time across servers. */
export const nolRemindersJob = sweepJob({
  name: "nol-reminders",
  schedule: (services) => services.config.reminders.cron,
  retry: { limit: 2, delaySeconds: 60 },
  async run(services) {
    const { sent } = await sendDueReminders(services);
    if (sent > 0) services.logger.info({ sent }, "sent NoL reminders");
  },
});
