import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MAIL_PAGE_ADDRESSES, ROUND_ONE_FIELDS } from "../helpers/mailings";
import { logInAs, startServer, type RunningServer } from "../helpers/server";
import { lobEnv, startLobStandIn, type LobStandIn } from "../helpers/standins";
import { LOB_API_KEY, signedDelivery } from "../mocks/lob";

/**
 * "Mail it for me" on the shipped server with MAILHOUSE=lob against a stand-in of Lob's API
 * over a socket: the addresses verified, one certified letter per respondent made with the key
 * and an Idempotency-Key (also when the pay form is sent twice and Lob fails once), Lob's
 * signed webhooks applied once and a forged one refused, Lob down answered in words.
 */

const VERSION = "Lob served";
const PAGE = `/nol/creator/traffic-stop/mail?version=${encodeURIComponent(VERSION)}`;
const DATA = `${PAGE}&_data=${encodeURIComponent("routes/nol.$form.$cause.mail")}`;
const MAIL_HOUSE_DOWN =
  "The mail house cannot be reached just now: nothing was sent or charged. Try again in a few minutes.";

type PageData = {
  stage: string;
  next: string;
  ready: boolean;
  attempt: string;
  recipients: { slot: number; blocker: string | null; suggestion: string[] | null }[];
  letters: { slot: number; state: string; trackingNumber: string | null }[];
};

describe("mailing a round from the app with MAILHOUSE=lob", () => {
  let lob: LobStandIn;
  let server: RunningServer;
  const cookies: Record<string, string> = {};

  const post = (who: string, pathname: string, form: Record<string, string>) =>
    fetch(`${server.url}${pathname}`, {
      method: "POST",
      headers: { cookie: cookies[who]!, origin: server.url },
      body: new URLSearchParams(form),
      redirect: "manual",
    });
  const page = async () =>
    (await (await fetch(`${server.url}${DATA}`, { headers: { cookie: cookies.creator! } })).json()) as PageData;
  const webhook = (body: string, headers: Headers) =>
    fetch(`${server.url}/api/webhooks/mailhouse`, { method: "POST", headers, body });

  // The officer's address as typed, for Lob to verify as it stands.
  const addresses = { ...MAIL_PAGE_ADDRESSES, "to.1.line1": "1 Precinct Way", "to.1.city": "Springfield" };

  beforeAll(async () => {
    lob = await startLobStandIn();
    server = await startServer({ env: lobEnv(lob) });
    cookies.admin = await logInAs(server.url, "admin");
    cookies.creator = await logInAs(server.url, "creator");
    // The community pays for the envelopes here: the letters go as soon as they are confirmed.
    const settings = await post("admin", "/admin/settings?form=mailing", {
      intent: "mailing",
      perEnvelope: "0",
      lostAfterDays: "10",
    });
    expect(settings.status).toBe(302);
    const notice = await post("creator", `/nol/creator/traffic-stop/notice?version=${encodeURIComponent(VERSION)}`, {
      version: VERSION,
      ...ROUND_ONE_FIELDS,
    });
    expect(notice.status).toBe(302);
    // The member signs the notice the letters carry, with the sign page's plain form.
    const signed = await post(
      "creator",
      `/nol/creator/traffic-stop/sign?version=${encodeURIComponent(VERSION)}&round=1`,
      {
        method: "typed",
        name: "Cara Creator",
        consent: "on",
        onDownload: "signed",
      },
    );
    expect(signed.status).toBe(302);
  });
  afterAll(async () => {
    await server?.stop();
    await lob?.close();
  });

  it("says the mail house is down when Lob fails the verification, and keeps nothing", async () => {
    lob.failNext("server", { path: "/v1/us_verifications" });
    const down = await post("creator", PAGE, addresses);
    expect(down.status).toBe(503);
    expect((await down.text()).replaceAll("<!-- -->", "")).toContain(MAIL_HOUSE_DOWN);
    expect((await page()).recipients.every((r) => r.blocker === "Check this address before paying.")).toBe(true);
  });

  it("verifies the addresses, then makes one letter per respondent with the key and an Idempotency-Key, also through Lob's 500 and a double submit", async () => {
    const checked = await post("creator", PAGE, addresses);
    expect(checked.status).toBe(302);
    expect(lob.callsTo("POST", "/v1/us_verifications").length).toBeGreaterThanOrEqual(2);
    const ready = await page();
    expect(ready.ready).toBe(true);
    // Lob writes "2 Court Street" as "2 COURT ST": the member's confirmation takes Lob's.
    expect(ready.recipients[1]!.suggestion?.[1]).toBe("2 COURT ST");

    lob.failNext("server", { path: "/v1/letters" });
    const pay = { intent: "pay", attempt: ready.attempt, "confirm.1": "on", "confirm.2": "on" };
    const answers = await Promise.all([post("creator", PAGE, pay), post("creator", PAGE, pay)]);
    expect(answers.map((a) => a.status)).toEqual([302, 302]);
    // The job sends; the letter Lob failed is sent again, under the same key, on the job's next try.
    await vi.waitFor(() => expect(lob.letters.size).toBe(2), { timeout: 45_000, interval: 250 });
    const creates = lob.callsTo("POST", "/v1/letters");
    expect(creates.every((call) => call.user === LOB_API_KEY && Boolean(call.idempotencyKey))).toBe(true);
    expect(new Set(creates.map((call) => call.idempotencyKey)).size).toBe(2);
    expect(creates.length).toBe(3);
    await vi.waitFor(async () =>
      expect((await page()).letters.map((l) => [l.slot, l.state, /^\d{20,22}$/.test(l.trackingNumber ?? "")])).toEqual([
        [1, "created", true],
        [2, "created", true],
      ]),
    );
  });

  it("refuses a forged webhook with 400 and applies Lob's signed events once: delivered, the round is proven", async () => {
    const [first, second] = [...lob.letters.keys()];
    const forged = signedDelivery(lob.event(first!, "letter.certified.delivered"), { secret: "not-lob's-secret" });
    expect((await webhook(forged.rawBody, forged.headers)).status).toBe(400);
    expect((await page()).letters.map((l) => l.state)).toEqual(["created", "created"]);

    for (const id of [first!, second!]) {
      for (const type of ["letter.certified.mailed", "letter.certified.delivered"]) {
        const delivery = signedDelivery(lob.event(id, type));
        expect((await webhook(delivery.rawBody, delivery.headers)).status).toBe(200);
        // Lob delivers again: the same event changes nothing.
        expect((await webhook(delivery.rawBody, delivery.headers)).status).toBe(200);
      }
    }
    const after = await page();
    expect(after.letters.map((l) => l.state)).toEqual(["delivered", "delivered"]);
    expect(after.next).toBe("Round 2 Notice of Fault");
  });
});
