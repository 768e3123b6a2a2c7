import type { Response as ExpressResponse } from "express";
import { describe, expect, it } from "vitest";
import { keepsRenderedPage, visitorPageKey, type VisitorRequest } from "~/domain/visitor-pages";
import { createVisitorPages, type ChangesHeard, type Rendered } from "./visitor-pages.server";

const visitor: VisitorRequest = { method: "GET", path: "/", search: "", hasCookie: false, hasState: false };

describe("which requests a kept visitor page may answer", () => {
  it("is a visitor's GET of a visitor page, its query included in the key", () => {
    expect(visitorPageKey(visitor)).toBe("/");
    expect(visitorPageKey({ ...visitor, path: "/login", search: "?redirectTo=%2Fprofile" })).toBe(
      "/login?redirectTo=%2Fprofile",
    );
    expect(visitorPageKey({ ...visitor, path: "/signup" })).toBe("/signup");
  });

  it("is never a request with a cookie or the framed app's state, another method, a data request or another page", () => {
    expect(visitorPageKey({ ...visitor, hasCookie: true })).toBeNull();
    expect(visitorPageKey({ ...visitor, hasState: true })).toBeNull();
    expect(visitorPageKey({ ...visitor, method: "POST" })).toBeNull();
    expect(visitorPageKey({ ...visitor, method: "HEAD" })).toBeNull();
    expect(visitorPageKey({ ...visitor, search: "?_data=root" })).toBeNull();
    expect(visitorPageKey({ ...visitor, search: "?a=1&_data" })).toBeNull();
    expect(visitorPageKey({ ...visitor, path: "/profile" })).toBeNull();
    expect(visitorPageKey({ ...visitor, path: "/nol/creator" })).toBeNull();
    expect(visitorPageKey({ ...visitor, search: `?q=${"x".repeat(300)}` })).toBeNull();
  });

  it("keeps only a whole HTML page with no cookie set and no query sent", () => {
    const page = { status: 200, contentType: "text/html; charset=utf-8", setsCookie: false, queries: 0 };
    expect(keepsRenderedPage(page)).toBe(true);
    expect(keepsRenderedPage({ ...page, status: 302 })).toBe(false);
    expect(keepsRenderedPage({ ...page, status: 404 })).toBe(false);
    expect(keepsRenderedPage({ ...page, setsCookie: true })).toBe(false);
    expect(keepsRenderedPage({ ...page, queries: 1 })).toBe(false);
    expect(keepsRenderedPage({ ...page, contentType: "application/json" })).toBe(false);
  });
});

/** Just enough of Express's response to be answered. */
function fakeResponse() {
  const answer = { status: 0, headers: new Map<string, string>(), body: "" };
  const res = {
    status(code: number) {
      answer.status = code;
      return res;
    },
    append(name: string, value: string) {
      answer.headers.set(name.toLowerCase(), value);
      return res;
    },
    setHeader(name: string, value: string | number) {
      answer.headers.set(name.toLowerCase(), String(value));
      return res;
    },
    end(body: Buffer) {
      answer.body = body.toString();
      return res;
    },
  };
  return { res: res as unknown as ExpressResponse, answer };
}

function setUp(options: { ttlMs?: number; keptMax?: number } = {}) {
  const reference = { keeping: true, changes: 0 };
  let clock = 1_000;
  let renders = 0;
  const served: boolean[] = [];
  const pages = createVisitorPages(reference as ChangesHeard, {
    now: () => clock,
    onServed: (kept) => served.push(kept),
    ...options,
  });
  const page =
    (text: string, init: ResponseInit = {}, queries = 0) =>
    async (): Promise<Rendered> => {
      renders += 1;
      const html = `<html><script nonce="${pages.standIn}">1</script><p>${text}</p><script nonce="${pages.standIn}">2</script></html>`;
      const headers = { "Content-Type": "text/html; charset=utf-8", ...(init.headers as object) };
      return { response: new Response(html, { status: 200, ...init, headers }), queries };
    };
  /** A request for `key`: the kept copy when there is a good one, else a render. */
  const visit = async (key: string, nonce: string, render = page("Welcome")) => {
    const { res, answer } = fakeResponse();
    if (pages.serveKept(key, res, nonce)) return { ...answer, kept: true };
    const response = await pages.render(key, nonce, render);
    return { status: response.status, body: await response.text(), headers: response.headers, kept: false };
  };
  return {
    pages,
    reference,
    visit,
    page,
    served,
    renders: () => renders,
    advance: (ms: number) => (clock += ms),
  };
}

