/**
 * The pages every visitor gets the same (docs/decisions/053-visitor-pages-kept.md): a server
 * keeps the rendered copy of such a page and serves it again, with the answer's own nonce put
 * in, until the reference data it was rendered from changes or a minute has passed.
 */

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
 * no state header, for one of the visitor pages.
 */
export function visitorPageKey(request: VisitorRequest): string | null {
  if (request.method !== "GET" || request.hasCookie || request.hasState) return null;
  if (!VISITOR_PAGES.has(request.path) || request.search.length > SEARCH_MAX) return null;
  if (/[?&]_data(?:[=&]|$)/.test(request.search)) return null;
  return request.path + request.search;
}

/** What of a rendered answer decides whether it may be kept for the next visitor. */
export type RenderedPage = {
  status: number;
  contentType: string | null;
  setsCookie: boolean;
  /** The database queries its render sent: kept values of the reference cache send none. */
  queries: number;
};

/**
 * Whether a rendered page may be kept: a whole HTML page that set no cookie and read nothing
 * but what the reference cache keeps (whose changes are heard), since nothing else tells a
 * server that what the page shows has changed.
 */
export function keepsRenderedPage(page: RenderedPage): boolean {
  return (
    page.status === 200 &&
    !page.setsCookie &&
    page.queries === 0 &&
    (page.contentType ?? "").toLowerCase().startsWith("text/html")
  );
}
