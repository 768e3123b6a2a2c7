import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { build } from "esbuild";
import { sourceHash } from "./source-hash.mjs";

/** Builds the Remix app (build/, public/build/) and the production server (dist/server.js). */
const hash = sourceHash();
execFileSync(process.execPath, ["node_modules/@remix-run/dev/dist/cli.js", "build"], { stdio: "inherit" });
await build({
  entryPoints: ["server.ts"],
  outfile: "dist/server.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
mkdirSync("dist", { recursive: true });
writeFileSync("dist/.source-hash", `${hash}\n`);
console.log("built build/index.js, public/build/ and dist/server.js");
