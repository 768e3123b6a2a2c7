import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The production server is the launcher dist/server.js and the Remix build build/index.js.
 * Each source of app/ must be compiled into one of them only: a second copy has its own
 * classes and its own module state, so an error made by one copy goes unrecognised by the
 * other and a cache or counter exists twice.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => {
  const full = path.join(ROOT, file);
  if (!existsSync(full)) throw new Error(`${file} is missing: build the app first (npm run build)`);
  return readFileSync(full, "utf8");
};

/** The project files a bundle was made of, relative to the project root. */
function launcherSources(): string[] {
  const map = JSON.parse(read("dist/server.js.map")) as { sources: string[] };
  return map.sources.map((source) => path.relative(ROOT, path.resolve(ROOT, "dist", source)));
}
function buildSources(): string[] {
  const meta = JSON.parse(read("build/metafile.server.json")) as { inputs: Record<string, unknown> };
  return Object.keys(meta.inputs).map((input) => path.relative(ROOT, path.resolve(ROOT, input.replace(/^[^:]*:/, ""))));
}

const appSources = (sources: string[]) => sources.filter((source) => source.startsWith(`app${path.sep}`));

describe("the production server's bundles", () => {
  it("compile each app/ source into one bundle only", () => {
    const launcher = new Set(appSources(launcherSources()));
    const twice = appSources(buildSources()).filter((source) => launcher.has(source));
    expect(twice).toEqual([]);
  });

  it("reach the app through the build: the launcher holds server.ts alone, the build holds the server", () => {
    expect(launcherSources()).toEqual(["server.ts"]);
    expect(buildSources()).toEqual(
      expect.arrayContaining([
        "app/entry.server.tsx",
        "app/server/main.server.ts",
        "app/server/http.server.ts",
        "app/services/jobs.server.ts",
        "app/providers/index.server.ts",
      ]),
    );
  });
});