describe("the kept visitor pages", () => {
  it("renders a page once and answers the next visitors with the copy, each with its own nonce", async () => {
    const { visit, renders, served } = setUp();
    const first = await visit("/", "nonceOne");
    expect(first.body).toBe(
      '<html><script nonce="nonceOne">1</script><p>Welcome</p><script nonce="nonceOne">2</script></html>',
    );
    const second = await visit("/", "nonceTwo");
    expect(second.kept).toBe(true);
    expect(second.status).toBe(200);
    expect(second.body).toBe(
      '<html><script nonce="nonceTwo">1</script><p>Welcome</p><script nonce="nonceTwo">2</script></html>',
    );
    expect((second as { headers: Map<string, string> }).headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect((second as { headers: Map<string, string> }).headers.get("content-length")).toBe(
      String(Buffer.byteLength(second.body)),
    );
    expect(renders()).toBe(1);
    expect(served).toEqual([false, true]);
  });

  it("lets the server add its own headers to a kept answer before it goes out", async () => {
    const { pages, visit } = setUp();
    await visit("/", "a");
    const { res, answer } = fakeResponse();
    expect(pages.serveKept("/", res, "b", () => res.append("Server-Timing", 'db;desc="0 queries"'))).toBe(true);
    expect(answer.headers.get("server-timing")).toBe('db;desc="0 queries"');
    expect(answer.body).toContain('nonce="b"');
  });

  it("renders again once the reference data changed, and once a minute has passed", async () => {
    const { visit, renders, reference, advance, page } = setUp();
    await visit("/", "a");
    reference.changes += 1;
    expect((await visit("/", "b", page("Changed"))).body).toContain("Changed");
    expect(renders()).toBe(2);
    expect((await visit("/", "c")).body).toContain("Changed");
    advance(60_001);
    expect((await visit("/", "d")).body).toContain("Welcome");
    expect(renders()).toBe(3);
  });

  it("keeps nothing while the changes are not heard, nor a page rendered across a change", async () => {
    const { visit, renders, reference, pages, page } = setUp();
    reference.keeping = false;
    await visit("/", "a");
    await visit("/", "b");
    expect(renders()).toBe(2);
    reference.keeping = true;
    const across = page("Old");
    await visit("/", "c", async () => {
      const rendered = await across();
      reference.changes += 1;
      return rendered;
    });
    expect(pages.size).toBe(0);
    await visit("/", "d");
    expect((await visit("/", "e")).kept).toBe(true);
  });

  it("does not keep a page that set a cookie, read the database, or was not a 200", async () => {
    const { visit, pages, page, renders } = setUp();
    const cookie = await visit("/", "a", page("Hi", { headers: { "Set-Cookie": "coupon=x" } }));
    expect(cookie.headers.get("set-cookie")).toBe("coupon=x");
    // Not kept, and still with the answer's own nonce.
    expect(cookie.body).toBe('<html><script nonce="a">1</script><p>Hi</p><script nonce="a">2</script></html>');
    await visit("/", "b", page("Hi", {}, 1));
    expect((await visit("/", "c", page("Gone", { status: 404 }))).body).toContain('nonce="c"');
    expect(pages.size).toBe(0);
    expect(renders()).toBe(3);
  });

  it("keeps each query of a page apart, and starts again when it holds its most", async () => {
    const { visit, pages, page } = setUp({ keptMax: 2 });
    await visit("/login", "a", page("one"));
    await visit("/login?redirectTo=%2Fx", "a", page("two"));
    expect((await visit("/login", "b", page("never"))).body).toContain("one");
    expect((await visit("/login?redirectTo=%2Fx", "b", page("never"))).body).toContain("two");
    await visit("/signup", "a", page("three"));
    expect(pages.size).toBe(1);
  });
});
