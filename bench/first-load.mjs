import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

/** The scripts a route's page loads first: the entry's, then each route's of its chain, with their imports. */
export function firstLoadFiles(entry, routes, route) {
  const files = new Set([entry.module, ...(entry.imports ?? [])]);
  for (let r = route; r; r = r.parentId ? routes[r.parentId] : null)
    for (const f of [r.module, ...(r.imports ?? [])]) files.add(f);
  return files;
}

/**
 * The first-load JavaScript of every page route, read off the production build's assets
 * manifest: the entry, the root and each route in the chain with their imports, gzipped.
 * This is what the HTML of the page preloads, so it covers every route without a server.
 */
export async function firstLoadByRoute(root) {
  const build = await import(pathToFileURL(path.join(root, "build", "index.js")).href);
  const { entry, routes } = build.assets;
  const sizes = new Map();
  const gz = (url) => {
    if (!sizes.has(url)) {
      const file = path.join(root, "public", url.replace(/^\//, ""));
      sizes.set(url, gzipSync(readFileSync(file)).byteLength);
    }
    return sizes.get(url);
  };
  const result = {};
  for (const [id, route] of Object.entries(routes)) {
    if (!build.routes[id]?.module?.default) continue;
    const files = firstLoadFiles(entry, routes, route);
    let bytes = 0;
    for (const f of files) bytes += gz(f);
    result[id] = { kb: Math.round((bytes / 1024) * 10) / 10, scripts: files.size };
  }
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await firstLoadByRoute(process.cwd());
  for (const [id, { kb, scripts }] of Object.entries(result).sort((a, b) => b[1].kb - a[1].kb))
    console.log(`${String(kb).padStart(6)} kB ${String(scripts).padStart(3)}  ${id}`);
}
