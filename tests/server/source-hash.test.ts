import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sourceHash } from "../../scripts/source-hash.mjs";

const hashOf = sourceHash as (root: string) => string;

describe("npm start's build check", () => {
  it("reuses a build: its own output in public/build does not count as a change; a source file does", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "memberhall-hash-"));
    mkdirSync(path.join(root, "app"));
    mkdirSync(path.join(root, "public", "build"), { recursive: true });
    writeFileSync(path.join(root, "app", "root.tsx"), "export default 1;\n");
    writeFileSync(path.join(root, "public", "favicon.svg"), "<svg/>");
    const before = hashOf(root);

    writeFileSync(path.join(root, "public", "build", "entry.client-ABC123.js"), "built");
    expect(hashOf(root)).toBe(before);

    writeFileSync(path.join(root, "app", "root.tsx"), "export default 2;\n");
    expect(hashOf(root)).not.toBe(before);
  });
});
