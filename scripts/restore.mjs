import { runTask } from "./run-task.mjs";

/**
 * `npm run restore -- FILE | s3://bucket/key | --latest [--counts]`: restores a backup into an
 * empty database: a pg_dump file into the empty PostgreSQL database DATABASE_URL names, an
 * embedded database's .tar.gz into DATA_DIR (./data) whose pgdata folder is empty or absent.
 * Run it with the server's own settings (its environment file), the server stopped.
 *
 * - FILE: a backup file, encrypted (.age) or not.
 * - s3://bucket/key: a backup in an S3-compatible store, read with S3_ENDPOINT, S3_REGION,
 *   S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and S3_FORCE_PATH_STYLE; the key is the object's
 *   whole key (S3_PREFIX and the file name).
 * - --latest: the newest backup of the configured database's kind in the store the server
 *   sends its backups to (BACKUP_STORE=s3, S3_BUCKET, S3_PREFIX).
 * - An encrypted backup is read with its private key: BACKUP_IDENTITY (the key itself) or
 *   BACKUP_IDENTITY_FILE (the file `npm run backup:keygen` wrote).
 * - --counts (or RESTORE_PRINT_COUNTS=1): once restored, a last line `counts {json}` gives
 *   each table's rows ("schema.table": rows), for a test restore to compare.
 *
 * Exit codes: 0 restored; 2 refused, nothing changed (the reason on one line); 78 settings that
 * cannot be read; 1 anything else.
 */
const given = process.argv.slice(2);
const rest = given.filter((arg) => arg !== "--counts");
if (rest.length > 1) {
  process.stderr.write(
    `Name one backup: npm run restore -- FILE | s3://bucket/key | --latest [--counts] (got ${rest.join(" ")})\n`,
  );
  process.exit(2);
}
// The built server's task takes one argument: the flag goes to it in its environment.
if (rest.length < given.length) process.env.RESTORE_PRINT_COUNTS = "1";
process.argv.splice(2, given.length, ...rest);
runTask("restore");
