/**
 * Reads a CSV export as it streams, counting its rows for the page, then hands the file to the
 * browser; loaded when an export starts (components/admin/csv-export.tsx). Answers the rows, or
 * null when the server sent the browser elsewhere first (a second factor to pass): it goes there.
 */
export async function downloadCsv(href: string, onRows: (rows: number) => void): Promise<number | null> {
  const response = await fetch(href, { credentials: "same-origin" });
  if (!response.ok || !response.body) throw new Error(`The export answered ${response.status}`);
  if (!(response.headers.get("content-type") ?? "").includes("text/csv")) {
    window.location.assign(response.url);
    return null;
  }
  const reader = response.body.getReader();
  const chunks: BlobPart[] = [];
  let lines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value as Uint8Array<ArrayBuffer>);
    for (const byte of value) if (byte === 10) lines += 1;
    onRows(Math.max(0, lines - 1));
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "export.csv";
  const url = URL.createObjectURL(new Blob(chunks, { type: "text/csv" }));
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = name;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return Math.max(0, lines - 1);
}
