import type { AppLoadContext } from "@remix-run/node";
import { http, HttpResponse } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AppServices } from "~/context";
import { seedDemo, seedDocumentDefaults } from "~/db/seed.server";
import { lobMailHouse } from "~/providers/mailhouse/lob.server";
import { action as webhookAction } from "~/routes/api.webhooks.mailhouse";
import { pollMailings, QUIET_MS } from "~/services/mailings/jobs.server";
import { sendRoundLetters } from "~/services/mailings/send.server";
import { entriesOf, versionState } from "~/services/nol/entries.server";
import type { Viewer } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { eventually } from "../helpers/eventually";
import {
  bothRespondents,
  demoCreator,
  eventsOf,
  mailingsOf,
  roundOneMailing,
  writeRoundOne,
} from "../helpers/mailings";
import { answer } from "../helpers/requests";
import { LOB_API, LOB_API_KEY, LOB_WEBHOOK_SECRET, lob, signedDelivery } from "../mocks/lob";
import { mockServer } from "../mocks/server";

const settings = { lobApiKey: LOB_API_KEY, lobWebhookSecret: LOB_WEBHOOK_SECRET, lobApiUrl: LOB_API };

describe.each(drivers)("mailing a round through Lob (%s)", (driver) => {
  let database: TestDatabase;
  let context: AppLoadContext;
  let services: AppServices;
  /** The same services with a Lob that gives up after 400 ms (the stand-in's slow answer takes a second). */
  let impatient: AppServices;
  let creator: Viewer;

  const send = (version: string, on = services, recipients = bothRespondents) =>
    sendRoundLetters(on, creator.member, roundOneMailing(version), recipients);
  const rowsOf = (version: string) => mailingsOf(database.db, creator.member.id, version);
  const deliver = (rawBody: string, headers: Headers) =>
    answer(
      webhookAction({
        request: new Request("http://localhost/api/webhooks/mailhouse", { method: "POST", body: rawBody, headers }),
        params: {},
        context,
      }),
    );

  /** The webhook deliveries counted for Lob so far, by outcome. */
  const webhookCounts = async () => {
    const text = await services.metrics.registry.getSingleMetricAsString("memberhall_webhook_events_total");
    const count = (outcome: string) =>
      Number(new RegExp(`provider="lob",outcome="${outcome}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
    return { refused: count("refused"), applied: count("applied"), duplicate: count("duplicate") };
  };

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    await seedDocumentDefaults(database.db);
    context = testContext(database, { MAILHOUSE: "lob", LOB_API_KEY, LOB_WEBHOOK_SECRET });
    services = context.app!;
    impatient = {
      ...services,
      providers: { ...services.providers, mailhouse: lobMailHouse(settings, { timeoutMs: 400 }) },
    };
    creator = await demoCreator(database.db);
  });
  afterAll(async () => {
    await database?.dispose();
  });
  beforeEach(() => {
    lob.reset();
  });

  it("sends each letter once with its key; two sends at once make one letter per respondent at Lob", async () => {
    await writeRoundOne(services, creator, "At once");
    await Promise.all([send("At once"), send("At once")]);
    const rows = await rowsOf("At once");
    expect(lob.letters.size).toBe(2);
    // Only the request that claimed a letter asks Lob for it: one request per respondent.
    expect(
      lob
        .callsTo("POST", "/v1/letters")
        .map((call) => call.idempotencyKey)
        .sort(),
    ).toEqual(rows.map((row) => row.idempotencyKey).sort());
    expect(rows.map((row) => [row.state, row.provider])).toEqual([
      ["created", "lob"],
      ["created", "lob"],
    ]);
    expect(rows.map((row) => row.letterId).sort()).toEqual([...lob.letters.keys()].sort());
  });

  it("retries a send that timed out with the same key: Lob's slow letter is the one kept, no second is made", async () => {
    await writeRoundOne(services, creator, "Timed out");
    lob.failNext("timeout", { path: "/v1/letters" });
    const first = await send("Timed out", impatient);
    expect(first.map((letter) => letter.outcome)).toEqual(["unavailable", "sent"]);
    expect(first[0]!.message).toBe("Mailing is not available just now. Please try again in a few minutes.");
    // Lob still makes the slow request's letter, a moment later.
    await eventually(() => lob.letters.size === 2, "Lob's slow letter");

    const retried = await send("Timed out");
    expect(retried.map((letter) => letter.outcome)).toEqual(["sent", "kept"]);
    expect(lob.letters.size).toBe(2);
    const rows = await rowsOf("Timed out");
    const keys = lob.callsTo("POST", "/v1/letters").map((call) => call.idempotencyKey);
    expect(keys).toEqual([rows[0]!.idempotencyKey, rows[1]!.idempotencyKey, rows[0]!.idempotencyKey]);
    expect(rows.map((row) => row.state)).toEqual(["created", "created"]);
    expect(new Set(rows.map((row) => row.letterId))).toEqual(new Set(lob.letters.keys()));
  });

  it("applies a webhook that came before the lost answer was taken over, once the letter is known", async () => {
    await writeRoundOne(services, creator, "Early event");
    lob.failNext("timeout", { path: "/v1/letters" });
    await send("Early event", impatient);
    await eventually(() => lob.letters.size === 2, "Lob's slow letter");
    const [waiting] = await rowsOf("Early event");
    const slow = [...lob.letters.values()].find(
      (letter) => (letter.metadata as Record<string, string>).mailing === waiting!.id,
    )!;
    lob.scan(String(slow.id), "Mailed", new Date("2026-12-01T15:00:00Z"));
    const early = signedDelivery(lob.event(String(slow.id), "letter.certified.mailed", "evt_0e4a9b7c1d2f3a4b"));
    expect((await deliver(early.rawBody, early.headers)).status).toBe(200);
    expect((await rowsOf("Early event"))[0]).toMatchObject({ state: "sending", letterId: null });

    await send("Early event");
    const [row] = await rowsOf("Early event");
    expect(row).toMatchObject({ letterId: slow.id, state: "mailed", mailedAt: new Date("2026-12-01T15:00:00Z") });
    // The early delivery is the letter's now, beside the same scan as the letter's reply carried it.
    const events = (await eventsOf(database.db, [row!.id])).map((e) => e.eventId);
    expect(events).toHaveLength(2);
    expect(events).toContain("evt_0e4a9b7c1d2f3a4b");
    const state = versionState(await entriesOf(database.db, creator.member.id, "TS"), "Early event");
    expect(state.creator!.nolMailingDate).toEqual(["2026-12-01"]);
  });

  it("asks Lob after a letter nothing was heard of for 12 hours: a lost webhook's delivery still fills the proof", async () => {
    await writeRoundOne(services, creator, "Polled");
    // Both respondents mailed: the round is delivered once both letters are.
    await send("Polled", services, bothRespondents);
    const [row, other] = await rowsOf("Polled");
    lob.scan(row!.letterId!, "Mailed", new Date("2026-12-01T15:00:00Z"));
    lob.scan(row!.letterId!, "Delivered", new Date("2026-12-03T11:30:00Z"));
    lob.scan(other!.letterId!, "Mailed", new Date("2026-12-01T15:00:00Z"));
    lob.scan(other!.letterId!, "Delivered", new Date("2026-12-02T10:00:00Z"));

    const soon = new Date(row!.sendDate!.getTime() + QUIET_MS - 60_000);
    await pollMailings(services, soon);
    expect(lob.callsTo("GET", `/v1/letters/${row!.letterId}`)).toHaveLength(0);

    const later = new Date(row!.sendDate!.getTime() + QUIET_MS + 60_000);
    await pollMailings(services, later);
    expect(lob.callsTo("GET", `/v1/letters/${row!.letterId}`)).toHaveLength(1);
    expect((await rowsOf("Polled"))[0]).toMatchObject({
      state: "delivered",
      mailedAt: new Date("2026-12-01T15:00:00Z"),
      deliveredAt: new Date("2026-12-03T11:30:00Z"),
      polledAt: later,
    });
    const state = versionState(await entriesOf(database.db, creator.member.id, "TS"), "Polled");
    expect(state.creator!.nolDeliveryDate).toEqual(["2026-12-03"]);
    // A delivered letter is asked after no more.
    await pollMailings(services, new Date(later.getTime() + 2 * QUIET_MS));
    expect(lob.callsTo("GET", `/v1/letters/${row!.letterId}`)).toHaveLength(1);
  });

  it("sends again under a new key a letter Lob refused, as nothing was made", async () => {
    await writeRoundOne(services, creator, "Refused");
    mockServer.use(
      http.post(
        `${LOB_API}/v1/letters`,
        () =>
          HttpResponse.json(
            { error: { message: "to.address_zip is invalid", status_code: 422, code: "invalid" } },
            { status: 422 },
          ),
        { once: true },
      ),
    );
    const first = await send("Refused");
    expect(first.map((letter) => [letter.outcome, letter.message])).toEqual([
      ["refused", "to.address_zip is invalid"],
      ["sent", null],
    ]);
    expect((await rowsOf("Refused"))[0]).toMatchObject({ state: "failed", reason: "to.address_zip is invalid" });
    const again = await send("Refused");
    expect(again.map((letter) => letter.outcome)).toEqual(["sent", "kept"]);
    const [row] = await rowsOf("Refused");
    expect(row).toMatchObject({ state: "created", attempt: 2, reason: null });
    expect(row!.idempotencyKey).toBe(`mailing:${row!.entryId}:r1:s1:a2`);
    expect(lob.letters.size).toBe(2);
  });

  it("takes a signed webhook once (200), refuses a bad signature (400), and the mailed scan fills the mailing date", async () => {
    await writeRoundOne(services, creator, "Webhook");
    await send("Webhook");
    const [row] = await rowsOf("Webhook");
    lob.scan(row!.letterId!, "Mailed", new Date("2026-12-01T15:00:00Z"));
    const body = lob.event(row!.letterId!, "letter.certified.mailed", "evt_6a1f0c2b3d4e5f60");

    const countsBefore = await webhookCounts();
    const forged = signedDelivery(body, { secret: "not-the-webhook-secret" });
    const refused = await deliver(forged.rawBody, forged.headers);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "The delivery's signature does not match its body" });
    expect((await rowsOf("Webhook"))[0]!.state).toBe("created");
    expect(await eventsOf(database.db, [row!.id])).toHaveLength(0);

    const good = signedDelivery(body);
    const applied = await deliver(good.rawBody, good.headers);
    expect(applied.status).toBe(200);
    expect(await applied.json()).toEqual({ received: true, duplicate: false });
    expect((await rowsOf("Webhook"))[0]).toMatchObject({
      state: "mailed",
      mailedAt: new Date("2026-12-01T15:00:00Z"),
    });

    const repeated = signedDelivery(body);
    const again = await deliver(repeated.rawBody, repeated.headers);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    const stored = await eventsOf(database.db, [row!.id]);
    expect(stored.map((e) => [e.eventId, e.type])).toEqual([["evt_6a1f0c2b3d4e5f60", "letter.certified.mailed"]]);
    expect(await webhookCounts()).toEqual({
      refused: countsBefore.refused + 1,
      applied: countsBefore.applied + 1,
      duplicate: countsBefore.duplicate + 1,
    });

    const state = versionState(await entriesOf(database.db, creator.member.id, "TS"), "Webhook");
    expect(state.creator!.nolMailingDate).toEqual(["2026-12-01"]);
    expect(state.step.kind).toBe("proof");
  });
});
