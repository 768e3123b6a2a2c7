import http from "node:http";
import { freePort, startServer } from "../helpers/server";

export const HANDOFF_SECRET = "e2e-learning-site-shared-secret-0123456789";

/**
 * Starts the built app, and a stand-in for the learning site on another origin
 * (localhost vs 127.0.0.1), whose /frame?src=… page frames the given address.
 */
export default async function globalSetup() {
  const learnPort = await freePort();
  const learningSite = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://localhost:${learnPort}`);
    const src = url.searchParams.get("src") ?? "";
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end(
      `<!doctype html><html lang="en"><head><title>Learning site</title></head><body>` +
        `<h1>Learning site</h1><iframe title="Members area" src="${src.replace(
          /"/g,
          "&quot;",
        )}" width="800" height="500"></iframe>` +
        `</body></html>`,
    );
  });
  await new Promise<void>((resolve) => learningSite.listen(learnPort, "127.0.0.1", resolve));

  const server = await startServer({
    // Every browser test logs in from 127.0.0.1; the limit itself is tested elsewhere.
    env: { LRM_URL: `http://localhost:${learnPort}`, LRM_HANDOFF_SECRET: HANDOFF_SECRET, AUTH_RATE_LIMIT: "1000" },
  });
  // Workers inherit the environment set here.
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATA_DIR = server.dataDir;
  process.env.E2E_LEARNING_SITE = `http://localhost:${learnPort}`;
  return async () => {
    await server.stop();
    await new Promise((resolve) => learningSite.close(resolve));
  };
}
