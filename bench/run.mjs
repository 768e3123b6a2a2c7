import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { firstLoadByRoute } from "./first-load.mjs";
import { idleJavaScript } from "./idle-js.mjs";
import {
  freePort,
  freshPostgres,
  log,
  percentile,
  ROOT,
  rssMb,
  seedScale,
  signIn,
  sleep,
  startApp,
  startProcess,
} from "./lib.mjs";

/**
 * npm run bench: builds the app, starts it on a fresh embedded database with the demo data,
 * starts a bare Remix app of the same Remix version (bench/bare, served by remix-serve) and a
 * raw node:http server answering the same JSON, and measures them in one run. Prints one table
 * and writes bench/results.json, each figure marked against its target (DESIGN §8). With
 * DATABASE_URL set, the app is measured on PostgreSQL too.
 *
 * BENCH_DURATION (seconds per measurement, default 8), BENCH_LIGHTHOUSE=0 to skip Lighthouse
 * (BENCH_LIGHTHOUSE_RUNS, default 3, the runs whose median is kept),
 * BENCH_SKIP_BUILD=1 to reuse the current build, BENCH_SCALE=0 to skip the scale runs,
 * BENCH_SCALE_SIZES (members, default 1000,10000,100000) to choose them.
 *
 * Each page is measured twice: asked again unchanged (a copy the server keeps may answer), and
 * as a first view (a new query string each request, so it is rendered whole).
 *
 * Each ratio is made against the bare app measured right before and right after the target
 * (the better of the two): this machine's speed drifts by half from one minute to the next,
 * so a baseline measured minutes earlier said more about that drift than about the page.
 */

const BARE = path.join(ROOT, "bench", "bare");
const execFileAsync = promisify(execFile);
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = [10, 50];
const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";

const TARGETS = {
  ratio: 0.8,
  p99Ms: 100,
  firstLoadJsKb: 100,
  lighthouse: 95,
  pdfP95Ms: 300,
  // The pages every visitor gets the same, answered from the server's kept copy (decision 053).
  visitor: { "home (visitor)": 1.2, "/login": 1.2 },
  // The signed-in pages: ratio to the bare Remix page, p99 at 50 connections and peak RSS
  // under the bench's load, each by database.
  signedIn: {
    "home (member)": { pglite: 0.7, postgres: 0.7 },
    "NoL step page": { pglite: 0.35, postgres: 0.5 },
    "admin members list": { pglite: 0.35, postgres: 0.5 },
    "/api/entry/nol-member-versions": { pglite: 0.2, postgres: 0.3 },
  },
  // A page asked for the first time, or after what it shows changed: rendered whole.
  firstView: {
    "home (member)": { pglite: 0.7, postgres: 0.6 },
    "home (visitor)": { pglite: 1.0, postgres: 1.0 },
  },
  signedInP99Ms: { pglite: 200, postgres: 100 },
  peakRssMb: { pglite: 450, postgres: 350 },
  idleSeconds: 60,
};
const ratioTarget = (name, db) => TARGETS.visitor[name] ?? TARGETS.signedIn[name]?.[db] ?? TARGETS.ratio;
const p99Target = (name, db) => (TARGETS.signedIn[name] ? TARGETS.signedInP99Ms[db] : TARGETS.p99Ms);

/** The database queries the app says it ran for an answer (SERVER_TIMING=1), or null. */
function queriesOf(response) {
  const match = /\bdb;desc="(\d+) quer/.exec(response.headers.get("server-timing") ?? "");
  return match ? Number(match[1]) : null;
}

/**
 * An autocannon run, and the p99 of the answers to requests on connections already open (each
 * connection's first request left out). A busy Node server takes one new connection per turn
 * of its event loop (libuv since 1.45), so at 50 connections the last ones wait for many turns
 * before their first request is even read: the overall p99 counts that wait, this one does not.
 */
function cannon(options) {
  const later = [];
  const answered = new Set();
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => {
      if (error) return reject(error);
      later.sort((a, b) => a - b);
      resolve({ result, p99Open: later.length ? Math.round(percentile(later, 99)) : null });
    });
    instance.on("response", (client, _status, _bytes, responseTime) => {
      if (answered.has(client)) later.push(responseTime);
      else answered.add(client);
    });
  });
}

