import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "~/context";
import { memberArchives } from "~/db/schema";
import { seedDemo, seedDocumentDefaults } from "~/db/seed.server";
import { memberArchiveJob, requestArchive } from "~/services/member-data/archive.server";
import { submitDated } from "../helpers/steps";
import { loadViewer } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { formOf } from "../helpers/requests";
import { createSession, createUser } from "../helpers/users";

/** The longest the event loop may be held, with room for a busy two-core machine (as tests/server/long-work). */
const BOUND_MS = 250;
const VERSIONS = 12;

describe.each(drivers)("a large data archive and the event loop (%s)", (driver) => {
  let database: TestDatabase;
  let services: AppServices;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    await seedDocumentDefaults(database.db);
    services = testContext(database).app!;
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it(`gives the event loop back between files: a timer is never held over ${BOUND_MS} ms`, async () => {
    const member = await createUser(database.db, { name: "Lena Long", nolCreator: true, countryCode: "US" });
    const viewer = (await loadViewer(database.db, (await createSession(database.db, member.id)).id))!;
    for (let v = 1; v <= VERSIONS; v += 1) {
      const step = (kind: "notice" | "mailing", values: Record<string, string>) =>
        submitDated(services, viewer, member, { causeCode: "TS", version: `V${v}`, kind, form: formOf(values) });
      await step("notice", {
        claimantName: "Lena Long",
        dailyAmount: "250",
        r1Name: `Officer ${v}`,
        r1Type: "Official",
      });
      await step("mailing", { mailingDate: "2026-03-02", track1: "RR123456789US" });
    }
    const archiveId = await requestArchive(services, viewer);
    let longest = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 5);
    try {
      await memberArchiveJob.run(
        services,
        { archiveId },
        { id: "t", retryCount: 0, signal: new AbortController().signal },
      );
    } finally {
      clearInterval(timer);
    }
    const [row] = await database.db.select().from(memberArchives).where(eq(memberArchives.id, archiveId));
    // Fourteen records files, a receipt-free member: a notice and a proof of service per version, and README.txt.
    expect(row).toMatchObject({ status: "done", progressTotal: 14 + 2 * VERSIONS + 1 });
    expect(longest).toBeLessThan(BOUND_MS);
  });
});
