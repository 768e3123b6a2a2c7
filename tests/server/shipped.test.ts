import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProofStandIn, startStripeStandIn, type ProofStandIn, type StripeStandIn } from "../helpers/standins";
import { PROOF_API_KEY } from "../mocks/proof";
import { STRIPE_SECRET_KEY } from "../mocks/stripe";

/**
 * The server as it ships: dist/server.js and its Remix build, with the real Stripe and Proof
 * adapters talking over sockets to local stand-ins of both APIs. A provider's refusal or
 * outage must reach the member as the clear answer the in-process tests see, never as a 500.
 */

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
