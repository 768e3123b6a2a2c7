import { pathToFileURL } from "node:url";
import path from "node:path";
import { chromium } from "@playwright/test";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/chromium";
import { startServer, type RunningServer } from "../helpers/server";
import {
  proofEnv,
  startProofStandIn,
  startStripeStandIn,
  stripeEnv,
  type ProofStandIn,
  type StripeStandIn,
} from "../helpers/standins";
import { PROOF_API_KEY, PROOF_WEBHOOK_SECRET, signedDelivery } from "../mocks/proof";
import { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, TEST_CARDS } from "../mocks/stripe";

/**
 * The server as it ships: dist/server.js and its Remix build, with the real Stripe and Proof
 * adapters talking over sockets to local stand-ins of both APIs. A provider's refusal or
 * outage must reach the member as the clear answer the in-process tests see, never as a 500.
 */

const PAYMENTS_DOWN = "Payments are not available right now. Nothing was charged: please try again in a few minutes.";
const NOTARY_DOWN = "Notarize Online cannot be reached right now. Nothing was sent; please try again in a few minutes.";
const DECLINED = "Your card was declined.";
const DEMO_PASSWORD = "memberhall-demo";

/** The Stripe SDK's own retries of a request that met a 5xx or a dropped connection (maxNetworkRetries: 2). */
const STRIPE_TRIES = 3;

/**
 * The notary's poll is a cron line, every five minutes on the clock (notaryPollJob). The
 * server's clock is set ahead so that a five-minute mark comes this long after it is started:
 * after the poll's notarization is made, and well within the run.
 */
const POLL_EVERY_MS = 5 * 60_000;
const POLL_MARK_AFTER_START_MS = 45_000;
/** pg-boss looks at its cron lines every 30 s and hands a due job to the runner within seconds. */
const POLL_LATENESS_MS = 60_000;
const SHIFTED_CLOCK = pathToFileURL(path.resolve(import.meta.dirname, "../helpers/shifted-clock.mjs")).href;

type Role = "admin" | "member" | "creator" | "newbie";

const stripeSigner = new Stripe(STRIPE_SECRET_KEY);

/** Polls `read` until `done` holds of its value, or fails with the last value at the deadline. */
async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, deadline: number, what: string) {
  let value = await read();
  while (!done(value)) {
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await read();
  }
  return value;
}

/** What a failed answer was, for the failure's message: an HTML page's title, or the body. */
const gist = (text: string) => /<title>([^<]*)<\/title>/.exec(text)?.[1] ?? text.slice(0, 300);

describe("the stand-ins of Stripe's and Proof's APIs", () => {
  let stripe: StripeStandIn;
  let proof: ProofStandIn;

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    proof = await startProofStandIn();
  });
  afterAll(async () => {
    await stripe?.close();
    await proof?.close();
  });

  it("answers in Stripe's wire format over a socket, and hangs up on a request that is to be dropped", async () => {
    const authorization = `Bearer ${STRIPE_SECRET_KEY}`;
    const missing = await fetch(`${stripe.url}/v1/customers/cus_missing`, { headers: { authorization } });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      error: { type: "invalid_request_error", code: "resource_missing" },
    });

    stripe.failNext("network", { path: "/v1/customers/cus_dropped" });
    const dropped = fetch(`${stripe.url}/v1/customers/cus_dropped`, { headers: { authorization } });
    await expect(dropped).rejects.toThrow("fetch failed");
  });

  it("leaves a Proof request that is to time out unanswered", async () => {
    proof.failNext("timeout", { path: "/v1/transactions/ot_unanswered" });
    const started = Date.now();
    const silent = fetch(`${proof.url}/v1/transactions/ot_unanswered`, {
      headers: { ApiKey: PROOF_API_KEY },
      signal: AbortSignal.timeout(2_000),
    });
    await expect(silent).rejects.toThrow(/timeout/i);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
  });
});

