import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { sourceHash } from "./source-hash.mjs";

/**
 * `npm run seed:scale`: adds 100,000 members and 1,000,000 NoL entries (with memberships,
 * coupons, sessions, claims and notices) to the app's database: DATABASE_URL, or the embedded
 * one in DATA_DIR (./data), made with the demo data first when it is new. Stop the app first
 * when it runs on the embedded database. SCALE_MEMBERS and SCALE_ENTRIES change the size.
 */
const built = existsSync("dist/.source-hash") && existsSync("dist/server.js") && existsSync("build/index.js");
if (!built || readFileSync("dist/.source-hash", "utf8").trim() !== sourceHash()) {
  const result = spawnSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const env = {
  ...process.env,
  NODE_ENV: process.env.NODE_ENV ?? "production",
  DEMO: process.env.DEMO ?? "1",
  LOG_FORMAT: process.env.LOG_FORMAT ?? "text",
  MEMBERHALL_TASK: "seed-scale",
};
const result = spawnSync(process.execPath, ["--enable-source-maps", "dist/server.js"], { stdio: "inherit", env });
process.exit(result.status ?? 1);