/** One autocannon measurement: requests per second and latency percentiles. */
function measure(url, connections, headers = {}, duration = DURATION, sampleRss = null) {
  return measureRun({ url, connections, duration, headers, pipelining: 1 }, sampleRss);
}

/**
 * A page asked for the first time, each request: a new query string on every request, so no
 * copy the server keeps (decisions 053 and 056) can answer, and the whole page is rendered.
 */
function measureFirstView(url, connections, headers = {}, duration = DURATION, sampleRss = null) {
  const { pathname, search } = new URL(url);
  let n = 0;
  const requests = [
    {
      method: "GET",
      setupRequest: (request) => ({ ...request, path: `${pathname}${search ? `${search}&` : "?"}view=${(n += 1)}` }),
    },
  ];
  return measureRun({ url, connections, duration, headers, pipelining: 1, requests }, sampleRss);
}

/** An autocannon run of `options`, with the peak RSS of the process `sampleRss` when given. */
async function measureRun(options, sampleRss = null) {
  let peak = 0;
  const timer = sampleRss
    ? setInterval(() => {
        peak = Math.max(peak, rssMb(sampleRss) ?? 0);
      }, 250)
    : null;
  const { result, p99Open } = await cannon(options);
  if (timer) clearInterval(timer);
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    p99Open,
    max: result.latency.max,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    ...(sampleRss ? { peakRssMb: peak } : {}),
  };
}

/** The JavaScript a page loads first (its scripts and module preloads), gzipped, in kB. */
async function firstLoadJs(base, pathname, cookie) {
  const html = await (await fetch(`${base}${pathname}`, { headers: cookie ? { cookie } : {} })).text();
  const sources = new Set();
  for (const match of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)) sources.add(match[1]);
  for (const match of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) sources.add(match[1]);
  for (const match of html.matchAll(/import\s*(?:\*\s*as\s*\w+\s*from\s*)?"(\/build\/[^"]+\.js)"/g))
    sources.add(match[1]);
  let bytes = 0;
  for (const src of sources) {
    const body = Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer());
    bytes += gzipSync(body).byteLength;
  }
  return { kb: Math.round((bytes / 1024) * 10) / 10, scripts: sources.size };
}

/** Lighthouse's performance score (0–100) with the machine's Chromium, or why there is none. */
async function lighthouse(url, cookie) {
  if (process.env.BENCH_LIGHTHOUSE === "0") return { score: null, note: "skipped (BENCH_LIGHTHOUSE=0)" };
  if (!existsSync(CHROME)) return { score: null, note: `no Chromium at ${CHROME}` };
  const dir = mkdtempSync(path.join(os.tmpdir(), "memberhall-lh-"));
  const out = path.join(dir, "report.json");
  const args = [
    "--yes",
    "lighthouse@12",
    url,
    "--quiet",
    "--only-categories=performance",
    "--output=json",
    `--output-path=${out}`,
    "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync",
  ];
  if (cookie) {
    const headers = path.join(dir, "headers.json");
    writeFileSync(headers, JSON.stringify({ Cookie: cookie }));
    args.push(`--extra-headers=${headers}`);
  }
  try {
    // Not the synchronous call: the connections this process keeps open to the app must see
    // the app close them while Lighthouse runs, or the next request goes out on a closed one.
    await execFileAsync("npx", args, { env: { ...process.env, CHROME_PATH: CHROME }, timeout: 180_000 });
    const report = JSON.parse(readFileSync(out, "utf8"));
    return { score: Math.round(report.categories.performance.score * 100), note: null };
  } catch (error) {
    return { score: null, note: `lighthouse failed: ${String(error.message).split("\n")[0]}` };
  }
}

/** The median of a few Lighthouse runs (BENCH_LIGHTHOUSE_RUNS, default 3): one run varies by several points. */
async function lighthouseMedian(url, cookie) {
  const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
  const results = [];
  for (let i = 0; i < runs; i += 1) results.push(await lighthouse(url, cookie));
  const scores = results.map((r) => r.score).filter((score) => score !== null);
  if (scores.length === 0) return results[0];
  scores.sort((a, b) => a - b);
  return { score: scores[Math.floor(scores.length / 2)], runs: scores, note: null };
}

