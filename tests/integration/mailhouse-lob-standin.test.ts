import { http, passthrough } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { lobMailHouse } from "~/providers/mailhouse/lob.server";
import { MailHouseUnavailable, type SendLetterInput } from "~/providers/mailhouse/types";
import { lobEnv, startLobStandIn, type LobStandIn } from "../helpers/standins";
import { LOB_API_KEY, LOB_WEBHOOK_SECRET } from "../mocks/lob";
import { mockServer } from "../mocks/server";

/** The Lob adapter over a real socket, as the built server meets the stand-in with MAILHOUSE=lob. */

let standIn: LobStandIn;

beforeAll(async () => {
  standIn = await startLobStandIn();
});
afterAll(async () => {
  await standIn?.close();
});
beforeEach(() => {
  standIn.reset();
  // This process's msw would answer for any host; the stand-in's requests go out on the socket.
  mockServer.use(http.all(`${standIn.url}/*`, () => passthrough()));
});

const address = { name: "Officer Dana Reyes", line1: "1 Precinct Way", city: "Springfield", state: "IL", zip: "62701" };
const input: SendLetterInput = {
  pdf: new TextEncoder().encode("%PDF-1.7\n%%EOF\n"),
  from: { ...address, name: "Ada Lovelace", country: "US" },
  to: { ...address, country: "US" },
  description: "Notice, round 1",
  idempotencyKey: "mailing-over-a-socket",
  metadata: {},
};

describe("the Lob stand-in", () => {
  it("takes the multipart letter with Basic auth and the Idempotency-Key, and keeps a retry to one letter", async () => {
    expect(lobEnv(standIn)).toEqual({
      MAILHOUSE: "lob",
      LOB_API_KEY,
      LOB_WEBHOOK_SECRET,
      LOB_API_URL: standIn.url,
    });
    const mailhouse = lobMailHouse({
      lobApiKey: LOB_API_KEY,
      lobWebhookSecret: LOB_WEBHOOK_SECRET,
      lobApiUrl: standIn.url,
    });
    const first = await mailhouse.sendLetter(input);
    const again = await mailhouse.sendLetter(input);
    expect(again.id).toBe(first.id);
    expect(standIn.letters.size).toBe(1);
    expect(standIn.calls[0]).toMatchObject({ user: LOB_API_KEY, idempotencyKey: "mailing-over-a-socket" });
    expect(standIn.calls[0]!.file!.bytes.equals(Buffer.from(input.pdf))).toBe(true);
  });

  it("hangs up, or stays silent, as a test asks: the adapter reads both as the mail house unavailable", async () => {
    const mailhouse = lobMailHouse(
      { lobApiKey: LOB_API_KEY, lobWebhookSecret: LOB_WEBHOOK_SECRET, lobApiUrl: standIn.url },
      { timeoutMs: 200 },
    );
    for (const failure of ["network", "timeout", "server"] as const) {
      standIn.failNext(failure);
      await expect(mailhouse.getLetter("ltr_0000000000000000")).rejects.toBeInstanceOf(MailHouseUnavailable);
    }
  });
});
