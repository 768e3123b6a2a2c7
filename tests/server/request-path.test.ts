import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { seedDemo } from "~/db/seed.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, type TestDatabase } from "../helpers/db";

/**
 * What a request costs that could be paid once: the router's flattened and ranked route
 * branches, its compiled path patterns, and the server routes and data routes a page is
 * rendered on. The server loads these packages as Node does (CommonJS), and so does this test.
 */
const require = createRequire(import.meta.url);
type RouteObject = { id: string; path?: string; index?: boolean; children?: RouteObject[] };
type Router = {
  matchRoutes(routes: RouteObject[], location: string): { route: RouteObject; params: Record<string, string> }[] | null;
  UNSAFE_convertRoutesToDataRoutes: (...args: unknown[]) => unknown;
};
const router = require("@remix-run/router") as Router;
const remixRoutes = require("@remix-run/react/dist/routes.js") as {
  createServerRoutes: (...args: unknown[]) => unknown;
};

const ROUTES: RouteObject[] = [
  {
    id: "root",
    path: "",
    children: [
      { id: "home", index: true },
      { id: "login", path: "login" },
      { id: "signup", path: "signup/:action?" },
      { id: "nol", path: "nol/:role?/:cause?/:step?" },
      { id: "member", path: "members/:userId?" },
      { id: "db", path: "db/:entity?/:view?" },
      { id: "api", path: "api/*" },
      { id: "missing", path: "*" },
    ],
  },
];
const PATHS = ["/", "/login", "/signup/verify", "/nol/creator/traffic-stop/notice", "/members", "/api/x", "/nothing"];

describe("route matching", () => {
  afterEach(() => vi.restoreAllMocks());

  it("flattens and ranks a routes array once, not on every request", () => {
    const sort = vi.spyOn(Array.prototype, "sort");
    const first = PATHS.map((p) => router.matchRoutes(ROUTES, p)?.map((m) => m.route.id));
    const sortsForFirstRound = sort.mock.calls.length;
    expect(sortsForFirstRound).toBeGreaterThan(0);
    for (let n = 0; n < 50; n++) {
      expect(PATHS.map((p) => router.matchRoutes(ROUTES, p)?.map((m) => m.route.id))).toEqual(first);
    }
    expect(sort.mock.calls.length).toBe(sortsForFirstRound);
    expect(first).toEqual([
      ["root", "home"],
      ["root", "login"],
      ["root", "signup"],
      ["root", "nol"],
      ["root", "member"],
      ["root", "api"],
      ["root", "missing"],
    ]);
  });

  it("compiles each path pattern once", () => {
    for (const p of PATHS) router.matchRoutes(ROUTES, p);
    const compiled = vi.spyOn(globalThis, "RegExp");
    for (let n = 0; n < 20; n++) for (const p of PATHS) router.matchRoutes(ROUTES, p);
    expect(compiled).not.toHaveBeenCalled();
  });

  it("matches a path it has matched before without working it out again, and each caller gets matches of its own", () => {
    const first = router.matchRoutes(ROUTES, "/nol/creator/traffic-stop/notice")!;
    const decode = vi.spyOn(globalThis, "decodeURIComponent");
    const again = router.matchRoutes(ROUTES, "/nol/creator/traffic-stop/notice")!;
    expect(decode).not.toHaveBeenCalled();
    expect(again).toEqual(first);
    again[1]!.params.cause = "changed";
    expect(router.matchRoutes(ROUTES, "/nol/creator/traffic-stop/notice")![1]!.params.cause).toBe("traffic-stop");
    expect(first[1]!.params.cause).toBe("traffic-stop");
  });

  it("keeps matching right past the number of paths it keeps", () => {
    for (let n = 0; n < 2_500; n++) {
      expect(router.matchRoutes(ROUTES, `/members/${n}`)?.map((m) => [m.route.id, m.params.userId])).toEqual([
        ["root", `${n}`],
        ["member", `${n}`],
      ]);
    }
    expect(router.matchRoutes(ROUTES, "/login")?.map((m) => m.route.id)).toEqual(["root", "login"]);
  });

  it("still sees a route added in place to a routes array it has matched", () => {
    const routes: RouteObject[] = [{ id: "root", path: "", children: [{ id: "a", path: "a" }] }];
    expect(router.matchRoutes(routes, "/b")).toBeNull();
    routes[0]!.children!.push({ id: "b", path: "b/:id" });
    expect(router.matchRoutes(routes, "/b/7")?.map((m) => [m.route.id, m.params.id])).toEqual([
      ["root", "7"],
      ["b", "7"],
    ]);
  });
});

describe("the loaders of a request", () => {
  const data = require("@remix-run/server-runtime/dist/data.js") as {
    callRouteLoader(args: {
      loadContext: unknown;
      loader: (args: { request: Request }) => unknown;
      params: Record<string, string>;
      request: Request;
      routeId: string;
      singleFetch: boolean;
    }): Promise<Response>;
  };
  const requestSeenBy = async (request: Request) => {
    let seen: Request | undefined;
    await data.callRouteLoader({
      loadContext: {},
      loader: ({ request }) => {
        seen = request;
        return null;
      },
      params: {},
      request,
      routeId: "root",
      singleFetch: false,
    });
    return seen!;
  };

  it("share the request when there is nothing to take off its address, so what is read for it is read once", async () => {
    const request = new Request("http://localhost/members?q=ada");
    expect(await requestSeenBy(request)).toBe(request);
  });

  it("get the address without the router's own parameters when it has them", async () => {
    for (const url of ["http://localhost/members?q=ada&_data=root", "http://localhost/members?index&q=ada"]) {
      const seen = await requestSeenBy(new Request(url, { headers: { cookie: "a=1" } }));
      expect(seen.url).toBe("http://localhost/members?q=ada");
      expect(seen.headers.get("cookie")).toBe("a=1");
    }
  });
});

describe("rendering a page", () => {
  let database: TestDatabase;
  let handle: (request: Request) => Promise<Response>;

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    const file = path.resolve(import.meta.dirname, "../../build/index.js");
    const build = (await import(pathToFileURL(file).href)) as ServerBuild;
    const handler = createRequestHandler(build, "production");
    const context = testContext(database);
    handle = (request) => handler(request, context);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("makes the server routes and the data routes once, and renders every request on them", async () => {
    const serverRoutes = vi.spyOn(remixRoutes, "createServerRoutes");
    const dataRoutes = vi.spyOn(router, "UNSAFE_convertRoutesToDataRoutes");
    const pages: string[] = [];
    for (const page of ["/login", "/signup", "/login", "/terms-of-service", "/login"]) {
      const response = await handle(new Request(`http://localhost${page}`));
      expect(response.status, page).toBe(200);
      pages.push(await response.text());
    }
    expect(pages[0]).toContain("<form");
    expect(pages[3]).toContain("Terms");
    // The first render makes them; the four after it reuse them.
    expect(serverRoutes).toHaveBeenCalledTimes(1);
    expect(dataRoutes).toHaveBeenCalledTimes(5);
    const made = dataRoutes.mock.results.map((result) => result.value as unknown);
    expect(new Set(made).size).toBe(1);
  });
});