function build() {
  if (process.env.BENCH_SKIP_BUILD === "1" && existsSync(path.join(ROOT, "dist/server.js"))) return;
  log("building the app…");
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
  log("building the bare Remix app…");
  execFileSync(process.execPath, [path.join(ROOT, "node_modules/@remix-run/dev/dist/cli.js"), "build", BARE], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/**
 * Memory at rest: right after a first start on a new database, and after a restart on the
 * same one. The first start also names each target's queries (SERVER_TIMING=1, which counts
 * them at a cost of its own: the load runs are made on the restart, without it).
 */
async function memoryAtRest(databaseUrl) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "memberhall-bench-"));
  const first = await startApp({ dataDir, databaseUrl, env: { SERVER_TIMING: "1" } });
  await sleep(3_000);
  const firstStart = rssMb(first.child.pid);
  const queries = await queriesPerTarget(first.url);
  await first.stop();
  const again = await startApp({ dataDir, databaseUrl });
  await sleep(3_000);
  const restart = rssMb(again.child.pid);
  return { app: again, dataDir, queries, memory: { firstStartMb: firstStart, restartMb: restart } };
}

/** The targets of the load runs, signed in as their roles on the app at `url`. */
async function targetsOn(url) {
  const cookies = {
    member: await signIn(url, "member"),
    creator: await signIn(url, "creator"),
    admin: await signIn(url, "admin"),
  };
  const pages = [
    { name: "home (visitor)", path: "/", bare: "/" },
    { name: "home (member)", path: "/", cookie: cookies.member, bare: "/" },
    { name: "/login", path: "/login", bare: "/login" },
    {
      name: "NoL step page",
      path: "/nol/creator/traffic-stop/notice?version=Bench",
      cookie: cookies.creator,
      bare: "/",
    },
    { name: "admin members list", path: "/members", cookie: cookies.admin, bare: "/" },
  ];
  const apis = [
    { name: "/api/config", path: "/api/config" },
    { name: "/api/entry/nol-member-versions", path: "/api/entry/nol-member-versions", cookie: cookies.member },
  ];
  return { cookies, pages, apis };
}

/** Each target's queries: its second request's count, once the server keeps the viewer. */
async function queriesPerTarget(url) {
  const { pages, apis } = await targetsOn(url);
  const counts = {};
  for (const target of [...pages, ...apis]) {
    let response;
    for (let i = 0; i < 2; i += 1) {
      response = await fetch(`${url}${target.path}`, {
        headers: target.cookie ? { cookie: target.cookie } : {},
        redirect: "manual",
      });
      await response.arrayBuffer();
    }
    counts[target.name] = queriesOf(response);
  }
  return counts;
}

