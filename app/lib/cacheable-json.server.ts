import { createHash } from "node:crypto";

/**
 * A JSON answer that never changes while the server runs: its body and ETag made once, a
 * request that names the ETag answered 304 with no body.
 */
export function cacheableJson(value: unknown, cacheControl: string) {
  const body = JSON.stringify(value);
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
  return (request: Request): Response => {
    const headers = { ETag: etag, "Cache-Control": cacheControl };
    const known = request.headers.get("if-none-match");
    if (known && known.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
      return new Response(null, { status: 304, headers });
    }
    return new Response(body, { headers: { ...headers, "Content-Type": "application/json; charset=utf-8" } });
  };
}
