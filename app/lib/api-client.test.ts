import { describe, expect, it } from "vitest";
import { apiInit, apiPath, BOTH_BODIES_MESSAGE, readApiResponse } from "./api-client";

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(typeof body === "string" ? body : JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });

describe("the API client's conventions (spec §7)", () => {
  it("puts GET parameters in the query string, leaving out missing ones", () => {
    expect(apiPath("/api/nol/notices", { cause_code: "CA-1", page: undefined })).toBe(
      "/api/nol/notices?cause_code=CA-1",
    );
    expect(apiPath("/api/x?a=1", { b: 2 })).toBe("/api/x?a=1&b=2");
    expect(apiPath("/api/config")).toBe("/api/config");
  });

  it("sends an object as a JSON body", () => {
    const init = apiInit({ method: "POST", body: { cause: "CA" } });
    expect(init.body).toBe('{"cause":"CA"}');
    expect((init.headers as Record<string, string>)["content-type"]).toBe("application/json");
  });

  it("refuses a request with both an object and a raw body (spec §5)", () => {
    expect(() => apiInit({ body: {}, raw: "x" })).toThrow(BOTH_BODIES_MESSAGE);
  });

  it("ignores a 404 without a state header", async () => {
    const result = await readApiResponse(answer(404, { error: "gone" }));
    expect(result).toEqual({ data: null, error: null, status: 404, ignored: true });
  });

  it("keeps a 404 that carries a state header, with its error", async () => {
    const result = await readApiResponse(answer(404, { error: "No such notice" }, { state: "s", "state-hash": "h" }));
    expect(result.ignored).toBe(false);
    expect(result.error).toBe("No such notice");
  });

  it("keeps an error field as the data's error, even on a 200", async () => {
    const result = await readApiResponse<{ error: string; list: [] }>(
      answer(200, { error: "Missing causes", list: [] }),
    );
    expect(result.error).toBe("Missing causes");
    expect(result.data?.list).toEqual([]);
  });

  it("names a failed status when the answer has no error field", async () => {
    expect((await readApiResponse(answer(500, "oops"))).error).toBe("The request failed (500)");
    expect((await readApiResponse(answer(503, {}))).error).toBe("The request failed (503)");
  });

  it("reads a good answer's data", async () => {
    const result = await readApiResponse<{ list: number[] }>(answer(200, { list: [1, 2] }));
    expect(result).toEqual({ data: { list: [1, 2] }, error: null, status: 200, ignored: false });
  });
});
