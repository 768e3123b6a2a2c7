import { createHmac, randomUUID } from "node:crypto";
import http from "node:http";
import fc from "fast-check";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memberListing } from "~/services/member-listing.server";
import { ENTITIES } from "~/services/data-browser.server";
import { startServer, type RunningServer } from "../helpers/server";
import {
  proofEnv,
  startProofStandIn,
  startStripeStandIn,
  stripeEnv,
  type ProofStandIn,
  type StripeStandIn,
} from "../helpers/standins";
import { PROOF_WEBHOOK_SECRET } from "../mocks/proof";
import { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET } from "../mocks/stripe";

/**
 * Generated bad input to every form action and JSON API route: wrong types, missing
 * fields, huge strings, odd Unicode, duplicate keys, wrong content types. Never a 5xx; a
 * refusal is a 4xx that says why; a refused request changes no record.
 *
 * Besides: list queries with generated sorts and cursors, methods the router does not take,
 * and, with the real adapters, calls that reach Stripe and Proof (through local stand-ins
 * that fail now and then) and signed webhooks with generated bodies.
 *
 * The whole suite runs twice against the built server: on the built-in providers, and on
 * Stripe and Proof through local stand-ins of their HTTP APIs.
 *
 * FUZZ_RUNS sets the number of requests of each kind (60 by default: a refused sign-in takes
 * about a second), FUZZ_SEED makes a run repeatable. fast-check prints the seed and the
 * shrunk request of a failing run.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const WEBHOOK_SECRET = "w".repeat(40);

type Role = "visitor" | "member" | "newbie" | "admin" | "creator" | "fresh";
type Target = { path: string; kind: "form" | "json"; role: Role };

const FORM_TARGETS: [string, Role][] = [
  ["/login", "visitor"],
  ["/login?redirectTo=%2Fprofile", "visitor"],
  ["/login/help", "visitor"],
  ["/login/reset?token=not-a-token", "visitor"],
  ["/login/reset", "visitor"],
  ["/signup", "visitor"],
  ["/signup/check-email", "newbie"],
  ["/signup/verify?token=x", "visitor"],
  ["/setup/profile", "newbie"],
  ["/setup/membership", "newbie"],
  ["/newsletter-subscribe", "visitor"],
  ["/support", "visitor"],
  ["/support", "member"],
  ["/admin", "admin"],
  ["/admin", "member"],
  ["/admin/templates", "admin"],
  ["/admin/templates/1", "admin"],
  ["/admin/templates/1/preview", "admin"],
  ["/admin/templates/1", "member"],
  ["/admin/settings", "admin"],
  ["/admin/settings", "member"],
  ["/members/{memberId}", "admin"],
  ["/members", "admin"],
  ["/causes", "admin"],
  ["/members?status=ACTIVE", "member"],
  ["/members/not-a-uuid", "admin"],
  ["/nol/creator/traffic-stop/notice", "creator"],
  ["/nol/creator/traffic-stop/notarize", "creator"],
  ["/nol/creator/traffic-stop", "creator"],
  ["/nol/editor", "member"],
  ["/re-join", "member"],
  ["/logout", "fresh"],
  ["/c/welcome", "member"],
  ["/c/no-such-offer", "visitor"],
  ["/profile", "member"],
  ["/subscription", "visitor"],
  ["/subscription", "member"],
  ["/subscription/unsafe/card-plus?checkout=00000000-0000-4000-8000-000000000000", "visitor"],
  ["/subscription/unsafe/card-plus?checkout=not-a-checkout", "member"],
  ["/subscription/unsafe/authenticate?checkout=00000000-0000-4000-8000-000000000000", "member"],
  ["/coupon/discounts", "admin"],
  ["/coupon/discounts", "member"],
  ["/coupon/discount", "admin"],
  ["/coupon/discount/1", "admin"],
  ["/profile/billing", "member"],
  ["/profile/billing/receipts/00000000-0000-4000-8000-000000000000", "member"],
  ["/notary/sandbox/ot_sb_AAAAAAAAAAAAAAAAAAAAAA", "visitor"],
  ["/profile/security", "member"],
  ["/search-for-a-respondent", "member"],
  ["/suggest-a-new-respondent", "member"],
  ["/respondent-reassessment", "member"],
  ["/notice-of-correction", "creator"],
  ["/respondents/review", "admin"],
  ["/respondents/review", "member"],
];
const JSON_TARGETS: [string, Role][] = [
  ["/api/errors", "visitor"],
  ["/api/errors", "member"],
  ["/api/entry/cognito-submitted", "member"],
  ["/api/creator/auth", "creator"],
  ["/api/entry/nol-member-versions?username=creator", "admin"],
  ["/api/entry/nol-member-versions", "member"],
  ["/api/nol/notices?cause_code=TS", "creator"],
  ["/api/nol/preview", "creator"],
  ["/api/nol/preview", "member"],
  ["/api/nol/notarize", "creator"],
  ["/api/nol/notarize", "member"],
  ["/api/nol/notarize/refresh/ot_sb_AAAAAAAAAAAAAAAAAAAAAA", "creator"],
  ["/api/nol/notarize/ot_sb_AAAAAAAAAAAAAAAAAAAAAA", "creator"],
  ["/api/webhooks/notary", "visitor"],
  ["/api/webhooks/mailhouse", "visitor"],
  ["/api/login/recheck", "member"],
  ["/api/login/lrm-auth?auth_code=x&hash=y", "visitor"],
  [`/api/forms/cognito/${WEBHOOK_SECRET}/submit`, "visitor"],
  [`/api/forms/cognito/${WEBHOOK_SECRET}/update`, "visitor"],
  ["/api/webhooks/stripe", "visitor"],
  ["/api/coupon/discount", "admin"],
  ["/api/coupon/discount", "member"],
  ["/api/billing/membership", "member"],
  ["/api/forms", "member"],
  ["/api/forms/entries", "member"],
  ["/api/forms/entries", "visitor"],
  ["/api/forms/entries/00000000-0000-4000-8000-000000000000", "member"],
];
const TARGETS: Target[] = [
  ...FORM_TARGETS.map(([path, role]) => ({ path, role, kind: "form" as const })),
  ...JSON_TARGETS.map(([path, role]) => ({ path, role, kind: "json" as const })),
];

const FIELD_NAMES = [
  "login",
  "password",
  "email",
  "username",
  "name",
  "firstName",
  "lastName",
  "subject",
  "message",
  "intent",
  "token",
  "redirectTo",
  "return",
  "planId",
  "cardNumber",
  "expiry",
  "cvc",
  "country",
  "code",
  "userId",
  "role",
  "cause",
  "version",
  "descriptiveVersion",
  "round",
  "editor",
  "coupon",
  "coupon_id",
  "coupon_slug",
  "coupon_discount_id",
  "percent_off",
  "amount_off",
  "plans",
  "active",
  "confirm",
  "newPassword",
  "phone",
  "address",
  "time",
  "href",
  "stack",
  "entryId",
  "formId",
  "Hash",
  "Id",
  "Entry",
  "Username",
  "Cause",
  "body",
  "disclaimer",
  "kind",
  "causeCode",
  "cf_number",
  "cf_version",
  "round_cnt",
  "auth_code",
  "hash",
  "_data",
  "__proto__",
  "constructor",
];

const ODD = [
  "\u0000",
  "a\u0000b",
  "\u202e\u202dRTL\u200f",
  "\u200b\u200c\u200d\ufeff",
  "👨‍👩‍👧‍👦🏳️‍🌈",
  "e\u0301\u0301\u0301\u0301",
  "Z\u0336\u0337\u0338",
  "\ud800",
  "\udfff",
  "\ud83d",
  "\uffff\ufffe",
  "%",
  "%ZZ",
  "%00",
  "%ED%A0%80",
  "../../etc/passwd",
  "javascript:alert(1)",
  "data:text/html,x",
  "<script>alert(1)</script>",
  "' or 1=1 --",
  "${7*7}",
  "\r\nSet-Cookie: x=y",
  "ÿ",
  "ĀĀ",
  "null",
  "undefined",
  "NaN",
  "-1",
  "2147483648",
  "1e309",
  "0x10",
  "true",
  "[]",
  "{}",
];

const hugeString = fc
  .tuple(fc.constantFrom("a", "é", "😀", "\u0000", "%", "&", "="), fc.integer({ min: 1_000, max: 20_000 }))
  .map(([c, n]) => c.repeat(n));
const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 4, arbitrary: fc.constantFrom(...ODD) },
  { weight: 1, arbitrary: hugeString },
  { weight: 1, arbitrary: fc.emailAddress() },
);
const key = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...FIELD_NAMES) }, { weight: 1, arbitrary: text });
/** Pairs, so that a key may come twice. */
const pairs = fc.array(fc.tuple(key, text), { maxLength: 12 });

