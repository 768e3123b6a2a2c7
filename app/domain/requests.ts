/** Rules every request meets before any page or API sees it. */

/** U+0000 in text already decoded (a form's field, a JSON string, a cursor): PostgreSQL cannot store it. */
export function holdsNul(text: string): boolean {
  return text.includes("\u0000");
}

/**
 * PostgreSQL cannot store U+0000 in text: such input is refused up front with a 400. Raw text
 * (an address) is read for its percent-encoded and JSON-escaped forms too.
 */
export function hasNul(text: string): boolean {
  return holdsNul(text) || /%00|\\u0000/i.test(text);
}

/** The most places a refusal names: a body with a NUL in every one of its texts needs no longer answer. */
const MAX_NAMED = 10;

/** What a field (or a JSON value's path) holding U+0000 is told, the same for forms and JSON bodies. */
export const NUL_REFUSED = "A NUL character (U+0000) cannot be stored: leave it out";

/** The refusal naming where: fields of a form, or paths of a JSON body. */
export function nulMessage(places: readonly string[]): string {
  return `${NUL_REFUSED} of ${places.join(", ")}`;
}

/**
 * The fields of a parsed form (its name and value pairs) that hold U+0000, each once, at most
 * ten; "" for a field whose name holds it, as the field cannot be named. A file is bytes, not text.
 */
export function nulFields(entries: Iterable<readonly [string, unknown]>): string[] {
  const fields = new Set<string>();
  for (const [name, value] of entries) {
    if (holdsNul(name)) fields.add("");
    else if (typeof value === "string" && holdsNul(value)) fields.add(name);
    if (fields.size === MAX_NAMED) break;
  }
  return [...fields];
}

const shortPath = (path: string) => (path.length > 200 ? `${path.slice(0, 200)}…` : path);

/**
 * The paths ("0.message", "" for the value itself) of the texts of a parsed JSON value that hold
 * U+0000, at most ten, each cut at 200 characters. A key that holds it is named by the object
 * that has it.
 */
export function nulPaths(value: unknown): string[] {
  const paths: string[] = [];
  // A stack rather than recursion: a megabyte of JSON can nest deeper than the call stack goes.
  const stack: [unknown, string][] = [[value, ""]];
  while (stack.length > 0 && paths.length < MAX_NAMED) {
    const [node, path] = stack.pop()!;
    if (typeof node === "string") {
      if (holdsNul(node)) paths.push(shortPath(path));
      continue;
    }
    if (node === null || typeof node !== "object") continue;
    const entries = Object.entries(node);
    if (!Array.isArray(node) && entries.some(([key]) => holdsNul(key))) {
      paths.push(shortPath(path));
      continue;
    }
    for (const [key, item] of entries.reverse()) stack.push([item, path ? `${path}.${key}` : key]);
  }
  return paths;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text with each half of a character that lacks its other half (PostgreSQL refuses it) as U+FFFD. */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, "\ufffd");
}

/** A \u escape of a surrogate pair, or of one surrogate alone; the escape itself, not an escaped backslash. */
const SURROGATE_ESCAPE =
  /(?<!\\)((?:\\\\)*)(\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[dD][89a-fA-F][0-9a-fA-F]{2})/g;

/**
 * JSON text whose \u escapes name whole characters only: the escape of a lone surrogate, which
 * jsonb refuses, becomes U+FFFD's. A signed delivery is checked on its bytes as sent, then read
 * through this.
 */
export function wellFormedJsonText(text: string): string {
  return text.replace(SURROGATE_ESCAPE, (_match, backslashes: string, escape: string) =>
    escape.length === 12 ? `${backslashes}${escape}` : `${backslashes}\\ufffd`,
  );
}

/** What the cross-site rule reads of a request. */
export type WriteRequest = {
  method: string;
  /** The path as requested. */
  path: string;
  origin: string | undefined;
  referer: string | undefined;
  host: string | undefined;
  /** The first host of the X-Forwarded-Host header, when it has one. */
  forwardedHost: string | undefined;
  /** The request came through a proxy TRUST_PROXY names, whose X-Forwarded-Host is the site's. */
  trustForwarded: boolean;
  /** The request carries the `state-sig` header of the state header protocol. */
  signed: boolean;
};

