import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "./components/nonce";
import { redactUrl } from "./domain/requests";
import { noteDatabaseUnavailable } from "./lib/database-unavailable.server";
import { runServerProcess } from "./server/main.server";
import { onBareBoot } from "./services/app.server";
import { startJobs } from "./services/jobs.server";

/**
 * The production server itself comes from here: server.ts loads the build and starts it
 * through this export, so the server and the routes share one copy of every module.
 */
export { runServerProcess };
export type ServerEntry = { runServerProcess: typeof runServerProcess };

// A bare `remix-serve build/index.js` runs the background jobs too (mail, receipts, the notary's polling).
onBareBoot((services) => startJobs(services));

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  // Crawlers and no-JS clients get the whole document at once; browsers get it streamed.
  const readyEvent = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered)
            loadContext.app?.logger.error({ err: error, requestId: loadContext.requestId }, "render failed");
        },
      },
    );
    setTimeout(abort, streamTimeout + 1_000);
  });
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
