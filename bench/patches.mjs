import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { log, ROOT, signIn, startApp } from "./lib.mjs";

/**
 * npm run bench:patches: what each patch of a framework package (patches/) is worth to the
 * pages as they are served. The built app is started on one embedded database; each patch is
 * taken out of node_modules in turn (patch -R), the app started again and the pages measured,
 * each against the mean of two runs with every patch in place, made right before and right
 * after it (this machine's speed drifts from one minute to the next). BENCH_PATCHES names the
 * packages to measure (comma-separated; default all). Every patch is put back at the end, whatever happens.
 * Writes bench/patches.json. BENCH_DURATION: seconds per measurement (default 6).
 *
 * The pages go through the whole router and render: signed-in pages, and /login with a
 * cookie, which the visitor pages' kept copies (decision 053) do not answer.
 */

const DURATION = Number(process.env.BENCH_DURATION ?? 6);
const PATCHES = path.join(ROOT, "patches");

/** The patches the running server reads; a compiler's patch changes the build, not the server. */
const BUILD_ONLY = new Set(["@remix-run/dev"]);

function patchFiles() {
  return readdirSync(PATCHES)
    .filter((name) => name.endsWith(".patch") && !BUILD_ONLY.has(packageOf(name)))
    .sort();
}

const packageOf = (file) => file.replace(/\+[^+]+\.patch$/, "").replace("+", "/");

/** Takes a patch out of node_modules, or puts it back (from the folder node_modules really is in). */
function applyPatch(file, reverse) {
  const cwd = path.dirname(realpathSync(path.join(ROOT, "node_modules")));
  execFileSync("patch", ["-p1", "--silent", reverse ? "-R" : "--forward", "-i", path.join(PATCHES, file)], {
    cwd,
    stdio: ["ignore", "inherit", "inherit"],
  });
}

async function rps(url, cookie, duration = DURATION) {
  const result = await autocannon({ url, connections: 10, duration, headers: { cookie } });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return Math.round(result.requests.average);
}

async function measurePages(dataDir) {
  const app = await startApp({ dataDir });
  try {
    const cookies = {
      member: await signIn(app.url, "member"),
      creator: await signIn(app.url, "creator"),
      admin: await signIn(app.url, "admin"),
    };
    const pages = {
      "/login (with a cookie)": { path: "/login", cookie: "seen=1" },
      "home (member)": { path: "/", cookie: cookies.member },
      "NoL step page": { path: "/nol/creator/traffic-stop/notice?version=Bench", cookie: cookies.creator },
      "admin members list": { path: "/members", cookie: cookies.admin },
    };
    const figures = {};
    for (const [name, page] of Object.entries(pages)) {
      // Warmed first: the first requests compile the page's code.
      await rps(`${app.url}${page.path}`, page.cookie, 2);
      figures[name] = await rps(`${app.url}${page.path}`, page.cookie);
    }
    return figures;
  } finally {
    await app.stop();
  }
}

const only = process.env.BENCH_PATCHES ? new Set(process.env.BENCH_PATCHES.split(",")) : null;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "memberhall-bench-patches-"));
const results = {};
for (const file of patchFiles().filter((name) => !only || only.has(packageOf(name)))) {
  const name = packageOf(file);
  log(`${name}: every patch in place…`);
  const before = await measurePages(dataDir);
  log(`${name}: without its patch…`);
  applyPatch(file, true);
  let without;
  try {
    without = await measurePages(dataDir);
  } finally {
    applyPatch(file, false);
  }
  log(`${name}: every patch in place again…`);
  const after = await measurePages(dataDir);
  // Measured on either side of the run without it: a drift of the machine's speed, or of the
  // database as the runs go on, falls on both.
  results[name] = Object.fromEntries(
    Object.keys(before).map((page) => {
      const withPatch = Math.round((before[page] + after[page]) / 2);
      return [
        page,
        { with: withPatch, without: without[page], gain: Math.round((withPatch / without[page] - 1) * 100) },
      ];
    }),
  );
  log(JSON.stringify(results[name]));
}
writeFileSync(
  path.join(ROOT, "bench/patches.json"),
  `${JSON.stringify({ at: new Date().toISOString(), durationSeconds: DURATION, results }, null, 2)}\n`,
);
for (const [name, pages] of Object.entries(results)) {
  console.log(name);
  for (const [page, figure] of Object.entries(pages))
    console.log(
      `  ${page.padEnd(24)} ${String(figure.with).padStart(6)} req/s with, ${String(figure.without).padStart(6)} without: ${figure.gain >= 0 ? "+" : ""}${figure.gain}%`,
    );
}
