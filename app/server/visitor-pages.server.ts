import type { Response as ExpressResponse } from "express";
import { keepsRenderedPage } from "~/domain/visitor-pages";
import { cspNonce } from "~/lib/crypto.server";

/**
 * The rendered copies of the pages every visitor gets the same (app/domain/visitor-pages.ts),
 * kept by one server. A page is rendered with a stand-in for the nonce and kept cut at each
 * place the stand-in stood; every answer puts its own nonce there, so the content security
 * policy still names a nonce used once, and nothing is rendered again
 * (docs/decisions/053-visitor-pages-kept.md).
 *
 * A copy is good while the reference cache heard no change since its render began (the
 * reference tables' notifications: plans, causes, settings…, whoever changed them, on any
 * server) and for a minute at most. While the notifications are not heard nothing is kept.
 */

const TTL_MS = 60_000;
/** Kept copies at most: a full cache starts again, as queries come from outside. */
const KEPT_MAX = 200;

/** What of the reference cache tells whether a copy may still be good. */
export type ChangesHeard = { readonly keeping: boolean; readonly changes: number };

type KeptPage = {
  status: number;
  headers: Array<[string, string]>;
  /** The page cut where its nonce goes. */
  parts: Buffer[];
  changes: number;
  until: number;
};

/** A rendered answer, as the router gave it, with the queries its render sent. */
export type Rendered = { response: Response; queries: number };

export type VisitorPages = {
  /** The nonce a page to be kept is rendered with: put in place of each answer's own. */
  readonly standIn: string;
  /**
   * Answers `res` with the kept copy under `key`, if a good one is kept (`beforeWrite` then sets
   * what else the answer says, before it goes out); whether it did.
   */
  serveKept(key: string, res: ExpressResponse, nonce: string, beforeWrite?: () => void): boolean;
  /**
   * The page `render` makes (with the stand-in nonce), as the answer with `nonce`: kept under
   * `key` when it may be and no change was heard while it rendered.
   */
  render(key: string, nonce: string, render: () => Promise<Rendered>): Promise<Response>;
  readonly size: number;
};

export function createVisitorPages(
  reference: ChangesHeard,
  options: { now?: () => number; ttlMs?: number; keptMax?: number; onServed?: (kept: boolean) => void } = {},
): VisitorPages {
  const now = options.now ?? Date.now;
  const ttl = options.ttlMs ?? TTL_MS;
  const keptMax = options.keptMax ?? KEPT_MAX;
  const standIn = cspNonce();
  const kept = new Map<string, KeptPage>();

  const good = (page: KeptPage) => reference.keeping && page.changes === reference.changes && page.until > now();

  return {
    standIn,
    serveKept(key, res, nonce, beforeWrite) {
      const page = kept.get(key);
      if (!page) return false;
      if (!good(page)) {
        kept.delete(key);
        return false;
      }
      const body = withNonce(page.parts, nonce);
      beforeWrite?.();
      res.status(page.status);
      for (const [name, value] of page.headers) res.append(name, value);
      res.setHeader("Content-Length", body.byteLength);
      res.end(body);
      options.onServed?.(true);
      return true;
    },
    async render(key, nonce, render) {
      const changes = reference.changes;
      const keeping = reference.keeping;
      const { response, queries } = await render();
      options.onServed?.(false);
      const page = {
        status: response.status,
        contentType: response.headers.get("Content-Type"),
        setsCookie: response.headers.has("Set-Cookie"),
        queries,
      };
      // Any page rendered with the stand-in gets the answer's nonce, kept or not (a page that
      // set a cookie, an error page); an answer that is no page has no nonce in it.
      if (!response.body || !(page.contentType ?? "").toLowerCase().startsWith("text/html")) return response;
      const parts = cutAt(Buffer.from(await response.arrayBuffer()), standIn);
      const headers = [...response.headers.entries()].filter(([name]) => name.toLowerCase() !== "content-length");
      if (keepsRenderedPage(page) && keeping && reference.keeping && changes === reference.changes) {
        if (kept.size >= keptMax) kept.clear();
        kept.set(key, { status: response.status, headers, parts, changes, until: now() + ttl });
      }
      return new Response(new Uint8Array(withNonce(parts, nonce)), { status: response.status, headers });
    },
    get size() {
      return kept.size;
    },
  };
}

/** `page` cut at each place `standIn` stands in it. */
function cutAt(page: Buffer, standIn: string): Buffer[] {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = page.indexOf(standIn); at !== -1; at = page.indexOf(standIn, from)) {
    parts.push(page.subarray(from, at));
    from = at + standIn.length;
  }
  parts.push(page.subarray(from));
  return parts;
}

/** The page whose parts are `parts`, with `nonce` between each two. */
function withNonce(parts: Buffer[], nonce: string): Buffer {
  if (parts.length === 1) return parts[0]!;
  const joiner = Buffer.from(nonce);
  const pieces: Buffer[] = [];
  parts.forEach((part, i) => {
    if (i > 0) pieces.push(joiner);
    pieces.push(part);
  });
  return Buffer.concat(pieces);
}
