import { existsSync, readFileSync } from "node:fs";

/**
 * Adds up the vitest and Playwright reports into one closing line, after the name of each test
 * that failed and how long each part took: the end of the output is what a CI log keeps.
 */
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
const failures = [];
const parts = [];
const files = [];

for (const [name, file] of [
  ["vitest (unit, integration)", ".cache/vitest.json"],
  ["vitest (server, first half)", ".cache/vitest-server-1.json"],
  ["vitest (server, second half)", ".cache/vitest-server-2.json"],
  ["vitest (server, alone)", ".cache/vitest-alone.json"],
]) {
  if (!existsSync(file)) {
    missing.push(name);
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  let ended = report.startTime;
  for (const result of report.testResults ?? []) {
    ended = Math.max(ended, result.endTime ?? 0);
    const file = relative(result.name);
    files.push([file, (result.endTime ?? 0) - (result.startTime ?? 0)]);
    const failedTests = (result.assertionResults ?? []).filter((test) => test.status === "failed");
    for (const test of failedTests) failures.push(`${file} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    // A file that failed before any of its tests ran (an import error, a hook's timeout).
    if (result.status === "failed" && failedTests.length === 0) failures.push(`${file}: ${firstLine(result.message)}`);
  }
  parts.push(`${name} ${Math.round((ended - report.startTime) / 1000)} s`);
}

if (existsSync(".cache/playwright.json")) {
  const report = JSON.parse(readFileSync(".cache/playwright.json", "utf8"));
  const { stats } = report;
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
  skipped += stats.skipped;
  parts.push(`playwright ${Math.round(stats.duration / 1000)} s`);
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== "unexpected") continue;
        const last = test.results?.at(-1);
        failures.push(`${spec.file}:${spec.line} › ${[...titles, spec.title].join(" › ")}: ${firstLine(last?.error?.message)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, child.title && !child.title.endsWith(".ts") ? [...titles, child.title] : titles);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
} else {
  missing.push("playwright");
}

/** A path under the project, as the reports give absolute ones. */
function relative(path) {
  const root = `${process.cwd()}/`;
  return path?.startsWith(root) ? path.slice(root.length) : path;
}

/** The first line of a failure's message, without the terminal's colours. */
function firstLine(message) {
  if (!message) return "(no message)";
  // eslint-disable-next-line no-control-regex
  const line = message.replace(/\u001b\[[0-9;]*m/g, "").split("\n").find((text) => text.trim() !== "") ?? "";
  return line.trim().slice(0, 300);
}

if (parts.length > 0) console.log(`time: ${parts.join(", ")}`);
const slowest = files.sort((a, b) => b[1] - a[1]).slice(0, 5);
if (slowest.length > 0) console.log(`slowest files: ${slowest.map(([file, ms]) => `${file} ${Math.round(ms / 1000)} s`).join(", ")}`);
if (failures.length > 0) {
  console.log("failed:");
  for (const failure of failures) console.log(`  ✘ ${failure}`);
}
if (missing.length > 0) console.log(`no report from: ${missing.join(", ")}`);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || missing.length > 0 || passed === 0 ? 1 : 0);
