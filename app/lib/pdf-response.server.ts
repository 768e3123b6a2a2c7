/** A document as an HTTP answer: shown in the browser (a frame, a tab), or saved with `download`. */
export function pdfResponse(document: { bytes: Uint8Array; filename: string }, options: { download?: boolean } = {}) {
  // A copy the fetch types accept as a body (pdf-lib's bytes may sit on a shared buffer).
  return new Response(new Uint8Array(document.bytes), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(document.bytes.byteLength),
      // The filename is plain ASCII (documentFilename), so it needs no encoding.
      "Content-Disposition": `${options.download ? "attachment" : "inline"}; filename="${document.filename}"`,
      // A member's document is theirs alone and changes with their entry: never kept by a cache.
      "Cache-Control": "no-store",
    },
  });
}
