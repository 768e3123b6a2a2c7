import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { importLine, measureImport } from "./import.mjs";
import { eventLoopDelayMs, freshPostgres, log, percentile, ROOT, rssMb, seedScale, signIn, sleep, startApp } from "./lib.mjs";

/**
 * npm run bench:admin: the admin area at community scale. Fills a database with the scale
 * seed (100,000 members, 1,000,000 NoL entries), starts the built app on it, and measures the
 * members list (plain, searched, each filter, sorted, a later page), a member's page, the
 * CSV export of every member with the server's memory growth, and a 100,000-row members
 * import (bench/import.mjs). On PGlite, and on PostgreSQL
 * too when DATABASE_URL is set. Prints one table and writes bench/results-admin.json.
 *
 * BENCH_ADMIN_RUNS (requests per address, default 40), BENCH_ADMIN_DATA_DIR (an embedded
 * database already filled, kept between runs), SCALE_MEMBERS / SCALE_ENTRIES,
 * BENCH_SKIP_BUILD=1 to reuse the current build.
 */

const RUNS = Number(process.env.BENCH_ADMIN_RUNS ?? 40);
const TARGETS = { listP95Ms: 50, memberP95Ms: 100, exportGrowthMb: 50, loopDelayMs: 100 };

function build() {
  if (process.env.BENCH_SKIP_BUILD === "1" && existsSync(path.join(ROOT, "dist/server.js"))) return;
  log("building the app…");
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
}

/** Requests one address `RUNS` times, one after the other, after a warm-up: p50 and p95 in ms. */
async function timed(url, cookie) {
  const times = [];
  for (let i = 0; i < RUNS + 10; i += 1) {
    const started = performance.now();
    const response = await fetch(url, { headers: { cookie } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    if (i >= 10) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: Math.round(percentile(times, 50)), p95: Math.round(percentile(times, 95)) };
}

/** The loader's JSON of the members list, for its next-page cursor and a member to open. */
async function listData(base, cookie, search) {
  const response = await fetch(`${base}/members?${search}&_data=${encodeURIComponent("routes/members._index")}`, {
    headers: { cookie },
  });
  return (await response.json()).list;
}

/**
 * The CSV export of every member: its time, its rows, the server's memory growth and the event
 * loop's longest delay while it ran.
 */
async function exportAll(app, cookie) {
  const base = app.url;
  const pid = app.child.pid;
  await sleep(1_000);
  await eventLoopDelayMs(app);
  const before = rssMb(pid);
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid) ?? 0);
  }, 50);
  const started = performance.now();
  const response = await fetch(`${base}/members/export.csv`, { headers: { cookie } });
  let rows = -1;
  let bytes = 0;
  for await (const chunk of response.body) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) rows += 1;
  }
  clearInterval(timer);
  const loopDelayMs = await eventLoopDelayMs(app);
  return {
    loopDelayMs,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    rows,
    mb: Math.round(bytes / 1024 / 1024),
    rssBeforeMb: before,
    rssPeakMb: peak,
    growthMb: peak - before,
  };
}

