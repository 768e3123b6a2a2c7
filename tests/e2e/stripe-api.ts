import http from "node:http";
import { getResponse } from "msw";
import { freePort } from "../helpers/server";
import {
  FakeStripe,
  STRIPE_PUBLISHABLE_KEY,
  STRIPE_SECRET_KEY,
  STRIPE_WEBHOOK_SECRET,
  stripeHandlers,
} from "../mocks/stripe";

/** What a built server needs to run with Stripe against the stand-in at `url`. */
export const stripeEnv = (url: string): Record<string, string> => ({
  PAYMENTS: "stripe",
  STRIPE_SECRET_KEY,
  STRIPE_PUBLISHABLE_KEY,
  STRIPE_WEBHOOK_SECRET,
  STRIPE_API_BASE: url,
});

/**
 * The integration tests' fake Stripe (tests/mocks/stripe.ts) served on a local socket, so
 * that a built server configured with PAYMENTS=stripe calls it through STRIPE_API_BASE and
 * no request leaves the machine.
 */
export async function startStripeApi(): Promise<{ url: string; fake: FakeStripe; close(): Promise<void> }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const fake = new FakeStripe();
  const handlers = stripeHandlers(url, fake);
  const server = http.createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
      const hasBody = req.method !== "GET" && req.method !== "HEAD" && chunks.length > 0;
      const request = new Request(new URL(req.url ?? "/", url), {
        method: req.method,
        headers,
        body: hasBody ? Buffer.concat(chunks) : undefined,
      });
      const response = await getResponse(handlers, request);
      if (!response || response.type === "error") {
        res.destroy();
        return;
      }
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url,
    fake,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
