import { readFileSync } from "node:fs";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "~/context";
import { auditLog, type users } from "~/db/schema";
import { bulkMemberAction } from "~/services/member-bulk.server";
import { archiveFileOf, memberArchiveJob, requestArchive } from "~/services/member-data/archive.server";
import { memberListQuery, membersMailJob } from "~/services/member-listing.server";
import { loadViewer } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { unzip } from "../helpers/zip";
import { createSession, createUser } from "../helpers/users";

const job = { id: "test", retryCount: 0, signal: new AbortController().signal };

describe.each(drivers)("the members a change to many of them reached (%s)", (driver) => {
  let database: TestDatabase;
  let services: AppServices;
  const member: Record<string, typeof users.$inferSelect> = {};

  const viewerOf = async (userId: string) =>
    (await loadViewer(database.db, (await createSession(database.db, userId)).id))!;
  const { query } = memberListQuery(new URLSearchParams());
  const entriesOf = (...actions: string[]) =>
    database.db.select().from(auditLog).where(inArray(auditLog.action, actions));

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    services = testContext(database).app!;
    member.admin = await createUser(database.db, { admin: true });
    for (const key of ["ada", "bea", "cy"])
      member[key] = await createUser(database.db, { username: `${key}_reached_${driver}` });
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("names each member a bulk role change or e-mail reached: how many, by username and by id", async () => {
    const admin = await viewerOf(member.admin!.id);
    const ids = [member.ada!.id, member.bea!.id];
    await bulkMemberAction(services, admin, { kind: "flag", flag: "nolTester", value: true, ids }, query);
    await bulkMemberAction(services, admin, { kind: "email", subject: "Meeting", body: "On Tuesday.", ids }, query);
    const named = {
      selection: { ids: 2 },
      reached: 2,
      members: [member.ada!.username, member.bea!.username],
      memberIds: ids,
    };
    const entries = await entriesOf("members.bulk.set-nolTester", "members.bulk.email");
    expect(entries.map((e) => e.data)).toEqual([named, named]);

    // A whole filter's e-mail, from the background job: named as well.
    await membersMailJob.run(
      services,
      {
        filters: { q: "cy_reached" },
        subject: "Hello",
        body: "Hello all.",
        actor: { actorUserId: member.admin!.id, agentUserId: null },
      },
      job,
    );
    const [mailed] = (await entriesOf("members.bulk.email")).filter((e) => e.id !== entries[1]!.id);
    expect(mailed!.data).toEqual({
      selection: { filters: { q: "cy_reached" } },
      reached: 1,
      members: [member.cy!.username],
      memberIds: [member.cy!.id],
    });
  });

  it("shows each member in their data archive the changes that reached them, not whom else they reached", async () => {
    const trailOf = async (key: string) => {
      const archiveId = await requestArchive(services, await viewerOf(member[key]!.id));
      await memberArchiveJob.run(services, { archiveId }, job);
      const archive = unzip(readFileSync(archiveFileOf(services, archiveId)));
      const text = archive.get("records/audit-trail.json")!.toString("utf8");
      return { text, trail: JSON.parse(text) as { action: string; by: string; data: unknown }[] };
    };
    for (const [key, other] of [
      ["ada", "bea"],
      ["bea", "ada"],
    ] as const) {
      const { text, trail } = await trailOf(key);
      for (const action of ["members.bulk.set-nolTester", "members.bulk.email"]) {
        expect(trail).toContainEqual(expect.objectContaining({ action, by: "an admin", data: { reached: 2 } }));
      }
      for (const word of [member[other]!.id, member[other]!.username, "cy_reached"]) expect(text).not.toContain(word);
    }
    const { trail } = await trailOf("cy");
    expect(trail.filter((e) => e.action.startsWith("members.bulk."))).toEqual([
      expect.objectContaining({ action: "members.bulk.email", by: "an admin", data: { reached: 1 } }),
    ]);
  });
});
