import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { users } from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { siteCookies } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createSession } from "../helpers/users";

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

describe("rendering a page", () => {
  let database: TestDatabase;
  let handle: (request: Request) => Promise<Response>;
  let handler: ReturnType<typeof createRequestHandler>;
  let context: AppLoadContext;

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    const file = path.resolve(import.meta.dirname, "../../build/index.js");
    const build = (await import(pathToFileURL(file).href)) as ServerBuild;
    handler = createRequestHandler(build, "production");
    context = testContext(database);
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
    // The first render makes them; the four after it are handed the same.
    const made = (spy: typeof serverRoutes | typeof dataRoutes) =>
      new Set(spy.mock.results.map((result) => result.value as unknown));
    expect(serverRoutes).toHaveBeenCalledTimes(5);
    expect(new Set(serverRoutes.mock.calls.map((call) => call[1])).size).toBe(1);
    expect(made(serverRoutes).size).toBe(1);
    expect(dataRoutes).toHaveBeenCalledTimes(5);
    expect(made(dataRoutes).size).toBe(1);
  });

  it("reads a page's viewer once for all of its loaders, through the object the server makes for the request", async () => {
    const [member] = await database.db.select().from(users).where(eq(users.username, "member"));
    const app = context.app!;
    const cookie = await siteCookies(app.config).session.serialize((await createSession(database.db, member!.id)).id);
    const reads = vi.spyOn(app.viewers, "read");
    const page = (thisRequest?: object) =>
      handler(new Request("http://localhost/profile", { headers: { cookie } }), { ...context, thisRequest });

    const shared = await page({});
    expect(shared.status).toBe(200);
    expect(await shared.text()).toContain("member@memberhall.example");
    expect(reads).toHaveBeenCalledTimes(1);

    // A context that may serve several requests keeps nothing: each loader reads its own.
    reads.mockClear();
    expect((await page()).status).toBe(200);
    expect(reads.mock.calls.length).toBeGreaterThan(1);
  });
});
