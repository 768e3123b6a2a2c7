import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** What the build is made from: when none of it changed, an existing build is reused. */
const INPUTS = [
  "app",
  "public",
  "server.ts",
  "remix.config.js",
  "tsconfig.json",
  "package-lock.json",
  "scripts/build.mjs",
];
/** The build's own output inside the inputs: hashing it would make every build look stale. */
const SKIP = new Set([path.join("public", "build")]);

function* files(root, entry) {
  if (SKIP.has(path.relative(root, entry))) return;
  let stat;
  try {
    stat = statSync(entry);
  } catch {
    return;
  }
  if (stat.isDirectory()) {
    for (const name of readdirSync(entry).sort()) yield* files(root, path.join(entry, name));
  } else if (!/\.test\.tsx?$/.test(entry)) {
    yield entry;
  }
}

export function sourceHash(root = process.cwd()) {
  const hash = createHash("sha256");
  for (const input of INPUTS) {
    for (const file of files(root, path.join(root, input))) {
      hash.update(path.relative(root, file));
      hash.update("\0");
      hash.update(readFileSync(file));
      hash.update("\0");
    }
  }
  return hash.digest("hex");
}
