import http from "node:http";
import { freePort } from "../helpers/server";

/** The hand-off secret the app and the stand-in learning site share. */
export const HANDOFF_SECRET = "e2e-learning-site-shared-secret-0123456789";

/**
 * A stand-in for the learning site on another origin (localhost vs the app's 127.0.0.1),
 * whose /frame?src=… page frames the given address.
 */
export async function startLearningSite(): Promise<{ url: string; close(): Promise<void> }> {
  const port = await freePort();
  const site = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://localhost:${port}`);
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
  await new Promise<void>((resolve) => site.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://localhost:${port}`,
    close: () => new Promise<void>((resolve) => site.close(() => resolve())),
  };
}