async function benchApp(label, databaseUrl, baselines) {
  const db = databaseUrl ? "postgres" : "pglite";
  log(`${label}: starting the app (first start, then a restart)…`);
  const { app, memory, queries: counts } = await memoryAtRest(databaseUrl);
  const { cookies, pages, apis } = await targetsOn(app.url);
  // Lighthouse first, on a quiet machine: right after the load runs, the server and the
  // machine are still busy and the scores say more about that than about the page.
  const lighthouseScores = {};
  if (!databaseUrl) {
    for (const page of [
      { name: "home", path: "/" },
      { name: "/login", path: "/login" },
      { name: "NoL step page", path: "/nol/creator/traffic-stop/notice?version=Bench", cookie: cookies.creator },
    ]) {
      log(`${label}: Lighthouse on ${page.name}…`);
      lighthouseScores[page.name] = await lighthouseMedian(`${app.url}${page.path}`, page.cookie);
    }
  }
  const rows = [];
  let peakRssMb = 0;
  for (const target of [...pages, ...apis]) {
    const headers = target.cookie ? { cookie: target.cookie } : {};
    const check = await fetch(`${app.url}${target.path}`, { headers, redirect: "manual" });
    await check.arrayBuffer();
    if (check.status !== 200) throw new Error(`${target.name} answered ${check.status}`);
    const queries = counts[target.name];
    await measure(`${app.url}${target.path}`, 10, headers, 2); // warm-up
    const api = apis.includes(target);
    const barePath = api ? target.path : target.bare;
    for (const connections of CONNECTIONS) {
      log(`${label}: ${target.name} at ${connections} connections, between two runs of the bare app…`);
      const bareBefore = await measure(`${baselines.bareUrl}${barePath}`, connections);
      const measured = await measure(`${app.url}${target.path}`, connections, headers, DURATION, app.child.pid);
      const bareAfter = await measure(`${baselines.bareUrl}${barePath}`, connections);
      const raw = api ? await measure(`${baselines.rawUrl}${target.path}`, connections) : null;
      // A page also as it is first seen: nothing kept can answer it (an API is always answered whole).
      const firstView = api
        ? null
        : await measureFirstView(`${app.url}${target.path}`, connections, headers, DURATION, app.child.pid);
      peakRssMb = Math.max(peakRssMb, measured.peakRssMb ?? 0);
      const bareRps = Math.max(bareBefore.rps, bareAfter.rps);
      rows.push({
        target: target.name,
        kind: api ? "api" : "page",
        connections,
        ...measured,
        bareRps,
        bareRuns: [bareBefore.rps, bareAfter.rps],
        rawRps: raw ? raw.rps : null,
        ratio: Math.round((measured.rps / bareRps) * 100) / 100,
        queries,
        ratioTarget: ratioTarget(target.name, db),
        p99TargetMs: connections === 50 ? p99Target(target.name, db) : null,
      });
      if (firstView) {
        peakRssMb = Math.max(peakRssMb, firstView.peakRssMb ?? 0);
        rows.push({
          target: `${target.name}, first view`,
          kind: "page",
          view: "first",
          connections,
          ...firstView,
          bareRps,
          bareRuns: [bareBefore.rps, bareAfter.rps],
          rawRps: null,
          ratio: Math.round((firstView.rps / bareRps) * 100) / 100,
          queries,
          ratioTarget: TARGETS.firstView[target.name]?.[db] ?? null,
          p99TargetMs: null,
        });
      }
    }
  }
  const idle = await afterIdle(
    app,
    label,
    [...pages, ...apis].filter((t) => TARGETS.signedIn[t.name]),
    db,
  );
  // Signed in afresh: a login older than its freshness window is rechecked as soon as a page
  // loads (spec §4, five minutes by default), which loads the API client, and the load runs above
  // take longer than that.
  const fresh = {
    member: await signIn(app.url, "member"),
    creator: await signIn(app.url, "creator"),
    admin: await signIn(app.url, "admin"),
  };
  const js = {};
  const jsPages = [
    { name: "home (visitor)", path: "/" },
    { name: "home (member)", path: "/", cookie: fresh.member },
    { name: "/login", path: "/login" },
    { name: "/signup", path: "/signup" },
    { name: "NoL step page", path: "/nol/creator/traffic-stop/notice?version=Bench", cookie: fresh.creator },
    { name: "admin members list", path: "/members", cookie: fresh.admin },
  ];
  for (const page of jsPages) js[page.name] = await firstLoadJs(app.url, page.path, page.cookie);
  log(`${label}: the JavaScript each page fetches before any interaction…`);
  const idleJs = await idleJavaScript(app.url, jsPages);
  log(`${label}: the document of a notice with 16 respondents…`);
  const pdf = await pdfBench(app.url, cookies.creator).catch(async (error) => {
    const said = app.output().slice(-4000);
    await app.stop();
    throw new Error(`${error.message}; the app said:\n${said}`, { cause: error });
  });
  const atRest = rssMb(app.child.pid);
  await app.stop();
  return {
    label,
    db,
    rows,
    idle,
    js,
    idleJs,
    lighthouse: lighthouseScores,
    pdf,
    memory: {
      ...memory,
      underLoadPeakMb: Math.max(peakRssMb, idle.peakRssMb),
      peakTargetMb: TARGETS.peakRssMb[db],
      afterLoadMb: atRest,
    },
  };
}