const jsonish: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(fc.constantFrom(...FIELD_NAMES), fc.oneof(text, fc.jsonValue({ maxDepth: 2 })), { maxKeys: 10 }),
  fc.array(fc.dictionary(fc.constantFrom(...FIELD_NAMES), text, { maxKeys: 6 }), { maxLength: 5 }),
  hugeString,
);

type Body = { what: string; body: BodyInit | undefined; contentType?: string };

/** Percent-encodes as a browser would; a lone surrogate goes out as the bytes of its code unit. */
const LONE_SURROGATE = /([\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff])/;
const encode = (s: string) =>
  s
    .split(LONE_SURROGATE)
    .map((part, i) => {
      if (i % 2 === 0) return encodeURIComponent(part);
      const unit = part.charCodeAt(0);
      const hex = (n: number) => n.toString(16).toUpperCase();
      return `%ED%${hex(0x80 | ((unit >> 6) & 0x3f))}%${hex(0x80 | (unit & 0x3f))}`;
    })
    .join("");
const encodePairs = (p: [string, string][]) => p.map(([k, v]) => `${encode(k)}=${encode(v)}`).join("&");

const rawBytes = fc.uint8Array({ maxLength: 200 }).map((bytes) => ({
  what: "raw bytes",
  body: new Uint8Array([0xed, 0xa0, 0x80, 0xc0, 0xaf, ...bytes]),
  contentType: undefined as string | undefined,
}));

const formBody: fc.Arbitrary<Body> = fc.oneof(
  pairs.map((p) => ({ what: "form", body: encodePairs(p), contentType: "application/x-www-form-urlencoded" })),
  fc.tuple(pairs, fc.constantFrom("%ED%A0%80", "%ZZ", "%", "%C0%AF", "%00")).map(([p, bad]) => ({
    what: "form with bad percent-encoding",
    body: `${encodePairs(p)}&${bad}=${bad}&x${bad}`,
    contentType: "application/x-www-form-urlencoded",
  })),
  pairs.map((p) => {
    const data = new FormData();
    for (const [k, v] of p) data.append(k, v);
    return { what: "multipart", body: data as BodyInit, contentType: undefined };
  }),
  jsonish.map((j) => ({ what: "JSON to a form", body: JSON.stringify(j), contentType: "application/json" })),
  fc
    .tuple(pairs, fc.constantFrom("text/plain", "application/xml", "multipart/form-data", "image/png", ""))
    .map(([p, type]) => ({ what: "wrong content type", body: encodePairs(p), contentType: type })),
  rawBytes.map((b) => ({ ...b, contentType: "application/x-www-form-urlencoded" })),
  fc.constant({ what: "no body", body: undefined, contentType: undefined }),
);

