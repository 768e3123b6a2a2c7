import { AsyncLocalStorage } from "node:async_hooks";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { getResponse, type RequestHandler } from "msw";
import { FakeLob, LOB_API_KEY, LOB_WEBHOOK_SECRET, lobHandlers } from "../mocks/lob";
import { FakeProof, PROOF_API_KEY, PROOF_WEBHOOK_SECRET, proofHandlers } from "../mocks/proof";
import {
  FakeStripe,
  STRIPE_PUBLISHABLE_KEY,
  STRIPE_SECRET_KEY,
  STRIPE_WEBHOOK_SECRET,
  stripeHandlers,
} from "../mocks/stripe";

/**
 * Stripe's, Proof's and Lob's HTTP APIs on real sockets, for a server in another process: the
 * in-memory fakes of tests/mocks answer, through their msw handlers, at the stand-in's own
 * address. A dropped connection is a destroyed socket and a request that times out is never
 * answered, as the adapters meet them in production; the fake in this process is the
 * stand-in's state, which a test reads and breaks (`stripe.failNext("server")`).
 */

type Exchange = { failure: string | undefined };

export type StandIn<Fake> = Fake & {
  /** Where the stand-in listens: http://127.0.0.1:{port}. */
  readonly url: string;
  close(): Promise<void>;
};

export type StripeStandIn = StandIn<FakeStripe>;
export type ProofStandIn = StandIn<FakeProof>;
export type LobStandIn = StandIn<FakeLob>;

function toRequest(url: string, incoming: http.IncomingMessage, body: Buffer): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  const method = incoming.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD" && body.length > 0;
  return new Request(url, { method, headers, body: hasBody ? new Uint8Array(body) : undefined });
}

async function standIn<Fake extends { receive(call: never): string | undefined }>(
  fake: Fake,
  handlersAt: (base: string) => RequestHandler[],
): Promise<StandIn<Fake>> {
  const exchanges = new AsyncLocalStorage<Exchange>();
  // The failure a request meets is taken inside the fake's handler: the stand-in needs it too,
  // to hang up or to stay silent where a handler can only answer.
  const receive = fake.receive.bind(fake) as (call: never) => string | undefined;
  Object.assign(fake, {
    receive(call: never) {
      const failure = receive(call);
      const exchange = exchanges.getStore();
      if (exchange) exchange.failure = failure;
      return failure;
    },
  });

  let handlers: RequestHandler[] = [];
  let base = "";
  const server = http.createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const exchange: Exchange = { failure: undefined };
      const request = toRequest(`${base}${incoming.url ?? "/"}`, incoming, Buffer.concat(chunks));
      void exchanges
        .run(exchange, () => getResponse(handlers, request))
        .then(async (response) => {
          if (exchange.failure === "timeout") return;
          if (exchange.failure === "network" || !response || response.type === "error") {
            incoming.socket.destroy();
            return;
          }
          const body = Buffer.from(await response.arrayBuffer());
          const headers: Record<string, string> = {};
          response.headers.forEach((value, name) => (headers[name] = value));
          headers["content-length"] = String(body.length);
          outgoing.writeHead(response.status, headers);
          outgoing.end(body);
        })
        .catch(() => incoming.socket.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  handlers = handlersAt(base);

  return Object.assign(fake, {
    url: base,
    close: () =>
      new Promise<void>((resolve) => {
        // A request left unanswered on purpose holds its connection open.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** A Stripe API on 127.0.0.1, for STRIPE_API_BASE. */
export function startStripeStandIn(fake = new FakeStripe()): Promise<StripeStandIn> {
  return standIn(fake, (base) => stripeHandlers(base, fake));
}

/** A Proof API on 127.0.0.1, for PROOF_API_BASE (its handlers add /v1). */
export function startProofStandIn(fake = new FakeProof()): Promise<ProofStandIn> {
  return standIn(fake, (base) => proofHandlers(base, fake));
}

/** A Lob API on 127.0.0.1, for LOB_API_URL (its handlers add /v1). */
export function startLobStandIn(fake = new FakeLob()): Promise<LobStandIn> {
  return standIn(fake, (base) => lobHandlers(base, fake));
}

/** What the built server needs to run with the Stripe adapter against the stand-in. */
export const stripeEnv = (standIn: { url: string }): Record<string, string> => ({
  PAYMENTS: "stripe",
  STRIPE_SECRET_KEY,
  STRIPE_PUBLISHABLE_KEY,
  STRIPE_WEBHOOK_SECRET,
  STRIPE_API_BASE: standIn.url,
});

/** What the built server needs to run with the Proof adapter against the stand-in. */
export const proofEnv = (standIn: { url: string }): Record<string, string> => ({
  NOTARY: "proof",
  PROOF_API_KEY,
  PROOF_WEBHOOK_SECRET,
  PROOF_API_BASE: standIn.url,
});

/** What the built server needs to run with the Lob adapter against the stand-in. */
export const lobEnv = (standIn: { url: string }): Record<string, string> => ({
  MAILHOUSE: "lob",
  LOB_API_KEY,
  LOB_WEBHOOK_SECRET,
  LOB_API_URL: standIn.url,
});
