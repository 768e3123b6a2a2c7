import { countWords, type ListCount } from "~/domain/list-count";
import { useState } from "react";

type Progress =
  { state: "idle" } | { state: "running"; rows: number } | { state: "done"; rows: number } | { state: "failed" };

/**
 * A link to a list's CSV. Without JavaScript it is a plain download; with it, the file is read
 * as it streams, so a long export shows how many rows have arrived.
 */
export function CsvExport({ href, rows, noun }: { href: string; rows: ListCount; noun: string }) {
  const [progress, setProgress] = useState<Progress>({ state: "idle" });
  const total = countWords(rows);
  async function download() {
    setProgress({ state: "running", rows: 0 });
    try {
      const response = await fetch(href, { credentials: "same-origin" });
      if (!response.ok || !response.body) throw new Error(`The export answered ${response.status}`);
      const reader = response.body.getReader();
      const chunks: BlobPart[] = [];
      let lines = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value as Uint8Array<ArrayBuffer>);
        for (const byte of value) if (byte === 10) lines += 1;
        setProgress({ state: "running", rows: Math.max(0, lines - 1) });
      }
      const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "export.csv";
      const url = URL.createObjectURL(new Blob(chunks, { type: "text/csv" }));
      const anchor = document.createElement("a");
      anchor.href = url;
      anchor.download = name;
      anchor.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setProgress({ state: "done", rows: Math.max(0, lines - 1) });
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