/**
 * The first window after the server sat idle (TARGETS.idleSeconds): the signed-in targets
 * asked for in turn at 50 connections, for one measurement's length; its p99 against theirs.
 */
async function afterIdle(app, label, targets, db) {
  const requests = targets.map((t) => ({ method: "GET", path: t.path, headers: t.cookie ? { cookie: t.cookie } : {} }));
  const mixed = () => measureRun({ url: app.url, connections: 50, duration: DURATION, requests }, app.child.pid);
  // The same mix on the warm server first: what the idle minute adds is the difference.
  log(`${label}: the signed-in targets together at 50 connections, warm…`);
  const warm = await mixed();
  log(`${label}: idle for ${TARGETS.idleSeconds} s, then the signed-in targets together at 50 connections…`);
  await sleep(TARGETS.idleSeconds * 1000);
  const idle = await mixed();
  return {
    idleSeconds: TARGETS.idleSeconds,
    targets: targets.map((t) => t.name),
    ...idle,
    peakRssMb: Math.max(idle.peakRssMb, warm.peakRssMb),
    warm,
    p99TargetMs: TARGETS.signedInP99Ms[db],
  };
}

/**
 * The bare Remix app and the raw node:http server, started once and kept for the whole run:
 * each target is measured between two runs of the bare app's page of the same kind.
 */
async function startBaselines(answersFile) {
  const barePort = await freePort();
  const rawPort = await freePort();
  const env = { NODE_ENV: "production", PORT: String(barePort), BENCH_ANSWERS: answersFile, HOST: "127.0.0.1" };
  const bareUrl = `http://127.0.0.1:${barePort}`;
  const rawUrl = `http://127.0.0.1:${rawPort}`;
  const remixServe = path.join(ROOT, "node_modules/@remix-run/serve/dist/cli.js");
  const bare = await startProcess("the bare Remix app", [remixServe, "build/index.js"], {
    cwd: BARE,
    env,
    url: bareUrl,
  });
  const raw = await startProcess("the raw node:http server", ["bench/raw-server.mjs"], {
    env: { PORT: String(rawPort), BENCH_ANSWERS: answersFile },
    url: `${rawUrl}/api/config`,
  });
  const stop = async () => {
    await bare.stop();
    await raw.stop();
  };
  try {
    log("warming the bare Remix app and the raw node:http server…");
    for (const page of ["/", "/login", "/api/config", "/api/entry/nol-member-versions"])
      await measure(`${bareUrl}${page}`, 10, {}, 2);
    for (const api of ["/api/config", "/api/entry/nol-member-versions"]) await measure(`${rawUrl}${api}`, 10, {}, 2);
    const js = { "bare home": await firstLoadJs(bareUrl, "/") };
    return { bareUrl, rawUrl, js, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The app's JSON answers, for the baselines to answer the same. */
async function captureAnswers() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "memberhall-bench-"));
  const app = await startApp({ dataDir });
  try {
    const member = await signIn(app.url, "member");
    const config = await (await fetch(`${app.url}/api/config`)).json();
    const versions = await (
      await fetch(`${app.url}/api/entry/nol-member-versions`, { headers: { cookie: member } })
    ).json();
    const file = path.join(dataDir, "answers.json");
    writeFileSync(file, JSON.stringify({ config, versions }));
    return file;
  } finally {
    await app.stop();
  }
}

