import { eq, inArray, or, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { nolEntries, users } from "~/db/schema";
import { causeSlug } from "~/domain/causes";
import type { Timeline } from "~/domain/nol/timeline";
import { formatDate } from "~/lib/format";
import { getCauseCatalogue } from "../causes.server";
import { entriesOf, versionsOf, versionState, type EntryRow, type VersionState } from "./entries.server";
import { roundDocumentBases, versionTimeline, versionTimelineView } from "./timeline.server";

/**
 * The timelines of every member's versions that have a mailing recorded, for the work that
 * looks across members: the reminders' sweep and the admins' count of rounds waiting to go out.
 */

export type MemberVersion = {
  userId: string;
  cause: { code: string; name: string };
  state: VersionState;
  timeline: Timeline;
};

/** Entries in groups of one key (a member and cause, a cause), in the order first met. */
function groupRows(rows: EntryRow[], key: (row: EntryRow) => string): Map<string, EntryRow[]> {
  const groups = new Map<string, EntryRow[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

/** Every entry of the versions that have a mailing recorded, by member and cause. */
async function versionsWithMailings(db: Database): Promise<EntryRow[][]> {
  const mailed = db
    .select({ userId: nolEntries.userId, causeCode: nolEntries.causeCode, version: nolEntries.descriptiveVersion })
    .from(nolEntries)
    .where(
      or(sql`jsonb_array_length(${nolEntries.nolMailingDate}) > 0`, sql`${nolEntries.billMailingDate} is not null`),
    );
  const rows = await db
    .select()
    .from(nolEntries)
    .where(sql`(${nolEntries.userId}, ${nolEntries.causeCode}, ${nolEntries.descriptiveVersion}) in ${mailed}`);
  return [...groupRows(rows, (row) => `${row.userId}|${row.causeCode}`).values()];
}

/** The versions with a mailing recorded, each with its timeline at `now`. */
export async function mailedVersions(services: AppServices, now: Date): Promise<MemberVersion[]> {
  const groups = await versionsWithMailings(services.db);
  if (groups.length === 0) return [];
  const catalogue = await getCauseCatalogue(services);
  return groups.flatMap((rows) => {
    const { userId, causeCode } = rows[0]!;
    const cause = { code: causeCode, name: catalogue.causes[causeCode]?.name ?? causeCode };
    return versionsOf(rows).map((version) => {
      const state = versionState(rows, version);
      const timeline = versionTimeline(services.config, catalogue.windows[causeCode] ?? {}, state, now);
      return { userId, cause, state, timeline };
    });
  });
}

/** A version whose last round's window has closed and whose next round has not gone out. */
export function waitsForNextRound({ timeline }: Pick<MemberVersion, "timeline">): boolean {
  const availableOn = timeline.next?.availableOn;
  return Boolean(availableOn && availableOn <= timeline.today);
}

/** How many versions wait for their next round: the admins' dashboard. */
export async function waitingVersionCount(services: AppServices, now = new Date()): Promise<number> {
  return (await mailedVersions(services, now)).filter(waitsForNextRound).length;
}

const DAY_MS = 86_400_000;

/**
 * /admin/waiting-rounds: the versions whose window has closed with no next round sent, the
 * longest waiting first, each with its member and where its notices are.
 */
export async function waitingRounds(services: AppServices, now = new Date()) {
  const waiting = (await mailedVersions(services, now)).filter(waitsForNextRound);
  const ids = [...new Set(waiting.map((version) => version.userId))];
  const names = new Map(
    ids.length === 0
      ? []
      : (
          await services.db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, ids))
        ).map((row) => [row.id, row.username]),
  );
  return waiting
    .map(({ userId, cause, state, timeline }) => {
      const next = timeline.next!;
      const username = names.get(userId) ?? "";
      return {
        userId,
        username,
        cause: cause.name,
        version: state.version,
        next: next.name,
        since: next.availableOn!,
        sinceShown: formatDate(next.availableOn!),
        days: Math.round((Date.parse(timeline.today) - Date.parse(next.availableOn!)) / DAY_MS),
        href: `/nol/creator/${causeSlug(cause.name)}?${new URLSearchParams({ username, version: state.version })}`,
      };
    })
    .sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : a.username.localeCompare(b.username)));
}

/**
 * A member's versions that have a round recorded, each with its timeline as the pages show it:
 * on the member's notices and, for admins, on the member's page.
 */
export async function memberTimelines(services: AppServices, userId: string, username: string, now = new Date()) {
  const [rows, catalogue] = await Promise.all([entriesOf(services.db, userId), getCauseCatalogue(services)]);
  const versions = [...groupRows(rows, (row) => row.causeCode)].flatMap(([causeCode, causeRows]) =>
    versionsOf(causeRows).map((version) => ({ causeCode, version, state: versionState(causeRows, version) })),
  );
  const shown = await Promise.all(
    versions.map(async ({ causeCode, version, state }) => {
      if (!versionTimeline(services.config, {}, state, now).rows.some((row) => row.state !== "next")) return [];
      const name = catalogue.causes[causeCode]?.name ?? causeCode;
      const base = `/nol/creator/${causeSlug(name)}`;
      const query = new URLSearchParams({ version, username });
      const { view } = await versionTimelineView(services, {
        windows: catalogue.windows[causeCode] ?? {},
        state,
        bases: roundDocumentBases(base, version, username),
        now,
      });
      return [
        {
          id: `${causeCode}|${version}`,
          cause: name,
          version,
          timeline: view,
          href: `${base}?${query}`,
          calendarHref: `${base}/calendar.ics?${query}`,
        },
      ];
    }),
  );
  return shown.flat();
}

/** The timeline of the version an entry belongs to, for the admins' data browser (/db/nol_entries/{id}). */
export async function entryTimeline(services: AppServices, entryId: string, now = new Date()) {
  const [entry] = await services.db
    .select({
      userId: nolEntries.userId,
      causeCode: nolEntries.causeCode,
      version: nolEntries.descriptiveVersion,
      username: users.username,
    })
    .from(nolEntries)
    .innerJoin(users, eq(users.id, nolEntries.userId))
    .where(eq(nolEntries.id, entryId));
  if (!entry) return null;
  const [rows, catalogue] = await Promise.all([
    entriesOf(services.db, entry.userId, entry.causeCode),
    getCauseCatalogue(services),
  ]);
  const name = catalogue.causes[entry.causeCode]?.name ?? entry.causeCode;
  const { view } = await versionTimelineView(services, {
    windows: catalogue.windows[entry.causeCode] ?? {},
    state: versionState(rows, entry.version),
    bases: roundDocumentBases(`/nol/creator/${causeSlug(name)}`, entry.version, entry.username),
    now,
  });
  const query = new URLSearchParams({ version: entry.version, username: entry.username });
  return {
    title: `Timeline: ${name} · ${entry.version}`,
    view,
    trackingUrl: services.config.trackingUrl,
    calendarHref: `/nol/creator/${causeSlug(name)}/calendar.ics?${query}`,
  };
}
