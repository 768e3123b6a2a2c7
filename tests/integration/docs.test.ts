import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { envVarNames } from "~/config/env.server";

const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

describe("configuration documentation", () => {
  it("lists every environment variable in the README table and in .env.example", () => {
    const readme = read("README.md");
    const example = read(".env.example");
    for (const name of envVarNames) {
      expect(readme, `README.md lacks ${name}`).toContain(`| \`${name}\` |`);
      expect(example, `.env.example lacks ${name}`).toMatch(new RegExp(`^${name}=`, "m"));
    }
  });

  it("documents no variable the server does not read", () => {
    const example = read(".env.example");
    const documented = [...example.matchAll(/^([A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect(new Set(documented)).toEqual(new Set(envVarNames));
  });

  it("starts the README with the two commands", () => {
    const lines = read("README.md").split("\n");
    const commands = lines.filter((l) => l.startsWith("npm install && "));
    expect(commands[0]).toMatch(/^npm install && npm start\b/);
    expect(commands[1]).toMatch(/^npm install && npm test\b/);
  });
});