/** Posts one of the NoL step forms as the browser without JavaScript does; the page answers a redirect. */
async function postStep(url, cookie, kind, version, fields, round) {
  const query = `version=${encodeURIComponent(version)}${round ? `&round=${round}` : ""}`;
  const response = await fetch(`${url}/nol/creator/traffic-stop/${kind}?${query}`, {
    method: "POST",
    headers: { cookie, origin: url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
  await response.arrayBuffer();
  if (response.status !== 302 && response.status !== 303) throw new Error(`${kind} answered ${response.status}`);
}

/**
 * A notice with all 16 respondent slots filled (8 in round 1, 4 more in each of rounds 2 and 3),
 * made through the creator's pages, then its document asked for again and again (GET
 * /api/nol/preview, one at a time): the time the member waits for the PDF, render included.
 */
async function pdfBench(url, cookie, runs = Number(process.env.BENCH_PDF_RUNS ?? 100)) {
  const version = `Bench PDF ${Date.now()}`;
  const named = (from, to) =>
    Object.fromEntries(
      Array.from({ length: to - from + 1 }, (_, i) => from + i).flatMap((slot) => [
        [`r${slot}Name`, `Respondent number ${slot} of the bench, with a long office name`],
        [`r${slot}Type`, slot % 3 === 0 ? "Agency" : "Official"],
      ]),
    );
  // Rounds 2 and 3 go out at once, before the respondents' time to answer has passed.
  const notice = (from, to) => ({
    claimantName: "Bench Claimant",
    dailyAmount: "250",
    ...named(from, to),
    ...(from > 1 ? { sendEarly: "on" } : {}),
  });
  // A round is mailed and delivered today: never before its notice was made.
  const today = new Date().toISOString().slice(0, 10);
  // Each respondent's envelope has a tracking number of its own (track1 … track16).
  const tracking = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`track${i + 1}`, `RR1234567${10 + i}US`]));
  const mailed = { mailingDate: today, trackingNumber: "RR123456789US", ...tracking };
  // The member signs each round's notice before it is mailed, with the sign page's plain form.
  const sign = (round) =>
    postStep(
      url,
      cookie,
      `sign`,
      version,
      { method: "typed", name: "Bench Claimant", consent: "on", onDownload: "signed" },
      round,
    );
  await postStep(url, cookie, "notice", version, notice(1, 8));
  for (const [round, from, to] of [
    [1, 9, 12],
    [2, 13, 16],
  ]) {
    await sign(round);
    await postStep(url, cookie, "mailing", version, mailed);
    await postStep(url, cookie, "proof", version, { delivered: "on", deliveredOn: today });
    await postStep(url, cookie, "notice", version, notice(from, to));
  }
  const notices = await (await fetch(`${url}/api/nol/notices?cause_code=TS`, { headers: { cookie } })).json();
  const round3 = notices.list.find((n) => n.claim.nol_version === version && n.round_cnt === 3);
  if (!round3) throw new Error("the round 3 notice was not made");
  const query = new URLSearchParams({
    cf_number: String(round3.notice_cf.cf_number),
    cf_version: version,
    round_cnt: "3",
  });
  const times = [];
  for (let i = 0; i < runs + 5; i += 1) {
    const started = performance.now();
    const response = await fetch(`${url}/api/nol/preview?${query}`, { headers: { cookie } });
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200 || body.subarray(0, 5).toString("latin1") !== "%PDF-") {
      throw new Error(`the preview answered ${response.status}`);
    }
    if (i >= 5) times.push(performance.now() - started); // the first few warm up
  }
  times.sort((a, b) => a - b);
  const round = (n) => Math.round(n * 10) / 10;
  return { runs, p50Ms: round(percentile(times, 50)), p95Ms: round(percentile(times, 95)), maxMs: round(times.at(-1)) };
}

const mark = (ok) => (ok === null ? "  " : ok ? "ok" : "NO");

/**
 * Cost as the community grows: the scale seed (ten NoL entries a member) on a fresh embedded
 * database for each size, then the members list, the NoL step page and the member's versions
 * API at 10 connections, with the server's memory at rest and under that load.
 */
