import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { mockServer } from "../mocks/server";

describe("outside services in tests", () => {
  it("answers a request that a handler covers, in the handler's wire format", async () => {
    mockServer.use(
      http.get("https://provider.example.com/v1/ping", ({ request }) =>
        request.headers.get("authorization") === "Bearer test"
          ? HttpResponse.json({ ok: true })
          : HttpResponse.json({ error: { type: "invalid_request_error" } }, { status: 401 }),
      ),
    );
    const ok = await fetch("https://provider.example.com/v1/ping", { headers: { authorization: "Bearer test" } });
    expect(await ok.json()).toEqual({ ok: true });
    const refused = await fetch("https://provider.example.com/v1/ping");
    expect(refused.status).toBe(401);
  });

  it("fails a request that no handler covers instead of reaching the network", async () => {
    await expect(fetch("https://unmocked.example.com/anything")).rejects.toThrow();
  });
});
