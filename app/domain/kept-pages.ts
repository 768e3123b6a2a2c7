/**
 * The pages a server keeps as rendered and serves again, with the answer's own nonce put in:
 * the pages every visitor gets the same (docs/decisions/053-visitor-pages-kept.md), until the
 * reference data they were rendered from changes or a minute has passed; and a signed-in
 * member's own pages (docs/decisions/056-member-pages-kept.md), for the same cookie, until
 * what they were rendered from changes or 30 s have passed.
 */

import { sessionFreePath } from "./requests";

/** The pages a visitor may be served a kept copy of: the home page, the login, signup and landing pages. */
const VISITOR_PAGES = new Set([
  "/",
  "/login",
  "/login/help",
  "/signup",
  "/signup/terms",
  "/signup/privacy-policy",
  "/privacy-policy",
  "/g/inpower",
  "/g/rev18",
]);

/** Whether a query is the router's data request (`?_data=…`) rather than a document's. */
const isDataRequest = (search: string) => /[?&]_data(?:[=&]|$)/.test(search);

/** A query longer than this is someone's own link, not a page shared by visitors. */
const SEARCH_MAX = 200;

/** What of a request decides whether a kept page may answer it. */
export type VisitorRequest = {
  method: string;
  path: string;
  /** The query, with its "?", or "". */
  search: string;
  /** Any cookie at all: a visitor's cookie (a coupon, a flash message) may change the page. */
  hasCookie: boolean;
  /** The framed app's state headers: they sign someone in. */
  hasState: boolean;
};

/**
 * The key a visitor's request for a page is kept under, or null when no kept page may answer
 * it: only a GET of a document (not the router's data request) from someone with no cookie and
 * no state header, for one of the visitor pages; or a GET of an answer the same for everyone
 * (the public configuration, the cause catalogue, the entity schema: `sessionFreePath`),
 * whatever cookie came along.
 */
export function visitorPageKey(request: VisitorRequest): string | null {
  if (request.method !== "GET" || request.hasState || request.search.length > SEARCH_MAX) return null;
  if (sessionFreePath(request.path)) return request.path + request.search;
  if (request.hasCookie || !VISITOR_PAGES.has(request.path)) return null;
  if (isDataRequest(request.search)) return null;
  return request.path + request.search;
}

/**
 * The pages a signed-in member may be served a kept copy of: their home, a NoL step page, the
 * members list, and the versions API's answer (spec §7). Each shows only what the member's
 * viewer, the reference data and the owner's entries (or the members' rows) say, and the day:
 * nothing drawn at random, no provider's answer. A page that reads anything else from the
 * database is not kept (its query is counted). The NoL pages beside a step page (the mailing,
 * notarize and sign pages, the documents) are not step pages.
 */
const MEMBER_PAGES = [
  /^\/$/,
  /^\/members$/,
  /^\/nol\/[^/]+\/[^/]+\/(?!mail$|notarize$|sign$)[^/.]+$/,
  /^\/api\/entry\/nol-member-versions$/,
];

/** A cookie longer than this is kept out: the key holds it whole. */
const COOKIE_MAX = 4_096;

/** What of a signed-in request decides whether a kept page may answer it. */
export type MemberRequest = Omit<VisitorRequest, "hasCookie"> & {
  /** The Cookie header: a kept page answers only the same cookies (the session, a flash message, a banner dismissed). */
  cookie: string | undefined;
};

/**
 * The key a signed-in member's request for a page is kept under, or null: a GET of a document
 * with a cookie and no state header, for one of the member pages, keyed by the whole Cookie
 * header with the path and query.
 */
export function memberPageKey(request: MemberRequest): string | null {
  const { cookie } = request;
  if (request.method !== "GET" || request.hasState || !cookie || cookie.length > COOKIE_MAX) return null;
  if (!MEMBER_PAGES.some((page) => page.test(request.path)) || request.search.length > SEARCH_MAX) return null;
  if (isDataRequest(request.search)) return null;
  return `${cookie}\n${request.path}${request.search}`;
}

/** What of a rendered answer decides whether it may be kept for the next visitor. */
export type RenderedPage = {
  status: number;
  contentType: string | null;
  setsCookie: boolean;
  /** The database queries its render sent: kept values (reference data, viewers, entries) send none. */
  queries: number;
};

/**
 * Whether a rendered page may be kept: a whole HTML page (or JSON answer) that set no cookie
 * and read nothing but what the server's caches keep (whose changes are heard), since nothing
 * else tells a server that what the page shows has changed.
 */
export function keepsRenderedPage(page: RenderedPage): boolean {
  return page.status === 200 && !page.setsCookie && page.queries === 0 && keptKind(page.contentType);
}

/** Whether answers of this content type are ever kept: HTML pages and JSON. */
export function keptKind(contentType: string | null): boolean {
  const type = (contentType ?? "").toLowerCase();
  return type.startsWith("text/html") || type.startsWith("application/json");
}
