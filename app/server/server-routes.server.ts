import { createRequire } from "node:module";

/**
 * Remix's `RemixServer` makes the server routes of the build anew on every render (a new
 * routes array, each route a new object), and the router keeps what it works out for a routes
 * array (its ranked branches, its data routes) only while it is handed the same one. Each
 * request brings a new `routeModules` object holding the same modules: the routes made for
 * them are kept and handed out again while every module is the same
 * (docs/decisions/055-server-routes-kept-by-the-app.md).
 *
 * `RemixServer` reads `createServerRoutes` off the exports of `@remix-run/react`'s routes
 * module at each call, as the CommonJS build the server loads does: the kept copy is put in
 * its place there, once per process.
 */
type CreateServerRoutes = (
  manifest: object,
  routeModules: Record<string, unknown>,
  future: unknown,
  isSpaMode: unknown,
  ...rest: unknown[]
) => unknown;

type RoutesModule = { createServerRoutes: CreateServerRoutes & { [KEPT]?: true } };

const KEPT = Symbol.for("memberhall.serverRoutesKept");

type Made = { routes: unknown; routeModules: Record<string, unknown>; future: unknown; isSpaMode: unknown };

function sameModules(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(b);
  if (keys.length !== Object.keys(a).length) return false;
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

/** The same server routes for the same manifest and modules; another call is made as before. */
export function keptServerRoutes(make: CreateServerRoutes): CreateServerRoutes {
  const made = new WeakMap<object, Made>();
  return function createServerRoutes(manifest, routeModules, future, isSpaMode, ...rest) {
    // The calls RemixServer makes: the routes of the whole manifest (its own recursion, with
    // a parent, does not come through here).
    if (rest.length > 0) return make(manifest, routeModules, future, isSpaMode, ...rest);
    const kept = made.get(manifest);
    if (
      kept &&
      kept.future === future &&
      kept.isSpaMode === isSpaMode &&
      sameModules(kept.routeModules, routeModules)
    ) {
      return kept.routes;
    }
    const routes = make(manifest, routeModules, future, isSpaMode);
    made.set(manifest, { routes, routeModules: { ...routeModules }, future, isSpaMode });
    return routes;
  };
}

/** Puts the kept copy in the place `RemixServer` calls; a package that has no such place stops the server. */
export function keepServerRoutes(
  routes: RoutesModule = createRequire(import.meta.url)("@remix-run/react/dist/routes.js") as RoutesModule,
): void {
  const make = routes.createServerRoutes;
  if (typeof make !== "function") {
    throw new Error(
      "@remix-run/react has no createServerRoutes to keep: see docs/decisions/055-server-routes-kept-by-the-app.md",
    );
  }
  if (make[KEPT]) return;
  routes.createServerRoutes = Object.assign(keptServerRoutes(make), { [KEPT]: true as const });
}
