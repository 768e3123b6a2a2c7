import type { ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { bearerMatches, routeLabeler, UNMATCHED } from "./metrics-endpoint.server";

type Entry = { id: string; parentId?: string; path?: string; index?: boolean };

/** A build's route manifest as the compiler writes it (flat, each route naming its parent). */
function manifest(entries: Entry[]): ServerBuild["routes"] {
  return Object.fromEntries(
    entries.map((entry) => [entry.id, { caseSensitive: undefined, module: {}, ...entry }]),
  ) as unknown as ServerBuild["routes"];
}

const routes = manifest([
  { id: "root", path: "" },
  { id: "routes/_index", parentId: "root", index: true },
  { id: "routes/members.$userId", parentId: "root", path: "members/:userId" },
  { id: "routes/admin", parentId: "root", path: "admin" },
  { id: "routes/admin._index", parentId: "routes/admin", index: true },
  { id: "routes/admin.imports.$importId", parentId: "routes/admin", path: "imports/:importId" },
  { id: "routes/_auth", parentId: "root" },
  { id: "routes/_auth.login", parentId: "routes/_auth", path: "login" },
  { id: "routes/api.versions", parentId: "root", path: "api/versions" },
  { id: "routes/api.$", parentId: "root", path: "api/*" },
  { id: "routes/$", parentId: "root", path: "*" },
]);

const labelOf = routeLabeler(routes, new Set(["/healthz", "/metrics", "/favicon.ico"]));

describe("routeLabeler", () => {
  it.each([
    ["/", "/"],
    ["/members/6f1c2a9e-0d4b-4c55-9a51-3e0c8f7b1d22", "/members/:userId"],
    ["/members/someone-else/", "/members/:userId"],
    ["/admin", "/admin"],
    ["/admin/imports/42", "/admin/imports/:importId"],
    ["/login", "/login"],
    ["/api/versions", "/api/versions"],
  ])("labels %s with its route's pattern %s", (path, label) => {
    expect(labelOf(path)).toBe(label);
  });

  it("labels the compiled assets as one, and the server's own paths as themselves", () => {
    expect(labelOf("/build/_shared/chunk-ABCDEF.js")).toBe("/build/*");
    expect(labelOf("/build/root-123.css")).toBe("/build/*");
    expect(labelOf("/healthz")).toBe("/healthz");
    expect(labelOf("/metrics")).toBe("/metrics");
    expect(labelOf("/favicon.ico")).toBe("/favicon.ico");
  });

  it("labels what only the catch-all routes answer as unmatched", () => {
    expect(labelOf("/wp-login.php")).toBe(UNMATCHED);
    expect(labelOf("/members/1/2/3")).toBe(UNMATCHED);
    expect(labelOf("/api/no-such-thing")).toBe(UNMATCHED);
    expect(labelOf("/robots.txt")).toBe(UNMATCHED);
  });

  it("labels a path no route matches as unmatched when the build has no catch-all", () => {
    const bare = routeLabeler(
      manifest([
        { id: "root", path: "" },
        { id: "routes/_index", parentId: "root", index: true },
      ]),
      new Set(),
    );
    expect(bare("/")).toBe("/");
    expect(bare("/anything")).toBe(UNMATCHED);
  });
});

describe("bearerMatches", () => {
  const token = "a-metrics-token-of-at-least-32-characters";

  it("takes the token as a bearer token, the scheme in any case", () => {
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`bearer ${token}`, token)).toBe(true);
  });

  it.each([
    ["no header", undefined],
    ["an empty header", ""],
    ["the scheme alone", "Bearer "],
    ["another token", "Bearer a-metrics-token-of-at-least-32-characterz"],
    ["a prefix of the token", `Bearer ${token.slice(0, -1)}`],
    ["the token and more", `Bearer ${token}x`],
    ["another scheme", `Basic ${token}`],
    ["the token without a scheme", token],
  ])("refuses %s", (_what, header) => {
    expect(bearerMatches(header, token)).toBe(false);
  });
});
