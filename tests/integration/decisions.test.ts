import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const dir = path.resolve(import.meta.dirname, "../../docs/decisions");
const records = readdirSync(dir).filter((f) => f.endsWith(".md"));

describe("decision records", () => {
  it("are numbered once each, NNN-name.md", () => {
    const numbers = records.map((f) => f.match(/^(\d{3})-[a-z0-9-]+\.md$/)?.[1]);
    expect(numbers).not.toContain(undefined);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it.each(records)("%s has a title, then context, decision and consequences in that order", (file) => {
    const text = readFileSync(path.join(dir, file), "utf8");
    expect(text).toMatch(new RegExp(`^# ${file.slice(0, 3)}: \\S`));
    const at = ["**Context.**", "**Decision.**", "**Consequences.**"].map((part) => text.indexOf(part));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });
});