async function benchScale() {
  if (process.env.BENCH_SCALE === "0") return [];
  const sizes = (process.env.BENCH_SCALE_SIZES ?? "1000,10000,100000").split(",").map(Number);
  const runs = [];
  for (const members of sizes) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "memberhall-bench-scale-"));
    const seedSeconds = seedScale({ dataDir, members, entries: members * 10 });
    const app = await startApp({ dataDir });
    try {
      await sleep(3_000);
      const restMb = rssMb(app.child.pid);
      const cookies = { admin: await signIn(app.url, "admin"), creator: await signIn(app.url, "creator") };
      const targets = {
        "admin members list": { path: "/members", cookie: cookies.admin },
        "NoL step page": { path: "/nol/creator/traffic-stop/notice?version=Bench", cookie: cookies.creator },
        "/api/entry/nol-member-versions": { path: "/api/entry/nol-member-versions", cookie: cookies.creator },
      };
      const rows = {};
      let peakMb = restMb;
      for (const [name, target] of Object.entries(targets)) {
        const headers = { cookie: target.cookie };
        await measure(`${app.url}${target.path}`, 10, headers, 2); // warm-up
        log(`scale ${members}: ${name} at 10 connections…`);
        const measured = await measure(`${app.url}${target.path}`, 10, headers, DURATION, app.child.pid);
        if (measured.non2xx > 0) throw new Error(`${name} answered ${measured.non2xx} errors at ${members} members`);
        peakMb = Math.max(peakMb, measured.peakRssMb ?? 0);
        rows[name] = measured;
      }
      runs.push({ members, entries: members * 10, seedSeconds, memory: { restMb, underLoadPeakMb: peakMb }, rows });
    } finally {
      await app.stop();
      // A seeded database of 100,000 members is hundreds of MB: not left behind in the temp folder.
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return runs;
}

function printScale(scale) {
  if (scale.length === 0) return "";
  const names = Object.keys(scale[0].rows);
  const out = [
    "\ncost as the community grows (PGlite, 10 connections: rps / p50 / p99 ms; memory MB at rest / under load)",
  ];
  out.push(`${"members".padStart(8)}  ${names.map((n) => n.padEnd(32)).join("")}memory`);
  for (const run of scale) {
    const cells = names.map((n) => {
      const r = run.rows[n];
      return `${r.rps} / ${r.p50} / ${r.p99}`.padEnd(32);
    });
    out.push(
      `${String(run.members).padStart(8)}  ${cells.join("")}${run.memory.restMb} / ${run.memory.underLoadPeakMb}`,
    );
  }
  return out.join("\n");
}

function printTable(run, baselines) {
  const out = [];
  out.push(`\n== ${run.label}`);
  out.push(
    "target                          conns    rps   p50   p99  p99 open  bare rps  ratio  raw rps  queries  target      p99 target",
  );
  for (const r of run.rows) {
    out.push(
      [
        r.target.padEnd(32),
        String(r.connections).padStart(4),
        String(r.rps).padStart(6),
        String(r.p50).padStart(5),
        String(r.p99).padStart(5),
        String(r.p99Open ?? "—").padStart(9),
        String(r.bareRps).padStart(9),
        r.ratio.toFixed(2).padStart(6),
        String(r.rawRps ?? "").padStart(8),
        String(r.queries ?? "—").padStart(8),
        (r.ratioTarget === null ? "—" : `${mark(r.ratio >= r.ratioTarget)} ≥${r.ratioTarget.toFixed(2)}×`).padStart(11),
        r.p99TargetMs === null ? "" : `${mark(r.p99 < r.p99TargetMs)} <${r.p99TargetMs} ms`.padStart(13),
      ].join(" "),
    );
  }
  const idle = run.idle;
  out.push(
    `\nthe signed-in targets together at 50 connections, warm: ${idle.warm.rps} rps, p50 ${idle.warm.p50} ms, p99 ${idle.warm.p99} ms (on connections already open ${idle.warm.p99Open} ms), max ${idle.warm.max} ms (${mark(idle.warm.p99 < idle.p99TargetMs)} p99<${idle.p99TargetMs})`,
    `after ${idle.idleSeconds} s idle, the first ${DURATION} s of the same: ${idle.rps} rps, p50 ${idle.p50} ms, p99 ${idle.p99} ms (on connections already open ${idle.p99Open} ms), max ${idle.max} ms (${mark(idle.p99 < idle.p99TargetMs)} p99<${idle.p99TargetMs})`,
  );
  out.push(
    `\nJavaScript fetched with no interaction, network idle (gzip)   kB  scripts  ≤${TARGETS.firstLoadJsKb} kB  after load`,
  );
  for (const [name, js] of Object.entries(run.idleJs)) {
    out.push(
      `${name.padEnd(58)} ${String(js.kb).padStart(6)} ${String(js.scripts).padStart(8)} ${mark(js.kb <= TARGETS.firstLoadJsKb).padStart(8)}  ${js.afterLoad.join(" ") || "—"}`,
    );
  }
  out.push(`\nfirst-load JavaScript (gzip)      kB  scripts  ≤${TARGETS.firstLoadJsKb} kB`);
  for (const [name, js] of Object.entries(run.js)) {
    out.push(
      `${name.padEnd(32)} ${String(js.kb).padStart(5)} ${String(js.scripts).padStart(8)} ${mark(js.kb <= TARGETS.firstLoadJsKb).padStart(8)}`,
    );
  }
  if (baselines.js) {
    for (const [name, js] of Object.entries(baselines.js))
      out.push(`${name.padEnd(32)} ${String(js.kb).padStart(5)} ${String(js.scripts).padStart(8)}`);
  }
  if (Object.keys(run.lighthouse).length > 0) {
    out.push("\nLighthouse performance            score  ≥95");
    for (const [name, lh] of Object.entries(run.lighthouse)) {
      out.push(
        `${name.padEnd(32)} ${String(lh.score ?? "—").padStart(6)} ${mark(lh.score === null ? null : lh.score >= TARGETS.lighthouse).padStart(4)}${lh.note ? `  ${lh.note}` : ""}`,
      );
    }
  }
  const pdf = run.pdf;
  out.push(
    `\nthe PDF of a notice with 16 respondents (GET /api/nol/preview, ${pdf.runs} one after another): p50 ${pdf.p50Ms} ms, p95 ${pdf.p95Ms} ms, max ${pdf.maxMs} ms (${mark(pdf.p95Ms < TARGETS.pdfP95Ms)} p95<300)`,
  );
  const m = run.memory;
  out.push(
    `\nmemory (RSS, MB): first start ${m.firstStartMb}, restart ${m.restartMb} (${mark(m.firstStartMb <= m.restartMb * 1.1)} first ≤ restart), under load peak ${m.underLoadPeakMb} (${mark(m.underLoadPeakMb <= m.peakTargetMb)} ≤${m.peakTargetMb}), after load ${m.afterLoadMb}`,
  );
  return out.join("\n");
}

