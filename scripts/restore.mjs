import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { sourceHash } from "./source-hash.mjs";

/**
 * `npm run restore -- FILE`: restores a backup made on /admin/backups into an empty database:
 * a pg_dump file into the empty PostgreSQL database DATABASE_URL names, an embedded database's
 * .tar.gz into DATA_DIR (./data) whose pgdata folder is empty or absent. Run it with the
 * server's own settings (its environment file), the server stopped.
 */
const built = existsSync("dist/.source-hash") && existsSync("dist/server.js") && existsSync("build/index.js");
if (!built || readFileSync("dist/.source-hash", "utf8").trim() !== sourceHash()) {
  const result = spawnSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const env = { ...process.env, MEMBERHALL_TASK: "restore" };
const result = spawnSync(process.execPath, ["dist/server.js", ...process.argv.slice(2, 3)], { stdio: "inherit", env });
process.exit(result.status ?? 1);
