import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "~/context";
import { seedDemo, seedDocumentDefaults } from "~/db/seed.server";
import { SANDBOX_SCHEDULE } from "~/providers/mailhouse/sandbox.server";
import { proofOfServiceOf } from "~/services/documents/proof-of-service.server";
import { findNotice } from "~/services/documents/notices.server";
import { renderNoticePdf } from "~/services/documents/render.server";
import { cancelLetter } from "~/services/mailings/cancel.server";
import { runSandboxMailHouse } from "~/services/mailings/events.server";
import { sendRoundLetters } from "~/services/mailings/send.server";
import { entriesOf, versionState } from "~/services/nol/entries.server";
import { recordRespondentService } from "~/services/nol/respondent-service.server";
import { versionService } from "~/services/nol/service.server";
import type { Viewer } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { bothRespondents, demoCreator, mailingsOf, roundOneMailing, writeRoundOne } from "../helpers/mailings";
import { readPdf } from "../helpers/pdf";
import { formOf } from "../helpers/requests";
import { submitDated } from "../helpers/steps";

/**
 * The one reading of a round's service on each database: a letter cancelled leaves its
 * respondent waiting (the round is not delivered, its proof refused), the member mails them by
 * hand with a number of their own, and every document then names each respondent's own
 * envelope (docs/decisions/057).
 */