/** Every page route's first-load JavaScript from the build's manifest: the largest few and the verdict. */
function printEveryPage(everyPage) {
  const sorted = Object.entries(everyPage).sort((a, b) => b[1].kb - a[1].kb);
  const over = sorted.filter(([, js]) => js.kb > TARGETS.firstLoadJsKb);
  const out = [
    `\nfirst-load JavaScript of every page (${sorted.length} page routes, from the build manifest): ${mark(over.length === 0)} ≤${TARGETS.firstLoadJsKb} kB${over.length ? ` — over: ${over.map(([id]) => id).join(", ")}` : ""}`,
  ];
  for (const [id, js] of sorted.slice(0, 5))
    out.push(`${id.padEnd(40)} ${String(js.kb).padStart(6)} kB ${String(js.scripts).padStart(3)} scripts`);
  return out.join("\n");
}

async function main() {
  build();
  log("capturing the app's JSON answers for the baselines…");
  const answers = await captureAnswers();
  const baselines = await startBaselines(answers);
  const everyPage = await firstLoadByRoute(ROOT);
  const runs = [];
  let scale;
  try {
    runs.push(await benchApp("embedded database (PGlite)", undefined, baselines));
    scale = await benchScale();
    if (process.env.DATABASE_URL) {
      const database = await freshPostgres(process.env.DATABASE_URL);
      try {
        runs.push(await benchApp("PostgreSQL", database.url, baselines));
      } finally {
        await database.drop();
      }
    }
  } finally {
    await baselines.stop();
  }
  const results = {
    at: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version },
    durationSeconds: DURATION,
    targets: TARGETS,
    baselines: { js: baselines.js },
    firstLoadJsEveryPage: everyPage,
    runs,
    scale,
  };
  writeFileSync(path.join(ROOT, "bench", "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  const text = runs.map((run) => printTable(run, baselines)).join("\n");
  process.stdout.write(
    `${text}\n${printEveryPage(everyPage)}\n${printScale(scale)}\n\nwritten to bench/results.json\n`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
