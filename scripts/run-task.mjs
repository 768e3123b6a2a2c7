import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { sourceHash } from "./source-hash.mjs";

/**
 * Runs one task of the built server (MEMBERHALL_TASK) with the command line's first argument,
 * building the server first when its build is missing or older than the source; exits with
 * the task's code.
 */
export function runTask(task) {
  const built = existsSync("dist/.source-hash") && existsSync("dist/server.js") && existsSync("build/index.js");
  if (!built || readFileSync("dist/.source-hash", "utf8").trim() !== sourceHash()) {
    const result = spawnSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  const env = { ...process.env, MEMBERHALL_TASK: task };
  const result = spawnSync(process.execPath, ["dist/server.js", ...process.argv.slice(2, 3)], {
    stdio: "inherit",
    env,
  });
  process.exit(result.status ?? 1);
}
