import { normalisedPath } from "./requests";

/**
 * Which pages another site may frame (spec §1 "embeddable mode"). Only the configured
 * learning site may frame them; every other page refuses all framing.
 */
const FRAMEABLE_PREFIXES = ["/embed/", "/lrm"];

/**
 * Decided on the page the path names, not on its spelling: `/embed/%2e%2e/login` is the
 * login page to the router, so it must not be framed as an embed page is.
 */
export function isFrameablePath(path: string): boolean {
  const pathname = normalisedPath(path);
  if (pathname === null) return false;
  return FRAMEABLE_PREFIXES.some((prefix) =>
    prefix.endsWith("/") ? pathname.startsWith(prefix) : pathname === prefix || pathname.startsWith(`${prefix}/`),
  );
}

/**
 * Our documents (PDFs), which our own pages show in a frame: the NoL preview, the template
 * editor's, and the sandbox notary's document on its signer page.
 */
const DOCUMENT_PATHS = [
  /^\/api\/nol\/preview$/,
  /^\/admin\/templates\/\d+\/preview$/,
  /^\/notary\/sandbox\/[^/]+\/document$/,
];

/** Whether a path is a document our own pages frame: only this site may frame it. */
export function isDocumentPath(path: string): boolean {
  const pathname = normalisedPath(path);
  return pathname !== null && DOCUMENT_PATHS.some((pattern) => pattern.test(pathname));
}

/** The CSP frame-ancestors value for a path. */
export function frameAncestors(path: string, learningSiteUrl: string | undefined): string {
  if (isDocumentPath(path)) return "'self'";
  if (!learningSiteUrl || !isFrameablePath(path)) return "'none'";
  return new URL(learningSiteUrl).origin;
}

/** The card pages: the only ones whose policy lets the payments provider's script and frames in. */
const CARD_PAGES_PREFIX = "/subscription/unsafe/";

function isCardPagePath(pathname: string): boolean {
  return pathname.startsWith(CARD_PAGES_PREFIX);
}

const STRIPE_SOURCES = {
  script: ["https://js.stripe.com"],
  frame: ["https://js.stripe.com", "https://hooks.stripe.com"],
  connect: ["https://api.stripe.com"],
};

/** The provider's CSP sources for a path: Stripe's on the card pages with Stripe configured, none elsewhere. */
export function paymentSources(
  path: string,
  payments: "sandbox" | "stripe",
): { script: string[]; frame: string[]; connect: string[] } {
  const pathname = normalisedPath(path);
  if (payments !== "stripe" || pathname === null || !isCardPagePath(pathname)) {
    return { script: [], frame: [], connect: [] };
  }
  return STRIPE_SOURCES;
}

/** What a policy takes from the configuration: the payments and forms providers, the learning site, production. */
export type PolicySettings = {
  payments: "sandbox" | "stripe";
  learningSiteUrl: string | undefined;
  /** The hosted forms provider's origin, when it serves the forms (Cognito Forms). */
  formsOrigins: readonly string[];
  production: boolean;
};

/**
 * The content security policy of an answer at `path`: scripts of this site and those the
 * request's nonce names (and what they load, 'strict-dynamic'); the payments provider's
 * script, frames and API on the card pages only; the hosted forms' origin where they are the
 * provider; framing by frameAncestors; no plugins, no <base>; in production, every request
 * upgraded to HTTPS.
 */
export function contentSecurityPolicy(path: string, nonce: string, settings: PolicySettings): string {
  const card = paymentSources(path, settings.payments);
  const forms = settings.formsOrigins;
  const list = (...sources: ReadonlyArray<readonly string[]>) => sources.flat().join(" ");
  const directives = [
    "default-src 'self'",
    `script-src ${list(["'strict-dynamic'", "'self'", `'nonce-${nonce}'`], card.script)}`,
    `style-src ${list(["'self'"], forms)}`,
    "style-src-attr 'unsafe-inline'",
    `img-src ${list(["'self'", "data:"], forms)}`,
    `font-src ${list(["'self'"], forms)}`,
    `connect-src ${list(["'self'"], forms, card.connect)}`,
    // blob: the notarize page shows the preview it fetched (a PDF made for this member) in a frame.
    `frame-src ${list(["'self'", "blob:"], forms, card.frame)}`,
    `form-action ${list(["'self'"], forms)}`,
    "object-src 'none'",
    "base-uri 'none'",
    `frame-ancestors ${frameAncestors(path, settings.learningSiteUrl)}`,
    ...(settings.production ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join(";");
}

/**
 * The sets of response headers a page can be served with: the card pages' policy names the
 * payments provider, the pages the learning site frames have their own frame-ancestors, our
 * documents may be framed by this site; every other page shares one set. Decided on the path
 * alone, whatever the provider, so that a page moves the same way with the sandbox as with Stripe.
 */
function headerSet(pathname: string): "card" | "frameable" | "document" | "site" {
  if (isCardPagePath(pathname)) return "card";
  if (isFrameablePath(pathname)) return "frameable";
  if (isDocumentPath(pathname)) return "document";
  return "site";
}

/**
 * Whether moving from the page at `from` to the one at `to` (paths of this site) must load a
 * new document. A client-side navigation keeps the headers of the document it started in: on
 * a card page entered that way Stripe's frame and calls would be refused, and a page left
 * that way would keep Stripe's sources, or the learning site's right to frame it.
 */
export function needsDocumentLoad(from: string, to: string): boolean {
  const here = normalisedPath(from);
  const there = normalisedPath(to);
  // A path no page can have is answered with the 404 page: a document load costs nothing there.
  if (here === null || there === null) return true;
  return headerSet(here) !== headerSet(there);
}
