import { createRequire } from "node:module";
import path from "node:path";
import type * as ConformModule from "@conform-to/react";
import {
  createStaticHandler,
  json,
  UNSAFE_convertRoutesToDataRoutes,
  type AgnosticDataRouteObject,
  type AgnosticRouteObject,
} from "@remix-run/router";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

/**
 * What the patches of patches/ do that the server's speed depends on (decision 054), beside
 * tests/server/request-path.test.ts: each test fails with the package as published.
 */

const routes: AgnosticRouteObject[] = [
  {
    id: "root",
    path: "/",
    children: [
      { id: "members", path: "members" },
      { id: "member", path: "members/:userId" },
      { id: "step", path: "nol/:form/:cause/:step" },
    ],
  },
];

describe("@remix-run/router, as patched", () => {
  it("converts a routes array to data routes once, each caller's manifest finding every route by its id", () => {
    const mapRouteProperties = () => ({ hasErrorBoundary: false });
    const manifest: Record<string, AgnosticDataRouteObject> = {};
    const first = UNSAFE_convertRoutesToDataRoutes(routes, mapRouteProperties, undefined, manifest);
    const other: Record<string, AgnosticDataRouteObject> = {};
    expect(UNSAFE_convertRoutesToDataRoutes(routes, mapRouteProperties, undefined, other)).toBe(first);
    for (const id of ["member", "members", "root", "step"]) {
      expect(other[id]).toBeDefined();
      expect(other[id]).toBe(manifest[id]);
    }
    expect(other.step!.path).toBe("nol/:form/:cause/:step");
    // Another mapping converts them again.
    expect(UNSAFE_convertRoutesToDataRoutes(routes, () => ({ hasErrorBoundary: true }), undefined, {})).not.toBe(first);
  });
});

describe("@remix-run/router's loader answers, as patched", () => {
  it("reads a json() answer's data from the text it was made of, leaving its body unread", async () => {
    const answers: Response[] = [];
    const handler = createStaticHandler([
      {
        id: "page",
        path: "/",
        loader: () => {
          const answer = json({ name: "Ada", at: "2026-12-07T00:00:00.000Z" }, { headers: { "X-Kept": "yes" } });
          answers.push(answer);
          return answer;
        },
      },
    ]);
    const context = await handler.query(new Request("http://localhost/"));
    if (context instanceof Response) throw new Error("the page answered a redirect");
    expect(context.loaderData.page).toEqual({ name: "Ada", at: "2026-12-07T00:00:00.000Z" });
    expect(context.loaderHeaders.page?.get("X-Kept")).toBe("yes");
    expect(answers).toHaveLength(1);
    expect(answers[0]!.bodyUsed).toBe(false);
  });

  it("still reads an answer made some other way from its body", async () => {
    const handler = createStaticHandler([
      { id: "page", path: "/", loader: () => Response.json({ made: "elsewhere" }) },
    ]);
    const context = await handler.query(new Request("http://localhost/"));
    if (context instanceof Response) throw new Error("the page answered a redirect");
    expect(context.loaderData.page).toEqual({ made: "elsewhere" });
  });
});

describe("@conform-to/react, as patched", () => {
  const load = createRequire(import.meta.url);
  // The CommonJS build, whose helpers module can be watched: the ES build binds them at import.
  const conform = load("@conform-to/react") as typeof ConformModule;
  const dist = path.dirname(load.resolve("@conform-to/react"));
  const helpers = load(path.join(dist, "_virtual/_rollupPluginBabelHelpers.js")) as {
    objectSpread2: (...args: unknown[]) => unknown;
  };
  const names = Array.from({ length: 40 }, (_, i) => `field${i}`);

  /** The objects conform copies to render a form of 40 fields, reading `reads` of each field's metadata. */
  function copiesToRender(reads: number): number {
    function Form() {
      const [form, fields] = conform.useForm({
        id: "many",
        defaultValue: Object.fromEntries(names.map((n) => [n, n])),
      });
      return createElement(
        "form",
        { id: form.id },
        names.map((name) => {
          const field = fields[name]!;
          const props = (
            [
              ["id", () => field.id],
              ["name", () => field.name],
              ["defaultValue", () => field.initialValue],
              ["aria-invalid", () => (field.errors ? true : undefined)],
            ] as const
          )
            .slice(0, reads)
            .map(([prop, read]) => [prop, read()]);
          return createElement("input", { key: name, ...Object.fromEntries(props) });
        }),
      );
    }
    const original = helpers.objectSpread2;
    let copies = 0;
    helpers.objectSpread2 = (...args) => {
      copies += 1;
      return original(...args);
    };
    try {
      renderToString(createElement(Form));
    } finally {
      helpers.objectSpread2 = original;
    }
    return copies;
  }

  it("reads more of a field's metadata without copying the form's subscriptions or metadata again", () => {
    expect(copiesToRender(4)).toBe(copiesToRender(1));
  });
});
