import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import type { ServerEntry } from "./app/entry.server";

/**
 * The production server's launcher (bundled to dist/server.js, what `npm start` runs). It
 * reaches the app only through the Remix server build: the HTTP server, the job runner and
 * the routes all come from build/index.js, so every module of app/ exists once in the
 * process and an error a provider throws is the one its service catches.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const build = (await import(pathToFileURL(path.join(ROOT, "build/index.js")).href)) as ServerBuild;
const entry = build.entry.module as unknown as ServerEntry;
await entry.runServerProcess({ build, root: ROOT, script: fileURLToPath(import.meta.url) });
