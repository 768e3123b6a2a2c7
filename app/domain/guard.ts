/** The navigation guard of spec §2.3, as pure decisions. */

/** "Public segments: the empty root, login, logout, signup, setup, subscription, terms-of-service,
 * privacy-policy, c, sso, community, g, newsletter-subscribe." */
export const PUBLIC_SEGMENTS = new Set([
  "",
  "login",
  "logout",
  "signup",
  "setup",
  "subscription",
  "terms-of-service",
  "privacy-policy",
  "c",
  "sso",
  "community",
  "g",
  "newsletter-subscribe",
]);

/**
 * Pages that the learning site frames. There the browser sends no cookie; each page is a
 * shell that signs in through the hand-off and the state headers of its API calls.
 */
export const FRAME_SEGMENTS = new Set(["lrm", "embed"]);

/** The Contact Support page: where the footer's Support link leads without JavaScript, on every page. */
const SUPPORT_SEGMENT = "support";

/**
 * The sandbox notary's signer pages: the signer arrives by the transaction's access URL, as at
 * Proof, signed in or not; the URL's unguessable id is the key.
 */
const NOTARY_SEGMENT = "notary";

/**
 * The links of the NoL reminder e-mails (/reminders/unsubscribe): their token names the
 * member, who stops a kind of reminder signed in or not, or whose mail program does it.
 */
const REMINDER_LINKS_SEGMENT = "reminders";

/** Paths that never need a user and are not pages of the guard (API, health, assets). */
const OUTSIDE_GUARD = new Set(["api", "healthz", "build", "redirect-login-success", "redirect-logout-success"]);

export function firstSegment(pathname: string): string {
  return pathname.split("/")[1] ?? "";
}

export function isPublicPath(pathname: string): boolean {
  const segment = firstSegment(pathname);
  return (
    PUBLIC_SEGMENTS.has(segment) ||
    OUTSIDE_GUARD.has(segment) ||
    FRAME_SEGMENTS.has(segment) ||
    segment === SUPPORT_SEGMENT ||
    segment === NOTARY_SEGMENT ||
    segment === REMINDER_LINKS_SEGMENT
  );
}

/**
 * Pages a member who has not finished setup may still open: deleting the account is theirs to
 * do at any step, finished or not.
 */
const OPEN_DURING_SETUP = new Set(["/profile/delete"]);

/** Whether a member still in setup may open the page (the guard's allow-list, and the routes' own checks). */
export function openDuringSetup(pathname: string): boolean {
  return OPEN_DURING_SETUP.has(pathname.replace(/\/+$/, ""));
}

export type GuardViewer = { userId: string; needsSetup: boolean } | null;

export type GuardDecision =
  | { kind: "allow" }
  /** Go to /login; `remember` is the after-login target, or null for the logout segment. */
  | { kind: "login"; remember: string | null }
  | { kind: "setup" };

export function guard(pathname: string, search: string, viewer: GuardViewer): GuardDecision {
  if (isPublicPath(pathname)) return { kind: "allow" };
  if (!viewer) return { kind: "login", remember: firstSegment(pathname) === "logout" ? null : `${pathname}${search}` };
  if (viewer.needsSetup && !openDuringSetup(pathname)) return { kind: "setup" };
  return { kind: "allow" };
}

/** The respondents' pages, which a member still in setup asks for from the navigation or a link. */
const RESPONDENT_SEGMENTS = new Set([
  "respondents",
  "search-for-a-respondent",
  "suggest-a-new-respondent",
  "respondent-reassessment",
]);

/**
 * Why a member who still needs setup lands on it instead of the page asked for, said on the
 * setup page; null where the member did not ask for a page (the way on after logging in).
 */
export function setupFirstMessage(pathname: string): string | null {
  const segment = firstSegment(pathname);
  if (segment === "redirect-login-success") return null;
  if (RESPONDENT_SEGMENTS.has(segment)) return "Finish setup to add respondents: their pages open once it is done.";
  // The "check your e-mail" page of a site without mail names the outbox, which only admins read.
  if (segment === "db") {
    return "The site's records, the mail outbox among them, are for administrators: log in as admin to read them. Meanwhile, here is your setup.";
  }
  return "Finish setup first: the page you asked for opens once it is done.";
}

/**
 * A redirect target from a user or a link is only followed when it stays on this site:
 * a path starting with a single "/", no backslashes or control characters. It ends up in a
 * Location header, which carries Latin-1 only, so every character outside printable ASCII is
 * percent-encoded as UTF-8; a target with no UTF-8 form (a lone surrogate) is dropped.
 */
export function safeRedirectPath(target: unknown, fallback = "/"): string {
  if (typeof target !== "string" || target.length === 0 || target.length > 2_000) return fallback;
  if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f-\u009f]/.test(target)) return fallback;
  try {
    return target.replace(/[^\x21-\x7e]/gu, (character) => encodeURIComponent(character));
  } catch {
    return fallback;
  }
}

export type AfterLoginInput = {
  /** Stored SSO search parameters (from a visit to /sso), if any. */
  ssoSearch: string | null;
  /** The remembered after-login path, if any. */
  remembered: string | null;
  /** The configured after-login redirect (an absolute URL), if any. */
  afterLoginRedirect: string | null;
};

export type AfterLoginDecision =
  | { kind: "redirect"; to: string }
  /** Navigate the top window to `url` and show /loading meanwhile. */
  | { kind: "top"; url: string };

/** "/redirect-login-success" of spec §2.3, in the order the spec gives. */
export function afterLogin(input: AfterLoginInput): AfterLoginDecision {
  if (input.ssoSearch) {
    const search = `${input.ssoSearch.startsWith("?") ? "" : "?"}${input.ssoSearch}`;
    return { kind: "redirect", to: safeRedirectPath(`/sso${search}`, "/sso") };
  }
  if (input.remembered) {
    const path = safeRedirectPath(input.remembered, "");
    if (path) return { kind: "redirect", to: path };
  }
  if (input.afterLoginRedirect) return { kind: "top", url: input.afterLoginRedirect };
  return { kind: "redirect", to: "/" };
}
