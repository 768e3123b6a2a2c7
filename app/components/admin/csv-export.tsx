import { countWords, type ListCount } from "~/domain/list-count";
import { useState } from "react";

type Progress =
  { state: "idle" } | { state: "running"; rows: number } | { state: "done"; rows: number } | { state: "failed" };

/**
 * A link to a list's CSV. Without JavaScript it is a plain download; with it, the file is read
 * as it streams (its code loaded then), so a long export shows how many rows have arrived.
 */
export function CsvExport({ href, rows, noun }: { href: string; rows: ListCount; noun: string }) {
  const [progress, setProgress] = useState<Progress>({ state: "idle" });
  const total = countWords(rows);
  async function download() {
    setProgress({ state: "running", rows: 0 });
    try {
      const { downloadCsv } = await import("~/lib/csv-download");
      const rows = await downloadCsv(href, (read) => setProgress({ state: "running", rows: read }));
      setProgress(rows === null ? { state: "idle" } : { state: "done", rows });
    } catch {
      setProgress({ state: "failed" });
    }
  }
  const running = progress.state === "running";
  return (
    <div className="csv-export">
      <a
        href={href}
        download
        className="button"
        aria-disabled={running || undefined}
        onClick={(event) => {
          event.preventDefault();
          if (!running) void download();
        }}
      >
        Export these {noun} as CSV
      </a>
      <p role="status" aria-live="polite" className="muted">
        {progress.state === "running" ? (
          <>
            <progress max={rows.capped ? undefined : rows.n || 1} value={rows.capped ? undefined : progress.rows} />{" "}
            {`Exporting: ${progress.rows.toLocaleString("en-US")} of ${total} ${noun}…`}
          </>
        ) : null}
        {progress.state === "done" ? `Exported ${progress.rows.toLocaleString("en-US")} ${noun}.` : null}
        {progress.state === "failed" ? "The export failed; try again, or use the link without JavaScript." : null}
      </p>
    </div>
  );
}
