import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { NonceProvider } from "./components/nonce";
import { redactUrl } from "./domain/requests";
import { noteDatabaseUnavailable } from "./lib/database-unavailable.server";
import { runServerProcess } from "./server/main.server";
import { keepServerRoutes } from "./server/server-routes.server";
import { nextTurn } from "./server/turns.server";
import { onBareBoot } from "./services/app.server";
import { startJobs } from "./services/jobs.server";

/**
 * The production server itself comes from here: server.ts loads the build and starts it
 * through this export, so the server and the routes share one copy of every module.
 */
export { runServerProcess };
export type ServerEntry = { runServerProcess: typeof runServerProcess };

keepServerRoutes();

// A bare `remix-serve build/index.js` runs the background jobs too (mail, receipts, the notary's polling).
onBareBoot((services) => startJobs(services));

/**
 * The document, rendered whole. No page waits on the server for anything once its loaders
 * have answered (no deferred data; the one view loaded lazily, Stripe's card form, renders in
 * the browser), so streaming would send the same document in pieces: rendering it to a
 * string costs the server about a quarter less for each page (React's streaming renderer
 * encodes each piece of markup into bytes on its own). A page that comes to defer data
 * would need the streaming renderer back (docs/decisions/033-pages-rendered-whole.md).
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // The render waits for its turn (app/server/turns.server.ts).
  await nextTurn();
  const nonce = loadContext.cspNonce;
  const html = renderToString(
    <NonceProvider value={nonce}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </NonceProvider>,
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // As bytes: a string body would be checked for lone surrogates and encoded on its way in.
  return new Response(Buffer.from(`<!DOCTYPE html>${html}`), { headers: responseHeaders, status: responseStatusCode });
}

export function handleError(error: unknown, { request, context }: { request: Request; context: AppLoadContext }) {
  noteDatabaseUnavailable(context, error);
  // Aborted requests and 4xx answers (a missing page, a bad parameter) are not faults.
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  context.app?.logger.error(
    { err: error, requestId: context.requestId, url: redactUrl(request.url) },
    "request failed",
  );
}
