import { existsSync, readFileSync } from "node:fs";

/** Adds up the vitest and Playwright reports into one closing line. */
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];

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
}

if (existsSync(".cache/playwright.json")) {
  const { stats } = JSON.parse(readFileSync(".cache/playwright.json", "utf8"));
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
  skipped += stats.skipped;
} else {
  missing.push("playwright");
}

if (missing.length > 0) console.log(`no report from: ${missing.join(", ")}`);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || missing.length > 0 || passed === 0 ? 1 : 0);