async function benchAdmin(label, target) {
  const app = await startApp(target);
  try {
    const cookie = await signIn(app.url, "admin");
    const first = await listData(app.url, cookie, "sort=joined&dir=desc");
    const creator = await listData(app.url, cookie, "role=nolCreator&sort=joined&dir=desc");
    const plan = (await listData(app.url, cookie, "status=ACTIVE")).rows[0]?.plan ?? "supporter";
    const causes = creator.choices.causes.map((c) => c.value);
    const coupon = creator.choices.coupons[0]?.value ?? "none";
    const pages = {
      "list (newest first)": "",
      "list, later page": `after=${first.next}`,
      "search by username": "q=sm0421",
      "search by name": "q=Khan",
      "search by e-mail": "q=sm09999%40scale",
      "filter: role": "role=nolTester",
      "filter: membership": "status=PAST_DUE",
      "filter: plan": `plan=${plan}`,
      "filter: coupon": `coupon=${coupon}`,
      "filter: country": "country=AU",
      "filter: cause with a NoL": `cause=${causes[0] ?? "TS"}`,
      "filter: joined between": `joined_from=${new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10)}&joined_to=${new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10)}`,
      "filter: last seen between": `seen_from=${new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10)}`,
      "filters combined": "status=ACTIVE&country=GB&role=none",
      "sorted by e-mail": "sort=email&dir=asc",
      "sorted by last seen": "sort=seen&dir=desc",
    };
    const results = {};
    for (const [name, search] of Object.entries(pages)) {
      results[name] = await timed(`${app.url}/members?${search}`, cookie);
      log(`  ${label}: ${name} p95 ${results[name].p95} ms`);
    }
    const memberId = creator.rows[0].id;
    results["member page (a NoL creator)"] = await timed(`${app.url}/members/${memberId}`, cookie);
    log(`  ${label}: member page p95 ${results["member page (a NoL creator)"].p95} ms`);
    const exported = await exportAll(app, cookie);
    log(`  ${label}: export of ${exported.rows} rows in ${exported.seconds} s, memory +${exported.growthMb} MB`);
    const imported = await measureImport(app, cookie);
    log(`  ${importLine(label, imported)}`);
    return { label, pages: results, export: exported, import: imported };
  } finally {
    await app.stop();
  }
}

const mark = (ok) => (ok ? "ok" : "NO");

function printTable(run) {
  const lines = [`\n${run.label}`, `${"".padEnd(32)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)}  target`];
  for (const [name, t] of Object.entries(run.pages)) {
    const target = name.startsWith("member page") ? TARGETS.memberP95Ms : TARGETS.listP95Ms;
    lines.push(
      `${name.padEnd(32)} ${String(t.p50).padStart(8)} ${String(t.p95).padStart(8)}  < ${target} ${mark(t.p95 < target)}`,
    );
  }
  const e = run.export;
  lines.push(
    `export of ${e.rows} members (${e.mb} MB) in ${e.seconds} s: memory ${e.rssBeforeMb} → ${e.rssPeakMb} MB (+${e.growthMb}, < ${TARGETS.exportGrowthMb} ${mark(e.growthMb < TARGETS.exportGrowthMb)}); longest event-loop delay ${e.loopDelayMs} ms (< ${TARGETS.loopDelayMs} ${mark(e.loopDelayMs < TARGETS.loopDelayMs)})`,
  );
  lines.push(importLine(run.label, run.import));
  return lines.join("\n");
}

async function main() {
  build();
  const runs = [];
  const dataDir = process.env.BENCH_ADMIN_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), "memberhall-bench-admin-"));
  const seededMarker = path.join(dataDir, ".scale-seeded");
  let seedSeconds = null;
  if (!existsSync(seededMarker)) {
    seedSeconds = seedScale({ dataDir });
    writeFileSync(seededMarker, new Date().toISOString());
  }
  runs.push({ ...(await benchAdmin("embedded database (PGlite)", { dataDir })), seedSeconds });
  if (process.env.DATABASE_URL) {
    const database = await freshPostgres(process.env.DATABASE_URL);
    try {
      const pgDir = mkdtempSync(path.join(os.tmpdir(), "memberhall-bench-admin-pg-"));
      const pgSeed = seedScale({ dataDir: pgDir, databaseUrl: database.url });
      runs.push({
        ...(await benchAdmin("PostgreSQL", { dataDir: pgDir, databaseUrl: database.url })),
        seedSeconds: pgSeed,
      });
    } finally {
      await database.drop();
    }
  }
  const results = {
    at: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version },
    runs: RUNS,
    targets: TARGETS,
    results: runs,
  };
  writeFileSync(path.join(ROOT, "bench", "results-admin.json"), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${runs.map(printTable).join("\n")}\n\nwritten to bench/results-admin.json\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
