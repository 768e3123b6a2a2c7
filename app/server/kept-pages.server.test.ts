import type { Response as ExpressResponse } from "express";
import { describe, expect, it } from "vitest";
import { keepsRenderedPage, memberPageKey, visitorPageKey, type VisitorRequest } from "~/domain/kept-pages";
import { createKeptPages, type ChangesHeard, type KeptPagesOptions, type Rendered } from "./kept-pages.server";

const visitor: VisitorRequest = { method: "GET", path: "/", search: "", hasCookie: false, hasState: false };

describe("which requests a signed-in member's kept page may answer", () => {
  const member = { method: "GET", path: "/", search: "", cookie: "__session=abc", hasState: false };
  it("is a GET with a cookie of the member's home, a NoL step page or the members list, keyed by the whole cookie", () => {
    expect(memberPageKey(member)).toBe("__session=abc\n/");
    expect(memberPageKey({ ...member, path: "/members", search: "?sort=username" })).toBe(
      "__session=abc\n/members?sort=username",
    );
    expect(memberPageKey({ ...member, path: "/nol/creator/us-ffa/notice", search: "?version=v1" })).toBe(
      "__session=abc\n/nol/creator/us-ffa/notice?version=v1",
    );
    expect(memberPageKey({ ...member, cookie: "__session=abc; flash=x" })).toBe("__session=abc; flash=x\n/");
    expect(memberPageKey({ ...member, path: "/api/entry/nol-member-versions" })).toBe(
      "__session=abc\n/api/entry/nol-member-versions",
    );
  });

  it("is never a request without a cookie, with state headers, another method, a data request or another page", () => {
    expect(memberPageKey({ ...member, cookie: undefined })).toBeNull();
    expect(memberPageKey({ ...member, cookie: "x".repeat(5_000) })).toBeNull();
    expect(memberPageKey({ ...member, hasState: true })).toBeNull();
    expect(memberPageKey({ ...member, method: "POST" })).toBeNull();
    expect(memberPageKey({ ...member, search: "?_data=root" })).toBeNull();
    for (const path of [
      "/profile",
      "/members/1",
      "/nol/creator/us-ffa",
      "/nol/creator/us-ffa/mail",
      "/nol/creator/us-ffa/notarize",
      "/nol/creator/us-ffa/sign",
      "/nol/creator/us-ffa/notice.pdf",
      "/nol/creator/us-ffa/proof-of-service.notarize",
    ]) {
      expect(memberPageKey({ ...member, path }), path).toBeNull();
    }
  });
});

