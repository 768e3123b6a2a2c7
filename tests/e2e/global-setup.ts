import { mkdirSync, writeFileSync } from "node:fs";
import { startServer, tempDataDir } from "../helpers/server";
import { LOGIN_RECHECK_SECONDS } from "./freshness";
import { HANDOFF_SECRET, startLearningSite } from "./learning-site";
import { prepareDatabase, serverSecrets } from "./prepare-database";

/**
 * Prepares a temporary DATA_DIR (migrations, the demo seed, a pool of signed-in sessions
 * for each demo member), then starts the built app on it with the production rate limits,
 * and the stand-in learning site.
 */
export default async function globalSetup() {
  const learningSite = await startLearningSite();
  const dataDir = tempDataDir();
  const env = {
    LRM_URL: learningSite.url,
    LRM_HANDOFF_SECRET: HANDOFF_SECRET,
    LOGIN_RECHECK_SECONDS: String(LOGIN_RECHECK_SECONDS),
    ...serverSecrets(),
  };
  await prepareDatabase({ ...env, NODE_ENV: "development", DATA_DIR: dataDir });
  const server = await startServer({ env, dataDir });
  // Workers inherit the environment set here.
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATA_DIR = server.dataDir;
  process.env.E2E_LEARNING_SITE = learningSite.url;
  return async () => {
    await server.stop();
    // The server's log, to read after a failed run.
    mkdirSync(".cache", { recursive: true });
    writeFileSync(".cache/e2e-server.log", server.output());
    await learningSite.close();
  };
}