describe("the shipped server with the Stripe and Proof adapters against stand-ins", () => {
  let stripe: StripeStandIn;
  let proof: ProofStandIn;
  let server: RunningServer;
  let clockOffsetMs = 0;
  const cookies = {} as Record<Role, string>;
  /** The poll's own transaction: nothing but the job runner asks Proof about it. */
  let polled: { nzId: string; notarizedAt: number };

  /** A request the server could not answer: when the server is gone, what it said last. */
  const ended = (error: unknown): never => {
    const { exitCode, signalCode } = server.process;
    if (exitCode === null && signalCode === null) throw error;
    throw new Error(`the server ended (${exitCode ?? signalCode}):\n${server.output().slice(-4000)}`, { cause: error });
  };

  /** The server's time of day, which signs and dates what it reads. */
  const serverNow = () => Date.now() + clockOffsetMs;

  const request = (
    pathname: string,
    options: { as?: Role; method?: string; form?: Record<string, string>; json?: unknown } = {},
  ) => {
    const headers = new Headers();
    if (options.as) headers.set("cookie", cookies[options.as]);
    const method = options.method ?? (options.form || options.json !== undefined ? "POST" : "GET");
    if (method !== "GET") headers.set("origin", server.url);
    let body: BodyInit | undefined;
    if (options.form) body = new URLSearchParams(options.form);
    if (options.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(options.json);
    }
    return fetch(`${server.url}${pathname}`, { method, headers, body, redirect: "manual" }).catch(ended);
  };

  const logIn = async (role: Role) => {
    const response = await request("/login", { form: { login: role, password: DEMO_PASSWORD } });
    await response.arrayBuffer();
    const session = response.headers.getSetCookie().find((c) => c.startsWith("mh_session="));
    if (!session) throw new Error(`could not sign in as ${role}: ${response.status}`);
    cookies[role] = session.split(";")[0]!;
  };

  type Row = Record<string, unknown> & { id: string };
  /** A table's newest records as an admin's data browser lists them. */
  const rows = async (entity: string) => {
    const response = await request(`/db/${entity}?_data=routes%2Fdb.(%24entity).(%24view)`, { as: "admin" });
    expect(response.status, `/db/${entity}`).toBe(200);
    return ((await response.json()) as { rows: Row[] }).rows;
  };
  /** What would show a payment taken: the payments and the subscriptions. */
  const paidRecords = async () => ({ payments: await rows("payments"), subscriptions: await rows("subscriptions") });

  /** The attempt id a page's pay form carries. */
  const attemptOf = async (pathname: string, routeId: string, as: Role) => {
    const response = await request(`${pathname}?_data=${encodeURIComponent(routeId)}`, { as });
    const text = await response.text();
    const attempt = /"attempt":"([0-9a-f-]{36})"/.exec(text)?.[1];
    if (!attempt) throw new Error(`${pathname} carries no attempt id (${response.status}): ${text.slice(0, 300)}`);
    return attempt;
  };

  // ── Stripe's side ──

  const signStripe = (payload: string, { secret = STRIPE_WEBHOOK_SECRET, ageSeconds = 0 } = {}) =>
    stripeSigner.webhooks.generateTestHeaderString({
      payload,
      secret,
      timestamp: Math.floor(serverNow() / 1000) - ageSeconds,
    });

  const postStripe = (payload: string, signature: string | null) =>
    fetch(`${server.url}/api/webhooks/stripe`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(signature ? { "stripe-signature": signature } : {}) },
      body: payload,
    }).catch(ended);

  /** A payment the member starts on /subscription: the checkout's id, and where the form sent them. */
  const pay = async (as: Role, form: Record<string, string>) => {
    const attempt = await attemptOf("/subscription", "routes/subscription._index", as);
    const response = await request("/subscription", { as, form: { attempt, ...form } });
    return { attempt, response, text: await response.text() };
  };

  /** The intent Stripe made for a checkout, confirmed with a card as Stripe.js would. */
  const paidIntent = (checkoutId: string) => {
    const intent = [...stripe.paymentIntents.values()].find(
      (i) => (i.metadata as Record<string, string>).checkout_id === checkoutId,
    );
    if (!intent) throw new Error(`Stripe has no payment intent for the checkout ${checkoutId}`);
    return stripe.confirm(intent.client_secret as string, TEST_CARDS.visa);
  };

  // ── Proof's side ──

  /** Saves round 1 of a new version of the creator's traffic-stop NoL: the ids of its notice. */
  const roundOne = async (version: string) => {
    const saved = await request(`/nol/creator/traffic-stop/notice?version=${encodeURIComponent(version)}`, {
      as: "creator",
      form: {
        version,
        claimantName: "Cara Creator",
        dailyAmount: "250",
        r1Name: "Officer Example",
        r1Type: "Official",
      },
    });
    await saved.arrayBuffer();
    expect(saved.status, `saving round 1 of ${version}`).toBe(302);
    const list = await notices();
    const notice = list.find((n) => n.notice_cf.cf_version === version);
    if (!notice) throw new Error(`no notice for ${version}`);
    return { cf_number: notice.notice_cf.cf_number, cf_version: version, round_cnt: 1 };
  };

  type Notice = {
    notice_id: number;
    notice_cf: { cf_number: number; cf_version: string };
    notarize: null | { nz_id: string | null; nz_status: string | null };
  };
  const notices = async () => {
    const response = await request("/api/nol/notices?cause_code=TS", { as: "creator" });
    return ((await response.json()) as { list: Notice[] }).list;
  };
  const noticeOf = async (version: string) => (await notices()).find((n) => n.notice_cf.cf_version === version);

  const notarize = (ids: object) => request("/api/nol/notarize", { as: "creator", json: ids });

  /** A notice sent to Proof: its transaction's id. */
  const notarized = async (version: string) => {
    const response = await notarize(await roundOne(version));
    const body = (await response.json()) as { notice?: { notarize?: { nz_id?: string } } };
    const nzId = body.notice?.notarize?.nz_id;
    if (response.status !== 200 || !nzId) throw new Error(`notarizing ${version}: ${JSON.stringify(body)}`);
    return nzId;
  };

  /** A webhook delivery as Proof sends it: signed with its key, or not signed at all. */
  const deliverProof = (body: unknown, { secret = PROOF_WEBHOOK_SECRET, signed = true } = {}) => {
    const { rawBody, headers } = signedDelivery(body, secret);
    if (!signed) headers.delete("x-notarize-signature");
    return fetch(`${server.url}/api/webhooks/notary`, { method: "POST", headers, body: rawBody }).catch(ended);
  };

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    proof = await startProofStandIn();
    const markAt = Date.now() + POLL_MARK_AFTER_START_MS;
    clockOffsetMs = (POLL_EVERY_MS - (markAt % POLL_EVERY_MS)) % POLL_EVERY_MS;
    server = await startServer({
      env: {
        NODE_OPTIONS: `--import=${SHIFTED_CLOCK}`,
        CLOCK_OFFSET_MS: String(clockOffsetMs),
        ...stripeEnv(stripe),
        ...proofEnv(proof),
      },
    });
    await logIn("creator");
    polled = { nzId: await notarized("Polled by the runner"), notarizedAt: serverNow() };
    for (const role of ["admin", "member", "newbie"] as const) await logIn(role);
  });
  afterAll(async () => {
    await server?.stop();
    await stripe?.close();
    await proof?.close();
  });

  describe("Stripe's webhook", () => {
    const payload = JSON.stringify({ id: "evt_unsigned", object: "event", type: "ping", created: 1, data: {} });

    it.each([
      ["no Stripe-Signature", () => null],
      ["a signature made with another secret", () => signStripe(payload, { secret: "whsec_not_the_endpoints_secret" })],
      ["a signature made 600 s ago (past the 300 s tolerance)", () => signStripe(payload, { ageSeconds: 600 })],
    ])("refuses a delivery with %s: 400 with a JSON error", async (_what, signature) => {
      const response = await postStripe(payload, signature());
      const text = await response.text();
      expect(response.status, gist(text)).toBe(400);
      expect(response.headers.get("content-type")).toContain("application/json");
      expect((JSON.parse(text) as { error?: string }).error).toBe(
        "The Stripe-Signature header does not match this event",
      );
    });

    describe("a payment's signed events", () => {
      let delivery: string;

      it("applies a correctly signed payment_intent.succeeded: 200, and the job runner mails its receipt", async () => {
        const paymentsBefore = await rows("payments");
        const started = await pay("member", { planId: "donation", amount: "25" });
        expect(started.response.status, gist(started.text)).toBe(302);
        delivery = JSON.stringify(stripe.event("payment_intent.succeeded", paidIntent(started.attempt)));

        const response = await postStripe(delivery, signStripe(delivery));
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ received: true, duplicate: false });
        const made = (await rows("payments")).filter((row) => !paymentsBefore.some((known) => known.id === row.id));
        expect(made).toMatchObject([
          { email: "member@memberhall.example", kind: "donation", amountCents: 2500, status: "succeeded" },
        ]);
        await waitFor(
          () => rows("mail_outbox"),
          (outbox) =>
            outbox.some(
              (mail) => mail.to === "member@memberhall.example" && /^Your receipt/.test(String(mail.subject)),
            ),
          Date.now() + 30_000,
          "the receipt in the outbox",
        );
      });

      it("answers the same event delivered again with 200 and changes nothing", async () => {
        const before = [await rows("payments"), await rows("mail_outbox"), await rows("webhook_events")];
        const response = await postStripe(delivery, signStripe(delivery));
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ received: true, duplicate: true });
        expect([await rows("payments"), await rows("mail_outbox"), await rows("webhook_events")]).toEqual(before);
      });
    });
  });

  describe("paying while Stripe fails", () => {
    const failures = [
      ["answers 500", "server"],
      ["drops the connection", "network"],
    ] as const;

    /** Each way to start paying: the page's form, and the Stripe request that would carry the charge. */
    const flows = [
      {
        what: "a member subscribing on /subscription",
        start: async () => pay("newbie", { planId: "monthly" }),
        stripePath: "/v1/subscriptions",
      },
      {
        what: "a member donating",
        start: async () => pay("member", { planId: "donation", amount: "25" }),
        stripePath: "/v1/payment_intents",
      },
      {
        what: "a member buying a notarize credit",
        start: async () => pay("member", { planId: "notarize-credit" }),
        stripePath: "/v1/payment_intents",
      },
      {
        what: "a new member at setup's membership step",
        start: async () => {
          const attempt = await attemptOf("/setup/membership", "routes/setup.($code)", "newbie");
          const response = await request("/setup/membership", {
            as: "newbie",
            form: { attempt, planId: "monthly" },
          });
          return { attempt, response, text: await response.text() };
        },
        stripePath: "/v1/subscriptions",
      },
    ];

    beforeAll(async () => {
      // The newbie's profile step is behind them: /setup/membership is the step to take.
      const response = await request("/setup/profile", { as: "newbie", form: { name: "Demo Newbie", country: "US" } });
      await response.arrayBuffer();
      expect(response.headers.get("location")).toBe("/setup/membership");
    });

    describe.each(flows)("$what", ({ start, stripePath }) => {
      it.each(failures)(
        "shows the clear message when Stripe %s, and records nothing as paid",
        async (_what, failure) => {
          const before = await paidRecords();
          const tries = stripe.callsTo("POST", stripePath).length;
          stripe.failNext(failure, { times: STRIPE_TRIES, path: stripePath });

          const { response, text } = await start();

          expect(stripe.callsTo("POST", stripePath).length - tries, "Stripe was asked, and asked again").toBe(
            STRIPE_TRIES,
          );
          expect(response.status, gist(text)).toBe(503);
          expect(text).toContain(PAYMENTS_DOWN);
          expect(await paidRecords()).toEqual(before);
        },
      );
    });

    it("shows 'Your card was declined.' when Stripe declines the card as the subscription is made", async () => {
      const before = await paidRecords();
      stripe.failNext("decline", { path: "/v1/subscriptions" });

      const { response, text } = await pay("newbie", { planId: "monthly" });

      expect(response.status, gist(text)).toBe(400);
      expect(text).toContain(DECLINED);
      expect(await paidRecords()).toEqual(before);
    });

    it("shows a member in Chromium the clear message on the page when Stripe answers 500", async () => {
      const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
      try {
        const context = await browser.newContext({ baseURL: server.url });
        const left: string[] = [];
        // Nothing leaves the machine: Stripe.js and any other outside address are refused here.
        await context.route(
          (url) => url.origin !== server.url,
          (route) => {
            left.push(route.request().url());
            return route.abort("blockedbyclient");
          },
        );
        const [name, value] = cookies.newbie.split("=") as [string, string];
        await context.addCookies([{ name, value, url: server.url, httpOnly: true, sameSite: "Lax" }]);
        const page = await context.newPage();
        const statuses: number[] = [];
        page.on("response", (response) => {
          if (response.url().startsWith(server.url)) statuses.push(response.status());
        });
        await page.goto("/subscription");
        await page.getByLabel(/^Monthly membership/).check();
        stripe.failNext("server", { times: STRIPE_TRIES, path: "/v1/subscriptions" });
        const [answer] = await Promise.all([
          page.waitForResponse((response) => response.request().method() === "POST"),
          page.getByRole("button", { name: "Continue to payment" }).click(),
        ]);

        expect(answer.status(), "the form's answer").toBe(503);
        await page.getByText(PAYMENTS_DOWN).waitFor({ timeout: 10_000 });
        expect(await page.getByRole("heading", { level: 1 }).first().textContent()).toContain("Membership");
        expect(statuses.filter((status) => status >= 500 && status !== 503)).toEqual([]);
        expect(left.filter((url) => !url.startsWith("data:"))).toEqual([]);
      } finally {
        await browser.close();
      }
    });
  });

  describe("notarizing while Proof fails", () => {
    it.each([
      ["answers 500", "server"],
      ["drops the connection", "network"],
    ] as const)(
      "answers a notarize with 503 and the clear JSON error when Proof %s; nothing is lost",
      async (_what, failure) => {
        const version = `Proof ${failure}`;
        const ids = await roundOne(version);
        proof.failNext(failure, { path: "/v1/transactions" });

        const response = await notarize(ids);
        const text = await response.text();

        expect(response.status, gist(text)).toBe(503);
        expect(response.headers.get("content-type")).toContain("application/json");
        expect((JSON.parse(text) as { error?: string }).error).toBe(NOTARY_DOWN);
        const notice = await noticeOf(version);
        expect(notice, "the notice is still there").toBeDefined();
        expect(notice!.notarize).toBeNull();
      },
    );

    describe("a transaction the signer completed", () => {
      let nzId: string;
      const version = "Completed at Proof";

      beforeAll(async () => {
        nzId = await notarized(version);
        proof.complete(nzId);
      });

      it("applies Proof's correctly signed transaction.completed: 200", async () => {
        const response = await deliverProof({
          event: "transaction.completed",
          data: { transaction_id: nzId, date_occurred: new Date().toISOString() },
        });
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({ received: true, duplicate: false });
        expect((await noticeOf(version))!.notarize).toMatchObject({ nz_id: nzId, nz_status: "completed" });
      });

      it.each([
        ["a signature made with another key", true, "The delivery's signature does not match its body"],
        ["no X-Notarize-Signature", false, "The delivery has no X-Notarize-Signature header"],
      ])("refuses Proof's webhook with %s: 400 with a JSON error, nothing applied", async (_what, signed, error) => {
        const before = await rows("webhook_events");
        const response = await deliverProof(
          { event: "transaction.deleted", data: { transaction_id: nzId } },
          { secret: "not-the-webhook-signing-key-0000000000", signed },
        );
        const text = await response.text();
        expect(response.status, gist(text)).toBe(400);
        expect((JSON.parse(text) as { error?: string }).error).toBe(error);
        expect(await rows("webhook_events")).toEqual(before);
        expect((await noticeOf(version))!.notarize).toMatchObject({ nz_id: nzId, nz_status: "completed" });
      });

      it("answers a refresh with 503 when Proof does not answer in time (10 s); the notarization stays", async () => {
        const asked = proof.callsTo("GET", `/v1/transactions/${nzId}`).length;
        proof.failNext("timeout", { path: `/v1/transactions/${nzId}` });
        const response = await request(`/api/nol/notarize/refresh/${nzId}`, { as: "creator", method: "POST" });
        const text = await response.text();
        expect(proof.callsTo("GET", `/v1/transactions/${nzId}`)).toHaveLength(asked + 1);
        expect(response.status, gist(text)).toBe(503);
        expect((JSON.parse(text) as { error?: string }).error).toBe(NOTARY_DOWN);
        expect((await noticeOf(version))!.notarize).toMatchObject({ nz_id: nzId, nz_status: "completed" });
      }, 30_000);

      it("answers a delete Proof refuses (already completed, 422) with 400 and Proof's reason; the notarization stays", async () => {
        const response = await request(`/api/nol/notarize/${nzId}`, { as: "creator", method: "DELETE" });
        const text = await response.text();
        expect(proof.callsTo("DELETE", `/v1/transactions/${nzId}`)).toHaveLength(1);
        expect(response.status, gist(text)).toBe(400);
        expect((JSON.parse(text) as { error?: string }).error).toBe(
          "Transaction has already been completed by at least 1 signer.",
        );
        expect((await noticeOf(version))!.notarize).toMatchObject({ nz_id: nzId, nz_status: "completed" });
        expect(proof.transactions.has(nzId)).toBe(true);
      });
    });
  });

  it(
    "polls Proof for an open notarization from the job runner, at a five-minute mark",
    async () => {
      const path = `/v1/transactions/${polled.nzId}`;
      // pg-boss counts a cron line due only within 60 s of its mark; a machine too busy to look
      // in that minute waits for the next mark, which still polls.
      const firstMark = Math.ceil(polled.notarizedAt / POLL_EVERY_MS) * POLL_EVERY_MS;
      const deadline = firstMark + POLL_EVERY_MS + POLL_LATENESS_MS - clockOffsetMs;
      try {
        await waitFor(
          async () => {
            if (server.process.exitCode !== null || server.process.signalCode !== null) ended(new Error("gone"));
            return proof.callsTo("GET", path).length;
          },
          (n) => n > 0,
          deadline,
          `GET ${path} by ${new Date(deadline).toISOString()}`,
        );
      } catch (error) {
        const jobs = await request("/admin/jobs?_data=routes%2Fadmin_.jobs", { as: "admin" });
        const { recent } = (await jobs.json()) as { recent: Array<{ name: string }> };
        const polls = recent.filter((job) => job.name === "notary-poll");
        throw new Error(`${(error as Error).message}; the runner's notary-poll jobs: ${JSON.stringify(polls)}`);
      }
    },
    2 * POLL_EVERY_MS + POLL_LATENESS_MS + 30_000,
  );
});