const jsonBody: fc.Arbitrary<Body> = fc.oneof(
  jsonish.map((j) => ({ what: "JSON", body: JSON.stringify(j), contentType: "application/json" })),
  fc.tuple(fc.constantFrom(...FIELD_NAMES), text, fc.jsonValue({ maxDepth: 1 })).map(([k, a, b]) => ({
    what: "JSON with a duplicate key",
    body: `{${JSON.stringify(k)}:${JSON.stringify(a)},${JSON.stringify(k)}:${JSON.stringify(b)}}`,
    contentType: "application/json",
  })),
  fc.tuple(jsonish, text).map(([j, rest]) => ({
    what: "a JSON object and a raw body",
    body: `${JSON.stringify(j)}${rest}`,
    contentType: "application/json",
  })),
  fc.string({ maxLength: 60 }).map((s) => ({ what: "not JSON", body: `{${s}`, contentType: "application/json" })),
  pairs.map((p) => ({
    what: "a form to the API",
    body: encodePairs(p),
    contentType: "application/x-www-form-urlencoded",
  })),
  jsonish.map((j) => ({ what: "JSON as text/plain", body: JSON.stringify(j), contentType: "text/plain" })),
  rawBytes.map((b) => ({ ...b, contentType: "application/json" })),
  fc.constant({ what: "no body", body: undefined, contentType: "application/json" }),
);

const requestCaseOver = (targets: Target[]) =>
  fc.constantFrom(...targets).chain((target) =>
    fc.record({
      target: fc.constant(target),
      body: target.kind === "form" ? formBody : jsonBody,
      // Mostly a browser's own request; now and then one that says nothing of where it comes from.
      withOrigin: fc.oneof({ weight: 19, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      method: fc.oneof(
        { weight: 9, arbitrary: fc.constant("POST") },
        { weight: 1, arbitrary: fc.constantFrom("PUT", "DELETE", "PATCH") },
      ),
    }),
  );

/** The lists with keyset pages: the members list and every table of the data browser, with their columns. */
const LISTS: { path: string; keys: string[] }[] = [
  { path: "/members", keys: memberListing.columns.map((c) => c.key) },
  ...Object.entries(ENTITIES).map(([name, entity]) => ({
    path: `/db/${name}`,
    keys: entity.listing.columns.map((c) => c.key),
  })),
];
const base64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");
const cursorValue = fc.oneof(
  fc.constant(null),
  fc.string({ maxLength: 30 }),
  fc.constantFrom(...ODD),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.uuid(),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.jsonValue({ maxDepth: 2 }),
);
/** A cursor as the app writes one, with any value and id, or one of its near misses. */
const cursor = fc.oneof(
  { weight: 4, arbitrary: fc.record({ v: cursorValue, id: cursorValue }).map((c) => base64url(JSON.stringify(c))) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((j) => base64url(JSON.stringify(j))) },
  { weight: 1, arbitrary: text },
);
const listCase = fc.constantFrom(...LISTS).chain((list) =>
  fc.record({
    list: fc.constant(list),
    role: fc.oneof(
      { weight: 5, arbitrary: fc.constant<Role>("admin") },
      { weight: 1, arbitrary: fc.constant<Role>("member") },
    ),
    sort: fc.option(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...list.keys) }, { weight: 1, arbitrary: text })),
    dir: fc.option(fc.constantFrom("asc", "desc", "up", "")),
    after: fc.option(cursor),
    before: fc.option(cursor),
    filters: fc.array(fc.tuple(fc.constantFrom(...list.keys, "q", "status", "role"), text), { maxLength: 3 }),
    data: fc.boolean(),
  }),
);

/** Methods beside those the forms and the API use, sent as they come (the Fetch API refuses some of them). */
const ODD_METHODS = ["TRACE", "CONNECT", "OPTIONS", "PROPFIND", "MKCOL", "LOCK", "PURGE", "HEAD", "PATCH"];
const methodCase = fc.record({
  method: fc.constantFrom(...ODD_METHODS),
  target: fc.constantFrom(
    ...TARGETS,
    ...LISTS.map((l) => ({ path: l.path, kind: "form" as const, role: "admin" as Role })),
  ),
  body: fc.option(fc.string({ maxLength: 200 })),
});

