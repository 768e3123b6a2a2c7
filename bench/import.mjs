import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { eventLoopDelayMs, freshPostgres, log, ROOT, rssMb, signIn, sleep, startApp } from "./lib.mjs";

/**
 * npm run bench:import: a members import of BENCH_IMPORT_ROWS rows (default 100,000) through the
 * built app, as an admin does it: the upload with its dry run, then the import as a background
 * job, polled until done. Measures both times and the server's peak memory, on PGlite and, when
 * DATABASE_URL is set, on PostgreSQL. Prints a table and writes bench/results-import.json.
 * `npm run bench:admin` runs it too, over its community-sized database.
 */

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
export const IMPORT_TARGETS = { postgresSeconds: 120, postgresPeakMb: 400, loopDelayMs: 100 };

/** A Ghost-style export: a tenth with labels, one in fifty complimentary, a few lines the dry run skips. */
export function importCsv(rows, prefix = "imp") {
  const lines = ["email,name,created_at,labels,complimentary_plan,subscribed_to_emails,country"];
  for (let i = 0; i < rows; i += 1) {
    const email = i % 997 === 5 ? "not-an-address" : `${prefix}${i}@import.example`;
    const labels = i % 10 === 0 ? '"Imported, Spring"' : "";
    const plan = i % 50 === 0 ? "true" : "false";
    lines.push(
      `${email},Imported Member ${i},2022-01-${String((i % 28) + 1).padStart(2, "0")},${labels},${plan},${i % 3 === 0},GB`,
    );
  }
  return `${lines.join("\n")}\n`;
}

const routeData = (route) => `_data=${encodeURIComponent(route)}`;

/**
 * Runs one import through the app: the dry run's and the import's seconds, peak memory, and the
 * event loop's longest delay during each.
 */
export async function measureImport(app, cookie, rows = ROWS) {
  const base = app.url;
  const pid = app.child.pid;
  const csv = importCsv(rows, `imp${Date.now().toString(36)}`);
  const before = rssMb(pid);
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid) ?? 0);
  }, 50);
  try {
    const form = new FormData();
    form.set("file", new Blob([csv], { type: "text/csv" }), "bench-members.csv");
    await eventLoopDelayMs(app);
    const started = performance.now();
    const uploaded = await fetch(`${base}/members/import`, {
      method: "POST",
      body: form,
      headers: { cookie, origin: base },
      redirect: "manual",
    });
    await uploaded.arrayBuffer();
    const location = uploaded.headers.get("location");
    if (uploaded.status !== 302 || !location) throw new Error(`the upload answered ${uploaded.status}`);
    const checkedAt = performance.now();
    const checkLoopDelayMs = await eventLoopDelayMs(app);
    const page = `${base}${location}`;
    const start = await fetch(page, {
      method: "POST",
      body: new URLSearchParams({ intent: "start" }),
      headers: { cookie, origin: base, "content-type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    });
    await start.arrayBuffer();
    if (start.status !== 302) throw new Error(`starting the import answered ${start.status}`);
    let state;
    // The progress page, as the admin's browser asks for it, and its slowest answer meanwhile.
    let slowestPollMs = 0;
    for (;;) {
      await sleep(500);
      const asked = performance.now();
      const response = await fetch(`${page}?${routeData("routes/members.import.$importId")}`, { headers: { cookie } });
      state = (await response.json()).page.import;
      slowestPollMs = Math.max(slowestPollMs, Math.round(performance.now() - asked));
      if (state.status === "done" || state.status === "failed") break;
    }
    const finished = performance.now();
    const importLoopDelayMs = await eventLoopDelayMs(app);
    if (state.status !== "done") throw new Error(`the import stopped: ${state.error}`);
    return {
      rows,
      fileMb: Math.round((csv.length / 1024 / 1024) * 10) / 10,
      checkSeconds: Math.round((checkedAt - started) / 100) / 10,
      importSeconds: Math.round((finished - checkedAt) / 100) / 10,
      totalSeconds: Math.round((finished - started) / 100) / 10,
      created: state.created,
      updated: state.updated,
      skipped: state.skipped,
      rssBeforeMb: before,
      rssPeakMb: peak,
      slowestPollMs,
      checkLoopDelayMs,
      importLoopDelayMs,
    };
  } finally {
    clearInterval(timer);
  }
}

export function importLine(label, r) {
  const target =
    label === "PostgreSQL"
      ? ` (targets: < ${IMPORT_TARGETS.postgresSeconds} s ${r.totalSeconds < IMPORT_TARGETS.postgresSeconds ? "ok" : "NO"}, < ${IMPORT_TARGETS.postgresPeakMb} MB ${r.rssPeakMb < IMPORT_TARGETS.postgresPeakMb ? "ok" : "NO"})`
      : "";
  return `import of ${r.rows} rows (${r.fileMb} MB) on ${label}: dry run ${r.checkSeconds} s, import ${r.importSeconds} s, in all ${r.totalSeconds} s; ${r.created} created, ${r.updated} updated, ${r.skipped} skipped; memory ${r.rssBeforeMb} → ${r.rssPeakMb} MB; progress page at worst ${r.slowestPollMs} ms; longest event-loop delay: dry run ${r.checkLoopDelayMs} ms, import ${r.importLoopDelayMs} ms (< ${IMPORT_TARGETS.loopDelayMs} ${r.checkLoopDelayMs < IMPORT_TARGETS.loopDelayMs && r.importLoopDelayMs < IMPORT_TARGETS.loopDelayMs ? "ok" : "NO"})${target}`;
}

async function run(label, target) {
  const app = await startApp(target);
  try {
    const cookie = await signIn(app.url, "admin");
    log(`${label}: importing ${ROWS} rows…`);
    return { label, ...(await measureImport(app, cookie)) };
  } finally {
    await app.stop();
  }
}

async function main() {
  if (process.env.BENCH_SKIP_BUILD !== "1" || !existsSync(path.join(ROOT, "dist/server.js"))) {
    log("building the app…");
    execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
  }
  const results = [];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "memberhall-bench-import-"));
  try {
    results.push(await run("PGlite", { dataDir }));
    if (process.env.DATABASE_URL) {
      const database = await freshPostgres(process.env.DATABASE_URL);
      const pgDir = mkdtempSync(path.join(os.tmpdir(), "memberhall-bench-import-pg-"));
      try {
        results.push(await run("PostgreSQL", { dataDir: pgDir, databaseUrl: database.url }));
      } finally {
        await database.drop();
        rmSync(pgDir, { recursive: true, force: true });
      }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const out = {
    at: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version },
    targets: IMPORT_TARGETS,
    results,
  };
  writeFileSync(path.join(ROOT, "bench", "results-import.json"), `${JSON.stringify(out, null, 2)}\n`);
  process.stdout.write(
    `${results.map((r) => importLine(r.label, r)).join("\n")}\n\nwritten to bench/results-import.json\n`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
