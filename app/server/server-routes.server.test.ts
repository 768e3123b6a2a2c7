import { describe, expect, it, vi } from "vitest";
import { keepServerRoutes, keptEntryRouteModules, keptServerRoutes } from "./server-routes.server";

describe("the kept server routes", () => {
  const manifest = { root: { id: "root" } };
  const home = { default: () => null };

  it("are made once for the same modules, and again when a module changes", () => {
    const make = vi.fn(() => [{ id: "root" }]);
    const create = keptServerRoutes(make);
    const first = create(manifest, { root: home }, {}, false);
    const future = {};
    expect(create(manifest, { root: home }, {}, false)).not.toBe(first); // another future: made again
    const kept = create(manifest, { root: home }, future, false);
    expect(create(manifest, { root: home }, future, false)).toBe(kept);
    expect(create(manifest, { root: { default: () => null } }, future, false)).not.toBe(kept);
    expect(make).toHaveBeenCalledTimes(4);
  });

  it("pass a call with a parent through to the package", () => {
    const make = vi.fn(() => []);
    const create = keptServerRoutes(make);
    create(manifest, { root: home }, {}, false, "root");
    create(manifest, { root: home }, {}, false, "root");
    expect(make).toHaveBeenCalledTimes(2);
  });

  it("hand out one frozen object of a build's modules", () => {
    const create = keptEntryRouteModules((routes) => Object.fromEntries(Object.keys(routes).map((id) => [id, home])));
    const modules = create(manifest);
    expect(create(manifest)).toBe(modules);
    expect(Object.isFrozen(modules)).toBe(true);
  });

  it("are put in place once, and stop the server when the package has no such function", () => {
    const make = () => [];
    const routes = { createServerRoutes: make };
    const entry = { createEntryRouteModules: () => ({}) };
    keepServerRoutes({ routes, entry });
    const placed = routes.createServerRoutes;
    expect(placed).not.toBe(make);
    keepServerRoutes({ routes, entry });
    expect(routes.createServerRoutes).toBe(placed);
    expect(() => keepServerRoutes({ routes, entry: {} as never })).toThrow(/createEntryRouteModules/);
  });
});