/** Request targets a browser never sends, static files to ask ranges of, and long path segments. */
const longSegment = fc.tuple(fc.constantFrom("x", "%C3%A9", "%41", "-"), fc.integer({ min: 41, max: 3_000 }));
const targetCase = fc.record({
  target: fc.oneof(
    fc.constantFrom(
      "*",
      "http://other.example/",
      "http://{here}/login",
      "https://{here}/members",
      "http://{here}",
      "ftp://{here}/",
      "{here}",
      "/favicon.svg",
      "/favicon.ico",
      "/robots.txt",
    ),
    fc.constantFrom(...TARGETS).map((t) => t.path),
    longSegment.chain(([unit, n]) =>
      fc.constantFrom(
        `/db/${unit.repeat(n)}/export.csv`,
        `/db/${unit.repeat(n)}`,
        `/members/${unit.repeat(n)}`,
        `/nol/creator/${unit.repeat(n)}/notice`,
        `/api/coupon/${unit.repeat(n)}`,
        `/${unit.repeat(n)}`,
      ),
    ),
  ),
  forwardedHost: fc.option(
    fc.oneof(
      fc.constantFrom("{here}", "evil.example", "{here}, evil.example", "evil.example:99999", ""),
      fc.string({ maxLength: 30 }),
    ),
  ),
  range: fc.option(
    fc.oneof(
      fc.constantFrom(
        "bytes=99999999999-",
        "bytes=5-1",
        "bytes=-0",
        "bytes=0-9",
        "bytes=0-0,5-",
        "items=0-1",
        "bytes=",
      ),
      fc.tuple(fc.nat(), fc.nat()).map(([a, b]) => `bytes=${a}-${b}`),
    ),
  ),
  method: fc.constantFrom("GET", "GET", "HEAD", "POST"),
  role: fc.constantFrom<Role>("visitor", "member", "admin"),
});

/** The Cognito webhooks exist only with Cognito as the forms provider. */
const cognito = {
  FORMS: "cognito",
  COGNITO_API_URL: "http://127.0.0.1:9",
  COGNITO_API_KEY: "fuzz-key",
  COGNITO_EMBED_KEY: "fuzz-embed-key",
  COGNITO_WEBHOOK_SECRET: WEBHOOK_SECRET,
};

/**
 * The built-in providers, with Cognito's webhooks; then Stripe and Proof through their
 * stand-ins, with the built-in forms, whose step pages save the notices notarizing needs.
 */
type Setup = { name: string; real: boolean };
const SETUPS: Setup[] = [
  { name: "with the built-in providers", real: false },
  { name: "with Stripe and Proof through local stand-ins", real: true },
];