/** The providers' webhooks (Cognito Forms' entries, Stripe's events): servers post them, with no browser headers. */
const WEBHOOK_PREFIXES = ["/api/forms/cognito/", "/api/webhooks/"];

/**
 * Links whose own secret token is the whole authority: a reminder's one-click unsubscribe,
 * which a mail provider's server posts (RFC 8058) with no browser headers, or with its own.
 */
const TOKEN_LINK_PATHS = ["/reminders/unsubscribe"];

/**
 * A state-changing request must show it comes from a page of this site: its Origin, or
 * failing that its Referer, names this host. A request with neither is refused too, since
 * a browser that strips both cannot be told apart from a forged form. Exempt are the API
 * calls signed with the state headers (a page of another site cannot send that header
 * without a CORS preflight, and the signature proves the device) and the provider
 * webhooks, which no browser sends, and the links of TOKEN_LINK_PATHS.
 */
export function crossSiteWrite(request: WriteRequest): boolean {
  if (["GET", "HEAD", "OPTIONS"].includes(request.method.toUpperCase())) return false;
  const path = normalisedPath(request.path) ?? "";
  if (TOKEN_LINK_PATHS.includes(path)) return false;
  const hosts = siteHosts(request);
  if (request.origin !== undefined) return !namesHosts(request.origin, hosts);
  if (request.signed || WEBHOOK_PREFIXES.some((prefix) => path.startsWith(prefix))) return false;
  return request.referer === undefined || !namesHosts(request.referer, hosts);
}

/**
 * The hosts a write's Origin must name. Behind a trusted proxy the site's host is the one
 * the proxy forwards (its own Host may be the upstream's name). Otherwise it is the Host,
 * and a forwarded host, which anyone can send, must name the same site too: the router
 * refuses an action whose Origin differs from it, and that refusal is this one.
 */
function siteHosts(request: WriteRequest): Array<string | undefined> {
  if (request.forwardedHost === undefined) return [request.host];
  return request.trustForwarded ? [request.forwardedHost] : [request.forwardedHost, request.host];
}

function namesHosts(url: string, hosts: Array<string | undefined>): boolean {
  if (url === "null") return false;
  let host: string;
  try {
    host = new URL(url).host;
  } catch {
    return false;
  }
  return hosts.every((expected) => expected !== undefined && expected !== "" && expected === host);
}

/** The first host of an X-Forwarded-Host header, as the router reads it. */
export function firstForwardedHost(header: string | string[] | undefined): string | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.split(",")[0]?.trim();
  return value ? value : undefined;
}

/**
 * Whether an answer depends on the session, so that no cache may keep it: the request
 * carries the session cookie or the state headers (valid or not, which only the database
 * can tell; keeping either kind out of caches costs nothing), or the answer sets or ends
 * the session cookie.
 */
export function dependsOnSession(
  request: { cookie: string | undefined; state: boolean },
  setCookies: string[],
  sessionCookie: string,
): boolean {
  const named = (text: string) => text.trim().startsWith(`${sessionCookie}=`);
  return request.state || (request.cookie ?? "").split(";").some(named) || setCookies.some(named);
}

/**
 * Answers that are the same for everyone, signed in or not (the public configuration, the
 * cause catalogue, the entity schema): caches may keep them whatever cookie came along.
 */
const SESSION_FREE_PATHS = new Set(["/api/config", "/api/config/causes", "/api/schema"]);

export function sessionFreePath(pathname: string): boolean {
  return SESSION_FREE_PATHS.has(pathname);
}