describe.each(drivers)("the reading of a round's service (%s)", (driver) => {
  let database: TestDatabase;
  let services: AppServices;
  let creator: Viewer;
  const today = new Date().toISOString().slice(0, 10);
  const address = { segment: "creator", form: "NoLCreator2" as const };

  const stateOf = async (version: string) =>
    versionState(await entriesOf(database.db, creator.member.id, "TS"), version);
  const step = (version: string, kind: "mailing" | "proof", values: Record<string, string>) =>
    submitDated(services, creator, creator.member, { causeCode: "TS", version, kind, form: formOf(values) });
  const noticeText = async (version: string) => {
    const state = await stateOf(version);
    const record = await findNotice(database.db, creator.member, {
      cf_number: state.creator!.entryNumber,
      cf_version: version,
      round_cnt: 1,
    });
    return (await readPdf((await renderNoticePdf(services, record!)).bytes)).pages;
  };
  const proofText = async (version: string) => {
    const rows = await entriesOf(database.db, creator.member.id, "TS");
    const proof = await proofOfServiceOf(
      services,
      { owner: creator.member, cause: { code: "TS", name: "Traffic Stop" }, rows },
      { version, round: 1 },
    );
    // Its lines as read back, each wrapped line joined to the one before.
    return (await readPdf(proof.bytes)).pages.join("\n").replace(/\s+/g, " ");
  };

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    await seedDocumentDefaults(database.db);
    services = testContext(database).app!;
    creator = await demoCreator(database.db);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("keeps a respondent whose letter was cancelled waiting until they are mailed by hand, each letter with its own number", async () => {
    const version = "Cancelled one";
    await writeRoundOne(services, creator, version);
    await sendRoundLetters(services, creator.member, roundOneMailing(version), bothRespondents);
    const [officer, clerk] = await mailingsOf(database.db, creator.member.id, version);
    // At the mail house: the round says so, and nothing is mailed yet.
    let read = (await versionService(database.db, await stateOf(version))).get(1)!;
    expect(read.state).toBe("sending");
    expect(read.respondents.map((r) => r.status)).toEqual(["sending", "sending"]);

    expect(await cancelLetter(services, creator.member, clerk!.id)).toMatchObject({ outcome: "cancelled" });
    const deliveredAt = new Date(officer!.sendDate!.getTime() + SANDBOX_SCHEDULE.delivered);
    await runSandboxMailHouse(services, new Date(deliveredAt.getTime() + 60_000));

    // The officer served, the clerk's letter cancelled: the round is mailed, not delivered.
    let state = await stateOf(version);
    read = (await versionService(database.db, state)).get(1)!;
    expect(read.respondents.map((r) => [r.name, r.status, r.served])).toEqual([
      ["Officer Example", "delivered", true],
      ["Clerk Extra", "cancelled", false],
    ]);
    expect(read.complete).toBe(false);
    expect(state.creator!.nolProofOfDelivery).toEqual([false]);
    expect(state.step).toMatchObject({ kind: "proof", round: 1 });
    await expect(step(version, "proof", { delivered: "on", deliveredOn: today })).rejects.toMatchObject({
      message: expect.stringContaining("Clerk Extra has not been served"),
    });
    let proof = await proofText(version);
    expect(proof).toContain(officer!.trackingNumber!);
    expect(proof).toContain("Letter cancelled before it was mailed");
    expect(proof).toContain("Not served: the letter was cancelled before it was mailed");
    expect(proof).not.toContain(clerk!.trackingNumber!);

    // Mailed by hand: a day before the notice was made is refused, then today with its own number.
    const form = (values: Record<string, string>) => ({
      cause: "traffic-stop",
      version,
      round: "1",
      slot: "2",
      form: formOf(values),
    });
    await expect(
      recordRespondentService(
        services,
        creator,
        address,
        form({ intent: "mailed", day: "2025-12-01", tracking: "RR123456785US" }),
      ),
    ).rejects.toMatchObject({ fieldErrors: { day: [expect.stringContaining("before the notice was made")] } });
    await expect(
      recordRespondentService(
        services,
        creator,
        address,
        form({ intent: "mailed", day: today, tracking: "RR123456785US" }),
      ),
    ).resolves.toMatchObject({ message: "The notice to Clerk Extra is recorded as mailed." });
    await step(version, "proof", { delivered: "on", deliveredOn: today });

    state = await stateOf(version);
    expect(state.creator!.nolProofOfDelivery).toEqual([true]);
    expect(state.creator!.mail).toMatchObject({
      Track1: officer!.trackingNumber,
      Tracking1: { "1": officer!.trackingNumber, "2": "RR123456785US" },
    });
    expect(state.step).toMatchObject({ kind: "notice", round: 2 });

    // Each letter of the notice names its own envelope, and no other.
    const pages = await noticeText(version);
    const letter = (n: number) => pages.filter((text) => text.includes(`Letter ${n} of 2`)).join("\n");
    expect(letter(1)).toContain(officer!.trackingNumber!);
    expect(letter(1)).not.toContain("RR123456785US");
    expect(letter(2)).toContain("RR123456785US");
    expect(letter(2)).not.toContain(officer!.trackingNumber!);
    proof = await proofText(version);
    expect(proof).toContain("Before: Letter cancelled before it was mailed");
    expect(proof).toContain("(by hand) · Tracking number: RR123456785US");
  });

  it("reads a round typed on the steps as typed, each respondent with the number typed for them, and keeps it when more is recorded", async () => {
    const version = "Typed";
    await writeRoundOne(services, creator, version);
    await step(version, "mailing", { mailingDate: "2026-03-02", track1: "RR111111119US", track2: "RR222222228US" });
    const read = (await versionService(database.db, await stateOf(version))).get(1)!;
    expect(read.respondents.map((r) => [r.slot, r.current?.tracking, r.current?.by, r.status])).toEqual([
      [1, "RR111111119US", "hand", "mailed"],
      [2, "RR222222228US", "hand", "mailed"],
    ]);
    // The clerk's envelope came back; the officer's delivery is recorded on the proof step after they are left out.
    const form = (slot: string, values: Record<string, string>) => ({
      cause: "traffic-stop",
      version,
      round: "1",
      slot,
      form: formOf(values),
    });
    await recordRespondentService(services, creator, address, form("2", { intent: "returned", day: "2026-03-09" }));
    await expect(step(version, "proof", { delivered: "on", deliveredOn: "2026-03-06" })).rejects.toMatchObject({
      message: expect.stringContaining("Clerk Extra has not been served"),
    });
    await recordRespondentService(
      services,
      creator,
      address,
      form("2", { intent: "left_out", reason: "Moved away, no forwarding address" }),
    );
    await step(version, "proof", { delivered: "on", deliveredOn: "2026-03-06" });
    const state = await stateOf(version);
    expect(state.creator!.nolProofOfDelivery).toEqual([true]);
    expect(state.creator!.nolDeliveryDate).toEqual(["2026-03-06"]);
    const proof = await proofText(version);
    expect(proof).toContain("Mailed: Mar 2, 2026 (by hand) · Tracking number: RR111111119US · Delivered: Mar 6, 2026");
    expect(proof).toContain("Delivered: returned to sender Mar 9, 2026");
    expect(proof).toContain("Not served in this round: left out (Moved away, no forwarding address)");
  });
});