describe.each(SETUPS)("fuzz: generated bad input to the built server $name", ({ name, real }) => {
  let server: RunningServer;
  let stripe: StripeStandIn | undefined;
  let proof: ProofStandIn | undefined;
  const requestCase = requestCaseOver(
    real ? TARGETS.filter((t) => !t.path.startsWith("/api/forms/cognito/")) : TARGETS,
  );
  const cookies: Record<Role, string> = { visitor: "", member: "", newbie: "", admin: "", creator: "", fresh: "" };
  let memberId = "00000000-0000-0000-0000-000000000000";
  let requests = 0;
  let serverErrors = 0;
  let snapshots = 0;
  let resets = 0;
  let outages = 0;

  const login = async (username: string) => {
    const post = () =>
      fetch(`${server.url}/login`, {
        method: "POST",
        headers: { origin: server.url },
        body: new URLSearchParams({ login: username, password: "memberhall-demo" }),
        redirect: "manual",
      });
    // A kept-alive connection the server closed after refusing a generated body unread (413)
    // can be reset under the next request: that sign-in is sent once more on a new connection.
    const response = await post().catch(() => {
      resets++;
      return post();
    });
    await response.arrayBuffer();
    const session = response.headers.getSetCookie().find((c) => c.startsWith("mh_session="));
    if (!session) throw new Error(`could not sign in as ${username}: ${response.status}`);
    return session.split(";")[0]!;
  };

  /** Signs the roles in again when a generated request has ended a session (a valid logout, say). */
  const refreshSessions = async () => {
    for (const role of ["member", "newbie", "admin", "creator"] as const) {
      const response = await fetch(`${server.url}/api/login/recheck`, {
        headers: { cookie: cookies[role] },
        redirect: "manual",
      });
      await response.arrayBuffer();
      if (response.status === 401) cookies[role] = await login(role);
    }
  };

  /** What the admin views show of the main tables: members, notices, mail, audit, support, errors. */
  const snapshot = async () => {
    snapshots++;
    const views = [
      "/db/audit_log?_data=routes%2Fdb.(%24entity).(%24view)",
      "/db/support_requests?_data=routes%2Fdb.(%24entity).(%24view)",
      "/db/error_reports?_data=routes%2Fdb.(%24entity).(%24view)",
      "/db/mail_outbox?_data=routes%2Fdb.(%24entity).(%24view)",
      "/members?_data=routes%2Fmembers._index",
      "/api/entry/nol-member-versions?username=creator",
      "/api/entry/nol-member-versions?username=member",
    ];
    const bodies: string[] = [];
    for (const view of views) {
      const response = await fetch(`${server.url}${view}`, { headers: { cookie: cookies.admin }, redirect: "manual" });
      // A member's last visit moves as the run's own sessions are used: it is not a record change.
      const body = (await response.text()).replace(/"seen":"[^"]*"/g, '"seen":"…"');
      bodies.push(`${view} ${response.status} ${body}`);
    }
    return bodies;
  };

  beforeAll(async () => {
    if (real) [stripe, proof] = await Promise.all([startStripeStandIn(), startProofStandIn()]);
    const providers = stripe && proof ? { ...stripeEnv(stripe), ...proofEnv(proof) } : {};
    server = await startServer({
      env: {
        ...providers,
        LRM_HANDOFF_SECRET: "x".repeat(40),
        // Every generated sign-in, sign-up and reset comes from one address: the default
        // limit of 10 a minute would answer most of them 429 before their input is read.
        // The limit itself has its own test (rate-limit.test.ts).
        AUTH_RATE_LIMIT: "1000000",
        ...(real ? {} : cognito),
      },
    });
    for (const role of ["member", "newbie", "admin", "creator"] as const) cookies[role] = await login(role);
    const members = await fetch(`${server.url}/members?q=member&_data=routes%2Fmembers._index`, {
      headers: { cookie: cookies.admin },
    });
    const found = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(await members.text());
    if (found) memberId = found[0];
  });
  afterAll(async () => {
    console.log(
      `fuzz ${name}: ${requests} requests, ${serverErrors} responses of 5xx` +
        ` (${outages} answers of 503 while a provider stand-in was failing, ${resets} connections reset,` +
        ` ${snapshots} record snapshots)`,
    );
    await server?.stop();
    await Promise.all([stripe?.close(), proof?.close()]);
  });

  const send = async (target: Target, body: Body, withOrigin: boolean, method: string, outage = false) => {
    const cookie = target.role === "fresh" ? await login("creator") : cookies[target.role];
    const headers: Record<string, string> = {};
    if (cookie) headers.cookie = cookie;
    if (withOrigin) headers.origin = server.url;
    if (body.contentType !== undefined) headers["content-type"] = body.contentType;
    const path = target.path.replace("{memberId}", memberId);
    requests++;
    const started = Date.now();
    const url = `${server.url}${path}`;
    let response: Response;
    try {
      response = await fetch(url, { method, headers, body: body.body, redirect: "manual" });
    } catch {
      // A reset connection is no 5xx, but the server must still be up and answering.
      resets++;
      expect(server.process.exitCode, `the server ended:\n${server.output().slice(-2000)}`).toBeNull();
      const health = await fetch(`${server.url}/healthz`);
      await health.arrayBuffer();
      expect(health.status, `${method} ${path}: the connection was reset and the server is unwell`).toBe(200);
      return { path, status: 0, text: "", type: "" };
    }
    const text = await response.text();
    if (process.env.FUZZ_SLOW_DEBUG) console.log(Date.now() - started, method, path, body.what, response.status);
    // A stand-in made to fail may leave a provider's call answered 503: it is counted apart, below.
    if (response.status >= 500 && !(outage && response.status === 503)) serverErrors++;
    if (outage && response.status === 503) outages++;
    return { path, status: response.status, text, type: response.headers.get("content-type") ?? "" };
  };

  it(
    `answers ${RUNS} generated requests without a 5xx, each refusal with a message`,
    async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(requestCase, async ({ target, body, withOrigin, method }) => {
          n++;
          if (n % 25 === 0) await refreshSessions();
          // A /logout case signs in first (an audit row of ours): the next case is sampled instead.
          if (n % 50 === 0 && target.role === "fresh") n--;
          const sampled = n % 50 === 0;
          const before = sampled ? await snapshot() : undefined;
          const answer = await send(target, body, withOrigin, method);
          const label = `${method} ${answer.path} (${target.role}, ${body.what}, origin: ${withOrigin}) → ${answer.status}`;
          if (answer.status === 0) return;
          expect(answer.status, `${label}\n${answer.text.slice(0, 500)}\n${serverLog(answer.status)}`).toBeLessThan(
            500,
          );
          // Webhooks come from the providers' servers, which send no Origin: they are not refused for it.
          const webhook = answer.path.startsWith("/api/forms/") || answer.path.startsWith("/api/webhooks/");
          if (!withOrigin && !webhook) expect(answer.status, label).toBe(403);
          if (answer.status >= 400) {
            if (answer.path.startsWith("/api/") || !withOrigin) {
              expect(answer.type, label).toContain("application/json");
              const { error } = JSON.parse(answer.text) as { error?: unknown };
              expect(typeof error === "string" && error.length > 0, `${label}: ${answer.text.slice(0, 200)}`).toBe(
                true,
              );
            } else {
              expect(answer.text.trim().length, label).toBeGreaterThan(0);
            }
            if (before) expect(await snapshot(), `${label} changed a record`).toEqual(before);
          }
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    },
    60_000 + RUNS * 2_000,
  );

  it("changes no record with a batch of refused requests", async () => {
    await refreshSessions();
    const before = await snapshot();
    // Our own sign-ins for /logout write audit rows: those targets stay out of this batch.
    const refused = fc.sample(requestCase, { numRuns: 40, seed: SEED ?? 42 }).filter((c) => c.target.role !== "fresh");
    for (const { target, body, method } of refused) {
      const answer = await send(target, body, false, method);
      expect(answer.status).toBeLessThan(500);
    }
    for (const { target, body } of fc.sample(requestCase, { numRuns: 20, seed: (SEED ?? 42) + 1 })) {
      // Unauthenticated calls to member routes are refused before their input is read.
      if (target.path.startsWith("/api/forms/") || target.role === "visitor") continue;
      const answer = await send({ ...target, role: "visitor" }, body, true, "POST");
      expect(answer.status, `${target.path} without a session`).toBeLessThan(500);
    }
    expect(await snapshot()).toEqual(before);
  });

  /** Cases sent by the properties below, to sign the roles in again now and then. */
  let sent = 0;

  /** The server's last words, for the message of a test that met a 5xx. */
  const serverLog = (status: number) => (status >= 500 ? server.output().slice(-3000) : "");

  /** Sends with node:http, which carries any method its parser knows, TRACE and CONNECT included. */
  const sendRaw = (
    method: string,
    path: string,
    cookie: string,
    body: string | null,
    extra: Record<string, string> = {},
  ) =>
    new Promise<{ status: number; text: string; type: string }>((resolve, reject) => {
      requests++;
      const headers: Record<string, string> = { origin: server.url, ...extra };
      if (cookie) headers.cookie = cookie;
      const request = http.request({ host: "127.0.0.1", port: server.port, method, path, headers });
      request.on("response", (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode!, text, type: response.headers["content-type"] ?? "" }),
        );
      });
      request.on("connect", (response, socket) => {
        socket.destroy();
        resolve({ status: response.statusCode!, text: "", type: "" });
      });
      request.setTimeout(30_000, () => request.destroy(new Error(`${method} ${path}: no answer within 30 s`)));
      request.on("error", reject);
      request.end(body ?? undefined);
    });

  /** A 4xx of the API says why in `{ error }`; a page's says it in its body. */
  const expectExplained = (
    label: string,
    answer: { status: number; text: string; type: string },
    api: boolean,
    outage = false,
  ) => {
    // Only a provider that is down may leave a call unanswerable: 503, saying so.
    if (!(outage && answer.status === 503)) {
      expect(answer.status, `${label}\n${answer.text.slice(0, 500)}\n${serverLog(answer.status)}`).toBeLessThan(500);
    }
    if (answer.status < 400 || answer.status === 405 || answer.text === "") return;
    if (api) {
      expect(answer.type, label).toContain("application/json");
      const { error } = JSON.parse(answer.text) as { error?: unknown };
      expect(typeof error === "string" && error.length > 0, `${label}: ${answer.text.slice(0, 200)}`).toBe(true);
    } else expect(answer.text.trim().length, label).toBeGreaterThan(0);
  };

  it(
    `answers ${RUNS} generated list queries, sorts and cursors included, without a 5xx`,
    async () => {
      await fc.assert(
        fc.asyncProperty(listCase, async (c) => {
          if (++sent % 25 === 0) await refreshSessions();
          const params = new URLSearchParams();
          if (c.sort !== null) params.set("sort", c.sort);
          if (c.dir !== null) params.set("dir", c.dir);
          if (c.after !== null) params.set("after", c.after);
          if (c.before !== null) params.set("before", c.before);
          for (const [key, value] of c.filters) params.append(key, value);
          if (c.data)
            params.set("_data", c.list.path === "/members" ? "routes/members._index" : "routes/db.($entity).($view)");
          const path = `${c.list.path}?${params}`;
          requests++;
          const response = await fetch(`${server.url}${path}`, {
            headers: { cookie: cookies[c.role] },
            redirect: "manual",
          });
          const answer = {
            status: response.status,
            text: await response.text(),
            type: response.headers.get("content-type") ?? "",
          };
          if (answer.status >= 500) serverErrors++;
          // A data request's refusal is the thrown answer itself: its message, as JSON.
          expectExplained(`GET ${path.slice(0, 300)} (${c.role}) → ${answer.status}`, answer, false);
          // An admin's list always answers, what it cannot use left out and named, unless its
          // address is too long to read (414, 431)...
          if (c.role === "admin" && answer.status !== 414 && answer.status !== 431) {
            // ...and an address holding NUL is refused before any page reads it.
            const expected = /%00/i.test(path) ? 400 : 200;
            expect(answer.status, `GET ${path.slice(0, 300)} → ${answer.status}`).toBe(expected);
          }
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    },
    60_000 + RUNS * 1_000,
  );

  it(
    `answers ${RUNS} requests with methods no route takes without a 5xx`,
    async () => {
      await fc.assert(
        fc.asyncProperty(methodCase, async ({ method, target, body }) => {
          if (++sent % 25 === 0) await refreshSessions();
          const path = method === "CONNECT" ? `127.0.0.1:${server.port}` : target.path.replace("{memberId}", memberId);
          let answer;
          try {
            answer = await sendRaw(method, path, cookies[target.role === "fresh" ? "creator" : target.role], body);
          } catch {
            resets++;
            const health = await fetch(`${server.url}/healthz`);
            await health.arrayBuffer();
            expect(health.status, `${method} ${path}: the connection was reset and the server is unwell`).toBe(200);
            return;
          }
          if (answer.status >= 500 && answer.status !== 501) serverErrors++;
          const label = `${method} ${path} (${target.role}) → ${answer.status}`;
          // TRACE and CONNECT are answered 501: no route takes them, whatever the path. Node's
          // own parser refuses one that carries a body with a 400 first.
          if (method === "TRACE" || method === "CONNECT") expect([400, 501], label).toContain(answer.status);
          else expectExplained(label, answer, path.startsWith("/api/"));
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    },
    60_000 + RUNS * 1_000,
  );

  it(
    `answers ${RUNS} requests with odd targets, forwarded hosts, ranges and long path segments without a 5xx`,
    async () => {
      await fc.assert(
        fc.asyncProperty(targetCase, async (c) => {
          if (++sent % 25 === 0) await refreshSessions();
          const here = `127.0.0.1:${server.port}`;
          const path = c.target.replace("{here}", here).replace("{memberId}", memberId);
          const extra: Record<string, string> = {};
          if (c.forwardedHost !== null) extra["x-forwarded-host"] = c.forwardedHost.replace("{here}", here);
          if (c.range !== null) extra.range = c.range;
          const label = `${c.method} ${path.slice(0, 200)} ${JSON.stringify(extra)} (${c.role})`;
          let answer;
          try {
            answer = await sendRaw(c.method, path, cookies[c.role], c.method === "POST" ? "a=1" : null, {
              ...extra,
              ...(c.method === "POST" ? { "content-type": "application/x-www-form-urlencoded" } : {}),
            });
          } catch {
            resets++;
            const health = await fetch(`${server.url}/healthz`);
            await health.arrayBuffer();
            expect(health.status, `${label}: the connection was reset and the server is unwell`).toBe(200);
            return;
          }
          if (answer.status >= 500) serverErrors++;
          expectExplained(`${label} → ${answer.status}`, answer, path.startsWith("/api/"));
          // A write whose forwarded host is not the site's is refused as another site's write.
          const forwarded = extra["x-forwarded-host"]?.split(",")[0]?.trim();
          const foreign = forwarded !== undefined && forwarded !== "" && forwarded !== here;
          if (c.method === "POST" && foreign && path.startsWith("/") && answer.status !== 414 && answer.status !== 431)
            expect(answer.status, label).toBe(403);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    },
    60_000 + RUNS * 1_000,
  );

  if (real) {
    /** What a member sends that reaches a provider, while the provider now and then fails. */
    const providerCase = fc.record({
      call: fc.constantFrom(
        "notarize",
        "draft",
        "update",
        "refresh",
        "delete",
        "subscribe",
        "donate",
        "credit",
        "setup",
      ),
      stripeFails: fc.constantFrom(undefined, undefined, "server", "network", "rate_limit", "decline"),
      proofFails: fc.constantFrom(undefined, undefined, "server", "network", "rate_limit"),
      times: fc.integer({ min: 1, max: 4 }),
      amount: fc.oneof(fc.constantFrom("5", "25.00", "1,000", "0", "99999999"), text),
      nzId: fc.oneof(fc.constant(null), fc.constantFrom("ot_unknown0000000000000000"), text),
    });
    const notarizeIds: string[] = [];

    /** A round 1 notice of the creator's, saved once, that the notarize calls name. */
    let notice: { cf_number: number; cf_version: string; round_cnt: number } | undefined;
    const noticeOf = async () => {
      if (notice) return notice;
      await refreshSessions();
      const version = "Fuzzed notarizing";
      const saved = await fetch(
        `${server.url}/nol/creator/traffic-stop/notice?version=${encodeURIComponent(version)}`,
        {
          method: "POST",
          headers: { cookie: cookies.creator, origin: server.url },
          body: new URLSearchParams({
            version,
            claimantName: "Cara Creator",
            dailyAmount: "250",
            r1Name: "Officer Example",
            r1Type: "Official",
          }),
          redirect: "manual",
        },
      );
      expect(saved.status, `saving the creator's round 1 notice: ${(await saved.text()).slice(0, 300)}`).toBe(302);
      const response = await fetch(`${server.url}/api/nol/notices?cause_code=TS`, {
        headers: { cookie: cookies.creator },
      });
      const { list } = (await response.json()) as { list: { notice_cf: { cf_number: number; cf_version: string } }[] };
      const found = list.find((n) => n.notice_cf.cf_version === version);
      expect(found, "the saved notice is listed").toBeDefined();
      notice = { cf_number: found!.notice_cf.cf_number, cf_version: version, round_cnt: 1 };
      return notice;
    };

    it(
      `answers ${RUNS} calls that reach Stripe and Proof, failing now and then, without a 5xx`,
      async () => {
        await fc.assert(
          fc.asyncProperty(providerCase, async (c) => {
            if (++sent % 25 === 0) await refreshSessions();
            if (c.stripeFails) stripe!.failNext(c.stripeFails as "server", { times: c.times });
            if (c.proofFails) proof!.failNext(c.proofFails as "server", { times: c.times });
            const notice = await noticeOf();
            const outage = [c.stripeFails, c.proofFails].some((f) => f !== undefined && f !== "decline");
            const json = (method: string, path: string, body?: unknown) =>
              send(
                { path, kind: "json", role: "creator" },
                {
                  what: c.call,
                  body: body === undefined ? undefined : JSON.stringify(body),
                  contentType: "application/json",
                },
                true,
                method,
                outage,
              );
            const form = (path: string, role: Role, fields: Record<string, string>) =>
              send(
                { path, kind: "form", role },
                {
                  what: c.call,
                  body: new URLSearchParams(fields).toString(),
                  contentType: "application/x-www-form-urlencoded",
                },
                true,
                "POST",
                outage,
              );
            const nzId = c.nzId ?? notarizeIds.at(-1) ?? "ot_unknown0000000000000000";
            const answer = await (async () => {
              switch (c.call) {
                case "notarize":
                case "draft": {
                  const made = await json("POST", "/api/nol/notarize", { ...notice, draft: c.call === "draft" });
                  const id = /"nz_id":"([^"]+)"/.exec(made.text)?.[1];
                  if (id && !notarizeIds.includes(id)) notarizeIds.push(id);
                  return made;
                }
                case "update":
                  return json("PUT", `/api/nol/notarize/${encode(nzId)}`, { send: true });
                case "refresh":
                  return json("POST", `/api/nol/notarize/refresh/${encode(nzId)}`);
                case "delete":
                  return json("DELETE", `/api/nol/notarize/${encode(nzId)}`);
                case "subscribe":
                  return form("/subscription", "visitor", { attempt: randomUUID(), planId: "monthly" });
                case "donate":
                  return form("/subscription", "visitor", {
                    attempt: randomUUID(),
                    planId: "donation",
                    amount: c.amount,
                    email: "giver@example.org",
                  });
                case "credit":
                  return form("/subscription", "member", { attempt: randomUUID(), planId: "notarize-credit" });
                case "setup":
                  return form("/setup/membership", "newbie", { attempt: randomUUID(), planId: "monthly" });
              }
            })();
            // A failure this case left unused must not fail the next one.
            stripe!.clearFailures();
            proof!.clearFailures();
            if (answer.status === 0) return;
            const label = `${c.call} (Stripe: ${c.stripeFails ?? "up"}, Proof: ${c.proofFails ?? "up"}) → ${answer.status}`;
            expectExplained(label, answer, answer.path.startsWith("/api/"), outage);
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
      },
      60_000 + RUNS * 3_000,
    );

    it(
      `answers ${RUNS} signed webhook deliveries of generated bodies without a 5xx`,
      async () => {
        const signer = new Stripe(STRIPE_SECRET_KEY);
        const delivery = fc.oneof(
          jsonish.map((j) => JSON.stringify(j)),
          fc
            .record({
              id: fc.oneof(fc.string({ maxLength: 20 }), fc.constant(undefined)),
              type: fc.constantFrom(
                "invoice.paid",
                "customer.subscription.updated",
                "payment_intent.succeeded",
                "charge.refunded",
                "setup_intent.succeeded",
                "x",
              ),
              created: fc.oneof(fc.integer(), fc.constant(undefined)),
              data: fc.record({
                object: fc.oneof(
                  fc.jsonValue({ maxDepth: 2 }),
                  fc.dictionary(
                    fc.constantFrom("id", "object", "customer", "metadata", "status", "amount"),
                    fc.jsonValue({ maxDepth: 1 }),
                  ),
                ),
              }),
            })
            .map((e) => JSON.stringify(e)),
          fc.string({ maxLength: 60 }),
        );
        await fc.assert(
          fc.asyncProperty(fc.constantFrom("stripe", "notary"), delivery, async (to, payload) => {
            const headers: Record<string, string> = { "content-type": "application/json" };
            if (to === "stripe") {
              headers["stripe-signature"] = signer.webhooks.generateTestHeaderString({
                payload,
                secret: STRIPE_WEBHOOK_SECRET,
              });
            } else {
              headers["x-notarize-signature"] = createHmac("sha256", PROOF_WEBHOOK_SECRET)
                .update(payload)
                .digest("hex");
            }
            requests++;
            const response = await fetch(`${server.url}/api/webhooks/${to}`, {
              method: "POST",
              headers,
              body: payload,
            });
            const answer = {
              status: response.status,
              text: await response.text(),
              type: response.headers.get("content-type") ?? "",
            };
            if (answer.status >= 500) serverErrors++;
            expectExplained(`a signed ${to} delivery → ${answer.status}: ${payload.slice(0, 200)}`, answer, true);
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
      },
      60_000 + RUNS * 1_000,
    );
  }

  if (!real)
    describe("the review's probes", () => {
      const entry = (meta: Record<string, unknown>) => ({
        Hash: "0".repeat(64),
        Id: "187-90",
        Form: { Id: "187", InternalName: "NoLCreator2", Name: "NoL Creator 2" },
        Entry: {
          Number: 90,
          Version: 1,
          DateCreated: "2026-05-01T10:00:00Z",
          DateUpdated: "2026-05-02T10:00:00Z",
          EditLink: "https://www.cognitoforms.com/community/nolcreator2/90#edit*",
          ViewLink: "https://www.cognitoforms.com/community/nolcreator2/90#view*",
          ...meta,
        },
        Username: "creator",
        Cause: "TS",
        DescriptiveVersion: "County court 2026",
        Round: 1,
      });
      const webhook = (body: unknown) =>
        fetch(`${server.url}/api/forms/cognito/${WEBHOOK_SECRET}/submit`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });

      it("refuses a webhook entry Number of 2^31 with 400, storing nothing", async () => {
        const before = await snapshot();
        const response = await webhook(entry({ Number: 2 ** 31 }));
        expect(response.status).toBe(400);
        expect(((await response.json()) as { error?: string }).error).toBeTruthy();
        expect(await snapshot()).toEqual(before);
      });

      it.each([
        ["EditLink", "javascript:alert(document.cookie)"],
        ["ViewLink", "data:text/html,<script>alert(1)</script>"],
      ])("refuses a webhook entry whose %s is %s with 400", async (field, link) => {
        const response = await webhook(entry({ [field]: link }));
        expect(response.status).toBe(400);
        const body = (await response.json()) as { fieldErrors?: Record<string, string[]> };
        expect(body.fieldErrors?.[`Entry.${field}`]).toBeDefined();
      });

      it.each([
        "/api/config",
        "/api/config/causes",
        "/api/schema",
        "/api/entry/nol-editors",
        "/api/entry/nol-member-versions",
        "/api/login/recheck",
        "/api/login/lrm-auth?auth_code=x&hash=y",
        "/api/billing/membership",
      ])("answers a POST to %s, which only reads, with the API's 405 { error }", async (path) => {
        const response = await fetch(`${server.url}${path}`, {
          method: "POST",
          headers: { cookie: cookies.member, origin: server.url, "content-type": "application/json" },
          body: "{}",
        });
        expect(response.status).toBe(405);
        expect(response.headers.get("allow")).toBe("GET, HEAD");
        expect(await response.json()).toEqual({ error: "Use GET" });
      });

      it("answers GET /%5C for a signed-in member with 404", async () => {
        const response = await fetch(`${server.url}/%5C`, { headers: { cookie: cookies.member }, redirect: "manual" });
        await response.arrayBuffer();
        expect(response.status).toBe(404);
      });

      it("refuses a signed-in POST without Origin or Referer with 403", async () => {
        const response = await fetch(`${server.url}/nol/editor`, {
          method: "POST",
          headers: { cookie: cookies.member },
          body: new URLSearchParams({ intent: "add", username: "creator" }),
          redirect: "manual",
        });
        expect(response.status).toBe(403);
        expect(((await response.json()) as { error?: string }).error).toBeTruthy();
      });
    });
});
