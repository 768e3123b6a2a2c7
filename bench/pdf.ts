import { writeFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { preloadDocumentFonts, renderPdf } from "~/services/documents/pdf.server";
import type { DocumentLine } from "~/domain/documents/layout";

/**
 * npm run bench:pdf: renders documents from a notice's size to far past it (a heading every
 * ten paragraphs of about a thousand characters) and reports each one's time and the event
 * loop's longest delay while it renders: what any other request would wait on a PDF.
 * Writes bench/results-pdf.json.
 */

const TARGET_LOOP_DELAY_MS = 100;
const PARAGRAPH =
  "The respondent is notified of the claim set out below and is asked to answer within the time given. ".repeat(10);

async function measure(paragraphs: number) {
  const lines: DocumentLine[] = Array.from({ length: paragraphs }, (_, i) =>
    i % 10 === 0 ? { text: `Part ${i / 10 + 1}`, style: "heading" } : { text: PARAGRAPH, style: "text" },
  );
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = performance.now();
  const bytes = await renderPdf({
    letters: [lines],
    footer: "Not legal advice.",
    title: "Bench",
    subject: "Bench",
    author: "Bench",
    keywords: [],
  });
  const ms = performance.now() - started;
  delay.disable();
  return {
    paragraphs,
    kB: Math.round(bytes.length / 1024),
    ms: Math.round(ms),
    loopDelayMs: Math.round(delay.max / 1e6),
  };
}

await preloadDocumentFonts();
const rows = [];
for (const paragraphs of [20, 200, 2_000]) rows.push(await measure(paragraphs));
console.table(rows);
const worst = Math.max(...rows.map((r) => r.loopDelayMs));
console.log(`longest event-loop delay while rendering: ${worst} ms (target < ${TARGET_LOOP_DELAY_MS} ms)`);
writeFileSync(
  new URL("./results-pdf.json", import.meta.url),
  `${JSON.stringify({ rows, targetLoopDelayMs: TARGET_LOOP_DELAY_MS }, null, 2)}\n`,
);
if (worst >= TARGET_LOOP_DELAY_MS) process.exitCode = 1;
