import type { Response as ExpressResponse } from "express";
import { keepsRenderedPage, keptKind } from "~/domain/kept-pages";
import { cspNonce } from "~/lib/crypto.server";

/**
 * The rendered copies of pages kept by one server (app/domain/kept-pages.ts): the pages every
 * visitor gets the same (docs/decisions/053-visitor-pages-kept.md) and a signed-in member's own
 * (docs/decisions/056-member-pages-kept.md). A page is rendered with a stand-in for the nonce
 * and kept cut at each place the stand-in stood; every answer puts its own nonce there, so the
 * content security policy still names a nonce used once, and nothing is rendered again.
 *
 * A copy is good while the reference cache heard no change since its render began (the
 * reference tables' notifications: plans, causes, settings…, whoever changed them, on any
 * server), while every kept value its render read is still the one kept (the member's viewer,
 * the owner's entries…: each cache drops a value when its notification comes), and for its
 * time at most. While the notifications are not heard nothing is kept.
 */

/** What of the reference cache tells whether a copy may still be good. */
export type ChangesHeard = { readonly keeping: boolean; readonly changes: number };

type KeptPage = {
  status: number;
  headers: Array<[string, string]>;
  /** The page cut where its nonce goes. */
  parts: Buffer[];
  bytes: number;
  /** The answer's ETag, if it has one: a request that names it is answered 304. */
  etag: string | null;
  changes: number;
  /** One per kept value the render read: true while that value is still the one kept. */
  reads: Array<() => boolean>;
  until: number;
};

/** What a kept copy's answer is given of its request. */
export type KeptAnswer = { nonce: string; ifNoneMatch?: string; beforeWrite?: () => void };

/** A rendered answer, as the router gave it, with the queries its render sent and the kept values it read. */
export type Rendered = { response: Response; queries: number; reads: Array<() => boolean> };

export type KeptPages = {
  /** The nonce a page to be kept is rendered with: put in place of each answer's own. */
  readonly standIn: string;
  /**
   * Whether the page under `key` is rendered to be kept: once it was asked for before, within
   * the time a copy is good. A page asked for once (a one-off query string, a link followed
   * once) is rendered as any other answer, with nothing noted or kept of it.
   */
  admits(key: string): boolean;
  /**
   * Answers `res` with the kept copy under `key`, if a good one is kept (`beforeWrite` then sets
   * what else the answer says, before it goes out): a 304 without its body to a request that
   * names its ETag (`ifNoneMatch`). Whether it did.
   */
  serveKept(key: string, res: ExpressResponse, answer: KeptAnswer): boolean;
  /**
   * The page `render` makes (with the stand-in nonce), as the answer with `nonce`: kept under
   * `key` when it may be and nothing it read changed while it rendered.
   */
  render(key: string, nonce: string, render: () => Promise<Rendered>): Promise<Response>;
  readonly size: number;
  /** The bytes of the pages kept. */
  readonly bytes: number;
};

export type KeptPagesOptions = {
  now?: () => number;
  ttlMs?: number;
  /** Copies kept at most: a full cache drops its oldest. */
  keptMax?: number;
  /** Bytes kept at most, the same way. */
  keptBytes?: number;
  /** A signed-in member's pages: kept only when the render read a kept value (its viewer); a page with no reads is not. */
  signedIn?: boolean;
  onServed?: (kept: boolean) => void;
};

export function createKeptPages(reference: ChangesHeard, options: KeptPagesOptions = {}): KeptPages {
  const now = options.now ?? Date.now;
  const ttl = options.ttlMs ?? 60_000;
  const keptMax = options.keptMax ?? 200;
  const keptBytes = options.keptBytes ?? Infinity;
  const standIn = cspNonce();
  const kept = new Map<string, KeptPage>();
  let bytes = 0;
  // When each page not kept was last asked for: bounded as the copies are, the oldest first.
  const seen = new Map<string, number>();
  const seenMax = keptMax * 2;

  const drop = (key: string) => {
    const page = kept.get(key);
    if (!page) return;
    kept.delete(key);
    bytes -= page.bytes;
  };
  const good = (page: KeptPage) =>
    reference.keeping && page.changes === reference.changes && page.until > now() && page.reads.every((read) => read());

  return {
    standIn,
    admits(key) {
      const at = now();
      const last = seen.get(key);
      // Noted again as the newest, so that a page whose render could not be kept (it read
      // what its caches did not hold yet) is rendered to be kept the next time too.
      seen.delete(key);
      while (seen.size >= seenMax) seen.delete(seen.keys().next().value!);
      seen.set(key, at);
      if (last !== undefined && at - last < ttl) return true;
      // It is answered by a render of its own.
      options.onServed?.(false);
      return false;
    },
    serveKept(key, res, { nonce, ifNoneMatch, beforeWrite }) {
      const page = kept.get(key);
      if (!page) return false;
      if (!good(page)) {
        drop(key);
        return false;
      }
      beforeWrite?.();
      if (page.etag && ifNoneMatch && namesTag(ifNoneMatch, page.etag)) {
        res.status(304);
        for (const [name, value] of page.headers) if (!/^content-type$/i.test(name)) res.append(name, value);
        res.end();
        options.onServed?.(true);
        return true;
      }
      const body = withNonce(page.parts, nonce);
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
      const { response, queries, reads } = await render();
      options.onServed?.(false);
      const page = {
        status: response.status,
        contentType: response.headers.get("Content-Type"),
        setsCookie: response.headers.has("Set-Cookie"),
        queries,
      };
      // Any page rendered with the stand-in gets the answer's nonce, kept or not (a page that
      // set a cookie, an error page); an answer that is no page has no nonce in it.
      if (!response.body || !keptKind(page.contentType)) return response;
      const parts = cutAt(Buffer.from(await response.arrayBuffer()), standIn);
      const headers = [...response.headers.entries()].filter(([name]) => name.toLowerCase() !== "content-length");
      const size = parts.reduce((sum, part) => sum + part.byteLength, 0);
      const unchanged = keeping && reference.keeping && changes === reference.changes && reads.every((read) => read());
      if (keepsRenderedPage(page) && unchanged && (!options.signedIn || reads.length > 0) && size <= keptBytes) {
        drop(key);
        while (kept.size > 0 && (kept.size >= keptMax || bytes + size > keptBytes)) drop(kept.keys().next().value!);
        const etag = response.headers.get("ETag");
        kept.set(key, {
          status: response.status,
          headers,
          parts,
          bytes: size,
          etag,
          changes,
          reads,
          until: now() + ttl,
        });
        bytes += size;
      }
      return new Response(new Uint8Array(withNonce(parts, nonce)), { status: response.status, headers });
    },
    get size() {
      return kept.size;
    },
    get bytes() {
      return bytes;
    },
  };
}

/** Whether an If-None-Match header names `etag` (weakly, as for a GET). */
function namesTag(ifNoneMatch: string, etag: string): boolean {
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((tag) => bare(tag) === bare(etag));
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