describe("which requests a kept visitor page may answer", () => {
  it("is a visitor's GET of a visitor page, its query included in the key", () => {
    expect(visitorPageKey(visitor)).toBe("/");
    expect(visitorPageKey({ ...visitor, path: "/login", search: "?redirectTo=%2Fprofile" })).toBe(
      "/login?redirectTo=%2Fprofile",
    );
    expect(visitorPageKey({ ...visitor, path: "/signup" })).toBe("/signup");
  });

  it("is, for an answer the same for everyone, any GET whatever cookie came along", () => {
    expect(visitorPageKey({ ...visitor, path: "/api/config" })).toBe("/api/config");
    expect(visitorPageKey({ ...visitor, path: "/api/config", hasCookie: true })).toBe("/api/config");
    expect(visitorPageKey({ ...visitor, path: "/api/config/causes", hasCookie: true })).toBe("/api/config/causes");
    expect(visitorPageKey({ ...visitor, path: "/api/schema", search: "?v=1" })).toBe("/api/schema?v=1");
    expect(visitorPageKey({ ...visitor, path: "/api/config", method: "POST" })).toBeNull();
    expect(visitorPageKey({ ...visitor, path: "/api/config", hasState: true })).toBeNull();
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

  it("keeps only a whole HTML page or JSON answer with no cookie set and no query sent", () => {
    const page = { status: 200, contentType: "text/html; charset=utf-8", setsCookie: false, queries: 0 };
    expect(keepsRenderedPage(page)).toBe(true);
    expect(keepsRenderedPage({ ...page, status: 302 })).toBe(false);
    expect(keepsRenderedPage({ ...page, status: 404 })).toBe(false);
    expect(keepsRenderedPage({ ...page, setsCookie: true })).toBe(false);
    expect(keepsRenderedPage({ ...page, queries: 1 })).toBe(false);
    expect(keepsRenderedPage({ ...page, contentType: "application/json" })).toBe(true);
    expect(keepsRenderedPage({ ...page, contentType: "application/pdf" })).toBe(false);
    expect(keepsRenderedPage({ ...page, contentType: null })).toBe(false);
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
    end(body?: Buffer) {
      answer.body = body?.toString() ?? "";
      return res;
    },
  };
  return { res: res as unknown as ExpressResponse, answer };
}

function setUp(options: Omit<KeptPagesOptions, "now" | "onServed"> = {}) {
  const reference = { keeping: true, changes: 0 };
  let clock = 1_000;
  let renders = 0;
  const served: boolean[] = [];
  const pages = createKeptPages(reference as ChangesHeard, {
    now: () => clock,
    onServed: (kept) => served.push(kept),
    ...options,
  });
  const page =
    (text: string, init: ResponseInit = {}, queries = 0, reads: Array<() => boolean> = []) =>
    async (): Promise<Rendered> => {
      renders += 1;
      const html = `<html><script nonce="${pages.standIn}">1</script><p>${text}</p><script nonce="${pages.standIn}">2</script></html>`;
      const headers = { "Content-Type": "text/html; charset=utf-8", ...(init.headers as object) };
      return { response: new Response(html, { status: 200, ...init, headers }), queries, reads };
    };
  /** A request for `key`: the kept copy when there is a good one, else a render. */
  const visit = async (key: string, nonce: string, render = page("Welcome")) => {
    const { res, answer } = fakeResponse();
    if (pages.serveKept(key, res, { nonce })) return { ...answer, kept: true };
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
    const beforeWrite = () => res.append("Server-Timing", 'db;desc="0 queries"');
    expect(pages.serveKept("/", res, { nonce: "b", beforeWrite })).toBe(true);
    expect(answer.headers.get("server-timing")).toBe('db;desc="0 queries"');
    expect(answer.body).toContain('nonce="b"');
  });

  it("keeps a JSON answer the same for everyone, and answers a request naming its ETag 304 without a body", async () => {
    const { pages, renders } = setUp();
    const json = async (): Promise<Rendered> => ({
      response: new Response('{"a":1}', {
        headers: {
          "Content-Type": "application/json; charset=utf-8",
          ETag: '"abc"',
          "Cache-Control": "public, max-age=60",
        },
      }),
      queries: 0,
      reads: [],
    });
    expect(await (await pages.render("/api/config", "n", json)).text()).toBe('{"a":1}');
    const { res, answer } = fakeResponse();
    expect(pages.serveKept("/api/config", res, { nonce: "m" })).toBe(true);
    expect(answer.body).toBe('{"a":1}');
    expect(answer.headers.get("etag")).toBe('"abc"');
    for (const ifNoneMatch of ['"abc"', 'W/"abc"', '"x", "abc"']) {
      const conditional = fakeResponse();
      expect(pages.serveKept("/api/config", conditional.res, { nonce: "m", ifNoneMatch })).toBe(true);
      expect(conditional.answer.status).toBe(304);
      expect(conditional.answer.body).toBe("");
      expect(conditional.answer.headers.get("etag")).toBe('"abc"');
      expect(conditional.answer.headers.get("cache-control")).toBe("public, max-age=60");
    }
    const other = fakeResponse();
    pages.serveKept("/api/config", other.res, { nonce: "m", ifNoneMatch: '"old"' });
    expect(other.answer.status).toBe(200);
    expect(renders()).toBe(0);
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

  it("keeps each query of a page apart, and drops the oldest when it holds its most", async () => {
    const { visit, pages, page } = setUp({ keptMax: 2 });
    await visit("/login", "a", page("one"));
    await visit("/login?redirectTo=%2Fx", "a", page("two"));
    expect((await visit("/login", "b", page("never"))).body).toContain("one");
    expect((await visit("/login?redirectTo=%2Fx", "b", page("never"))).body).toContain("two");
    await visit("/signup", "a", page("three"));
    expect(pages.size).toBe(2);
    expect((await visit("/login", "c", page("again"))).body).toContain("again");
    expect((await visit("/signup", "c", page("never"))).body).toContain("three");
  });
});

describe("a signed-in member's kept pages", () => {
  it("answers the same cookie with the copy while every kept value its render read is still kept", async () => {
    const { visit, renders, page, pages } = setUp({ signedIn: true, ttlMs: 30_000 });
    const viewer = { kept: true };
    const entries = { kept: true };
    const reads = [() => viewer.kept, () => entries.kept];
    await visit("session=a\n/", "a", page("Home of A", {}, 0, reads));
    expect((await visit("session=a\n/", "b", page("never"))).kept).toBe(true);
    // The member's entries changed (their notification dropped them from the cache).
    entries.kept = false;
    expect((await visit("session=a\n/", "c", page("After the save", {}, 0, [() => true]))).body).toContain(
      "After the save",
    );
    expect(renders()).toBe(2);
    expect(pages.size).toBe(1);
    expect((await visit("session=a\n/", "d", page("never"))).body).toContain("After the save");
  });

  it("keeps no page whose render read no kept value, or read one that changed meanwhile", async () => {
    const { visit, pages, page } = setUp({ signedIn: true });
    await visit("session=a\n/", "a", page("No viewer"));
    await visit("session=a\n/", "b", page("Changed meanwhile", {}, 0, [() => true, () => false]));
    await visit("session=a\n/", "c", page("A query", {}, 1, [() => true]));
    expect(pages.size).toBe(0);
  });

  it("keeps at most its bytes, dropping the oldest copies", async () => {
    const { visit, pages, page } = setUp({ signedIn: true, keptBytes: 160 });
    const reads = [() => true];
    await visit("session=a\n/", "a", page("one", {}, 0, reads));
    await visit("session=b\n/", "a", page("two", {}, 0, reads));
    expect(pages.size).toBe(2);
    expect(pages.bytes).toBeLessThanOrEqual(160);
    await visit("session=c\n/", "a", page("three", {}, 0, reads));
    expect(pages.size).toBe(2);
    expect((await visit("session=a\n/", "b", page("one again", {}, 0, reads))).body).toContain("one again");
    // A page bigger than all the bytes allowed is never kept.
    await visit("session=d\n/", "a", page("x".repeat(300), {}, 0, reads));
    expect((await visit("session=d\n/", "b", page("small", {}, 0, reads))).body).toContain("small");
  });
});

describe("the pages rendered to be kept", () => {
  it("are those asked for before within a copy's time: a page asked for once is rendered as any other answer", () => {
    const { pages, served, advance } = setUp();
    expect(pages.admits("/?view=1")).toBe(false);
    expect(served).toEqual([false]);
    expect(pages.admits("/?view=2")).toBe(false);
    expect(pages.admits("/?view=1")).toBe(true);
    // Rendered to be kept, it is counted when that render is done, not here.
    expect(served).toEqual([false, false]);
    // Until a copy is kept, each request renders it to be kept.
    advance(59_000);
    expect(pages.admits("/?view=1")).toBe(true);
    advance(59_000);
    expect(pages.admits("/?view=1")).toBe(true);
    expect(pages.admits("/?view=2")).toBe(false);
    expect(pages.admits("/?view=2")).toBe(true);
  });

  it("remember at most twice the copies kept, forgetting the oldest sightings first", () => {
    const { pages } = setUp({ keptMax: 2 });
    for (const view of [1, 2, 3, 4, 5]) expect(pages.admits(`/?view=${view}`)).toBe(false);
    expect(pages.admits("/?view=1")).toBe(false);
    expect(pages.admits("/?view=5")).toBe(true);
  });
});
