import { existsSync, rmSync } from "node:fs";
import path from "node:path";

/**
 * `npm run demo:reset`: removes the demo's embedded database, so the next `npm start` makes a
 * fresh one with the demo data. Stop the demo first. The generated secrets are kept.
 */
const dataDir = path.resolve(process.env.DATA_DIR ?? "./data");
const database = path.join(dataDir, "pgdata");
if (process.env.DATABASE_URL) {
  console.error("DATABASE_URL is set: the demo's data is in that PostgreSQL database, which this does not touch.");
  process.exit(1);
}
if (!existsSync(database)) {
  console.log(`No demo database at ${database}: the next npm start makes a fresh one.`);
} else {
  rmSync(database, { recursive: true, force: true });
  console.log(`Removed ${database}. The next npm start makes a fresh demo.`);
}