/** Query values that are credentials: e-mailed links, the learning-site hand-off, SSO signatures. */
const SECRET_PARAMS = /([?&](?:token|auth_code|hash|confirm|unsubscribe|code)=)[^&#]*/gi;

/**
 * A URL fit for logs and error reports: the webhook secret in a path and the one-time
 * tokens in e-mailed and hand-off links are replaced by `[secret]`.
 */
export function redactUrl(url: string): string {
  return url.replace(/(\/api\/forms\/cognito\/)[^/?#]+/, "$1[secret]").replace(SECRET_PARAMS, "$1[secret]");
}

/** The browser's own fetches for a page's parts: icons, fonts, styles, scripts, images. */
const ASSET_FILE = /\.(?:js|mjs|css|map|woff2?|ttf|otf|eot|ico|png|jpe?g|gif|svg|webp|avif|webmanifest)$/i;

/**
 * A request for a static file rather than a page, an API call or a document: the build's
 * files under /build/, the favicon, robots.txt, fonts and images. The demo's terminal leaves
 * them out of its log, where they made most of the lines.
 */
export function isStaticAsset(url: string): boolean {
  const path = url.split(/[?#]/, 1)[0]!;
  return path.startsWith("/build/") || path === "/robots.txt" || ASSET_FILE.test(path);
}

/**
 * The path a request names, as the router will see it: dot segments resolved (also when
 * they are percent-encoded, as a URL parser does), each segment decoded, and the dot
 * segments that decoding reveals (`..%2f`) resolved as well. Null when the path cannot
 * name a page: broken percent-encoding, a backslash (which URL parsers read as a slash,
 * so `/%5C` would name another host), or a control character.
 */
export function normalisedPath(rawPath: string): string | null {
  // Nearly every request: letters, digits and `-_.~` in segments that do not start with a
  // dot. Nothing in it to decode or resolve, so it is its own answer.
  return PLAIN_PATH.test(rawPath) ? rawPath : resolvedPath(rawPath);
}

const PLAIN_PATH = /^(?:\/(?:[\w~-][\w.~-]*)?)+$/;

/** normalisedPath's answer for any path, worked out in full. */
export function resolvedPath(rawPath: string): string | null {
  let parsed: string;
  try {
    parsed = new URL(`http://localhost${rawPath.startsWith("/") ? "" : "/"}${rawPath}`).pathname;
  } catch {
    return null;
  }
  const decoded: string[] = [];
  for (const segment of parsed.split("/")) {
    const text = decodedSegment(segment);
    if (text === null || text.includes("\\") || [...text].some(isControl)) return null;
    decoded.push(text);
  }
  const resolved: string[] = [];
  for (const segment of decoded.join("/").split("/").slice(1)) {
    if (segment === "..") resolved.pop();
    else if (segment !== ".") resolved.push(segment);
  }
  return `/${resolved.join("/")}`;
}

function isControl(character: string): boolean {
  const code = character.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
}

/** A percent-encoded path segment decoded, or null when its encoding is broken. */
export function decodedSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * Methods no page or API call takes, whatever the path: TRACE echoes a request back
 * (cross-site tracing) and CONNECT opens a tunnel. The Fetch API refuses to make a Request of
 * them, so the router could not even be asked: they are answered 501 before it.
 */
const UNSUPPORTED_METHODS = new Set(["CONNECT", "TRACE"]);

export function unsupportedMethod(method: string): boolean {
  return UNSUPPORTED_METHODS.has(method.toUpperCase());
}

export const UNSUPPORTED_METHOD_MESSAGE = "This site does not take that HTTP method";

/**
 * A request target as a path and query (RFC 9112 §3.2). The origin form (`/path?q`) is what
 * browsers send; the absolute form (`http://host/path`), which proxies send and a server must
 * take, is this site's page when it names the request's own host. Anything else (another
 * host, the asterisk form of OPTIONS *, the authority form of CONNECT) names no page here: null.
 */
export function originFormTarget(target: string, host: string | undefined): string | null {
  if (target.startsWith("/")) return target;
  if (!/^https?:\/\//i.test(target) || !host) return null;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return null;
  }
  return url.host === host.toLowerCase() ? `${url.pathname}${url.search}` : null;
}
