import { parseArgs } from "node:util";
import { startS3Standin } from "./s3-standin";

/**
 * The S3 stand-in as a process of its own, for tests driven from a shell:
 *
 *   npx tsx tests/helpers/s3-standin-main.ts --dir D [--port P] [--bucket B] [--region R]
 *     [--access-key-id K] [--secret-access-key S]
 *
 * Once it listens it prints one JSON line, {url,bucket,accessKeyId,secretAccessKey,region},
 * the settings a server needs to store its backups there. SIGUSR1 takes it down (every request
 * answered 503) and SIGUSR2 brings it back, so a script can play an outage; SIGTERM or SIGINT
 * stops it. npx does not pass signals on to what it runs: a script that must stop the stand-in
 * starts it with node_modules/.bin/tsx (which does), or signals its process group.
 */

const { values } = parseArgs({
  options: {
    dir: { type: "string" },
    port: { type: "string", default: "0" },
    bucket: { type: "string" },
    region: { type: "string" },
    "access-key-id": { type: "string" },
    "secret-access-key": { type: "string" },
  },
});
const port = Number(values.port);
if (!values.dir || !Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error("Usage: s3-standin-main.ts --dir DIR [--port PORT] (objects are kept under DIR)");
  process.exit(2);
}

const standin = await startS3Standin({
  dir: values.dir,
  port,
  bucket: values.bucket,
  region: values.region,
  accessKeyId: values["access-key-id"],
  secretAccessKey: values["secret-access-key"],
});
const { url, bucket, accessKeyId, secretAccessKey, region } = standin;
process.stdout.write(`${JSON.stringify({ url, bucket, accessKeyId, secretAccessKey, region })}\n`);

process.on("SIGUSR1", () => standin.setDown(true));
process.on("SIGUSR2", () => standin.setDown(false));
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => void standin.close().then(() => process.exit(0)));
}
