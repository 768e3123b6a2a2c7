import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { SERVER_NODE_FLAGS } from "./server-flags.mjs";
import { sourceHash } from "./source-hash.mjs";

/**
 * `npm start`: build when the sources changed since the last build, then serve.
 * `npm run serve` (`--built`): serve the build there is.
 */
const serveBuilt = process.argv.includes("--built");
const built = existsSync("dist/.source-hash") && existsSync("dist/server.js") && existsSync("build/index.js");
const upToDate = built && readFileSync("dist/.source-hash", "utf8").trim() === sourceHash();
if (serveBuilt && !built) {
  console.error("There is no build to serve: npm run build first (or npm start, which builds).");
  process.exit(1);
}
if (!serveBuilt && !upToDate) {
  const result = spawnSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// React's production build for the server, in the demo's mode (generated secrets, demo data,
// no BASE_URL to set) unless NODE_ENV says otherwise: NODE_ENV=production alone is a deployment.
// The demo speaks to a person at a terminal: short log lines and a banner, not JSON.
const env = process.env.NODE_ENV
  ? process.env
  : {
      ...process.env,
      NODE_ENV: "production",
      DEMO: process.env.DEMO ?? "1",
      LOG_FORMAT: process.env.LOG_FORMAT ?? "text",
    };
const server = spawn(process.execPath, ["--enable-source-maps", ...SERVER_NODE_FLAGS, "dist/server.js"], {
  stdio: "inherit",
  env,
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => server.kill(signal));
}
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
