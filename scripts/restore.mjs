import { runTask } from "./run-task.mjs";

/**
 * `npm run restore -- FILE`: restores a backup made on /admin/backups into an empty database:
 * a pg_dump file into the empty PostgreSQL database DATABASE_URL names, an embedded database's
 * .tar.gz into DATA_DIR (./data) whose pgdata folder is empty or absent. Run it with the
 * server's own settings (its environment file), the server stopped.
 */
runTask("restore");
