import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { jobs } from "~/services/jobs.server";

/**
 * Imports run one way: route → service → (domain, db, providers). A circle among modules
 * makes their load order decide what a module sees of another at start, and hides which of
 * them is the lower one. Type-only imports count too: they tie the modules' designs together.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
}

const files = sourceFiles("app");
const known = new Set(files);

function resolve(from: string, specifier: string): string | null {
  const base = specifier.startsWith("~/")
    ? path.join("app", specifier.slice(2))
    : specifier.startsWith(".")
      ? path.join(path.dirname(from), specifier)
      : null;
  if (base === null) return null;
  return ["", ".ts", ".tsx", "/index.ts", "/index.tsx"].map((ext) => base + ext).find((f) => known.has(f)) ?? null;
}

const imports = new Map(
  files.map((file) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(path.join(ROOT, file), "utf8"), true, true);
    const targets = importedFiles.map((i) => resolve(file, i.fileName)).filter((f): f is string => f !== null);
    return [file, targets] as const;
  }),
);

/** The circles among the given files (Tarjan's strongly connected components of two or more). */
function circles(within: (file: string) => boolean): string[][] {
  const nodes = files.filter(within);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of imports.get(node)!.filter(within)) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const circle: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        circle.push(member);
      } while (member !== node);
      if (circle.length > 1) found.push(circle.sort());
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return found;
}

describe("the import graph", () => {
  it("reads the imports of the app's modules", () => {
    expect(imports.get("app/services/jobs.server.ts")).toContain("app/services/queue.server.ts");
    expect(imports.get("app/entry.server.tsx")).toContain("app/server/main.server.ts");
  });

  it.each(["app/services/", "app/server/", "app/providers/", "app/db/", "app/lib/", "app/config/"])(
    "has no circle among the files of %s",
    (folder) => {
      expect(circles((file) => file.startsWith(folder))).toEqual([]);
    },
  );

  it("has no circle across the server's layers: services, server, providers, db, lib and config", () => {
    const layers = ["app/services/", "app/server/", "app/providers/", "app/db/", "app/lib/", "app/config/"];
    expect(circles((file) => layers.some((layer) => file.startsWith(layer)))).toEqual([]);
  });
});

describe("the job registry", () => {
  it.each(Object.entries(jobs))("lists %s under its own name", (name, job) => {
    expect(job.name).toBe(name);
  });
});
