import { createRequire } from "node:module";

/**
 * Remix's `RemixServer` makes the server routes of the build anew on every render (a new
 * routes array, each route a new object), and the router keeps what it works out for a routes
 * array (its ranked branches, its data routes) only while it is handed the same one. The
 * routes made for a build's modules are kept and handed out again while every module is the
 * same; the server runtime's object of those modules, which it makes for every document
 * request, is made once per build too (docs/decisions/055-server-routes-and-viewer-kept-by-the-app.md).
 *
 * Both functions are read off their module's exports at each call, as the CommonJS builds the
 * server loads do: the kept copies are put in their places there, once per process.
 */
type CreateServerRoutes = (
  manifest: object,
  routeModules: Record<string, unknown>,
  future: unknown,
  isSpaMode: unknown,
  ...rest: unknown[]
) => unknown;

type RoutesModule = { createServerRoutes: CreateServerRoutes & { [KEPT]?: true } };

type CreateEntryRouteModules = (manifest: object) => Record<string, unknown>;

type EntryModule = { createEntryRouteModules: CreateEntryRouteModules & { [KEPT]?: true } };

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
      (kept.routeModules === routeModules || sameModules(kept.routeModules, routeModules))
    ) {
      return kept.routes;
    }
    const routes = make(manifest, routeModules, future, isSpaMode);
    // The modules as the server runtime keeps them (frozen), else a copy of them.
    const modules = Object.isFrozen(routeModules) ? routeModules : { ...routeModules };
    made.set(manifest, { routes, routeModules: modules, future, isSpaMode });
    return routes;
  };
}

/** One frozen object of a build's route modules, for every request of the build. */
export function keptEntryRouteModules(make: CreateEntryRouteModules): CreateEntryRouteModules {
  const made = new WeakMap<object, Record<string, unknown>>();
  return function createEntryRouteModules(manifest) {
    let modules = made.get(manifest);
    if (!modules) {
      modules = Object.freeze(make(manifest));
      made.set(manifest, modules);
    }
    return modules;
  };
}

const place = <K extends string, F extends (...args: never[]) => unknown>(
  module: Record<K, F & { [KEPT]?: true }>,
  name: K,
  keep: (make: F) => F,
): void => {
  const make = module[name];
  if (typeof make !== "function") {
    throw new Error(
      `${name} is not where the server keeps it from: see docs/decisions/055-server-routes-and-viewer-kept-by-the-app.md`,
    );
  }
  if (make[KEPT]) return;
  module[name] = Object.assign(keep(make), { [KEPT]: true as const });
};

/** Puts the kept copies in the places Remix calls them from; a package without them stops the server. */
export function keepServerRoutes(
  modules: { routes: RoutesModule; entry: EntryModule } = {
    routes: createRequire(import.meta.url)("@remix-run/react/dist/routes.js") as RoutesModule,
    entry: createRequire(import.meta.url)("@remix-run/server-runtime/dist/entry.js") as EntryModule,
  },
): void {
  place(modules.routes, "createServerRoutes", keptServerRoutes);
  place(modules.entry, "createEntryRouteModules", keptEntryRouteModules);
}
