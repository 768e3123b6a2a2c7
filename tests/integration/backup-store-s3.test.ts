import { createHash } from "node:crypto";
import { createServer } from "node:net";
import { Readable } from "node:stream";
import { http, HttpResponse, passthrough } from "msw";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { isProviderError } from "~/providers/errors";
import { s3BackupStore, type S3Settings } from "~/providers/backup-store/s3.server";
import { BackupStoreRefused, BackupStoreUnavailable } from "~/providers/backup-store/types";
import { mockServer } from "../mocks/server";
import { S3_ACCESS_KEY_ID, S3_BUCKET, S3_ENDPOINT, s3, mockS3Settings } from "../mocks/s3";

const settings: S3Settings = mockS3Settings("site-a/backups/");

const MiB = 1024 * 1024;
// S3's smallest part: the multipart test sends three, the last one shorter.
const PART = 5 * MiB;
const store = (overrides: Partial<S3Settings> = {}, options = {}) =>
  s3BackupStore({ ...settings, ...overrides }, { partSize: PART, maxAttempts: 1, ...options });

/** `size` bytes of a repeatable pattern, produced 64 KiB at a time: never one buffer of the whole. */
function streamOf(size: number, seed = 7, produced?: { bytes: number }): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) return this.push(null);
      const chunk = Buffer.alloc(Math.min(64 * 1024, size - sent));
      for (let i = 0; i < chunk.length; i++) chunk[i] = (sent + i) * seed + ((sent + i) >> 11);
      sent += chunk.length;
      if (produced) produced.bytes = sent;
      this.push(chunk);
    },
  });
}

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("expected a failure"),
    (e: unknown) => e,
  );

const KEY = "memberhall-20261207T031700Z-daily.dump";

beforeEach(() => s3.reset());

describe("S3 backup store (contract, against msw)", () => {
  it("puts a small file in one signed PUT under the prefix, path style", async () => {
    const stored = await store().put(KEY, Readable.from([Buffer.from("PGDMP small dump")]));

    expect(stored).toMatchObject({ key: KEY, bytes: 16 });
    const puts = s3.calls.filter((c) => c.method === "PUT");
    expect(puts).toHaveLength(1);
    expect(puts[0]).toMatchObject({
      origin: S3_ENDPOINT,
      path: `/${S3_BUCKET}/site-a/backups/${KEY}`,
      accessKeyId: S3_ACCESS_KEY_ID,
      signatureValid: true,
      contentSha256: createHash("sha256").update("PGDMP small dump").digest("hex"),
    });
    expect(s3.object(`site-a/backups/${KEY}`)?.body.toString()).toBe("PGDMP small dump");
    expect(s3.calls.every((c) => c.signatureValid && c.accessKeyId === S3_ACCESS_KEY_ID)).toBe(true);
  });

  it("sends a file over 5 MiB in parts as it streams, and completes the multipart upload", async () => {
    const size = 12 * MiB + 12345;
    const expected = await sha256Of(streamOf(size));

    const produced = { bytes: 0 };
    let producedAtFirstPart = -1;
    const watch = ({ request }: { request: Request }) => {
      if (producedAtFirstPart < 0 && new URL(request.url).searchParams.get("partNumber") === "1")
        producedAtFirstPart = produced.bytes;
    };
    mockServer.events.on("request:start", watch);

    const stored = await store()
      .put(KEY, streamOf(size, 7, produced))
      .finally(() => mockServer.events.removeListener("request:start", watch));

    expect(stored.bytes).toBe(size);
    // The first part left while the rest of the file was still to be read.
    expect(producedAtFirstPart).toBeGreaterThanOrEqual(PART);
    expect(producedAtFirstPart).toBeLessThan(size);
    const key = `site-a/backups/${KEY}`;
    expect(s3.calls.filter((c) => c.method === "POST" && "uploads" in c.query)).toHaveLength(1);
    const parts = s3.calls.filter((c) => c.method === "PUT" && c.query.partNumber);
    expect(parts.map((c) => [c.query.partNumber, c.bytes]).sort()).toEqual([
      ["1", PART],
      ["2", PART],
      ["3", size - 2 * PART],
    ]);
    expect(parts.every((c) => c.signatureValid && c.key === key)).toBe(true);
    expect(s3.calls.filter((c) => c.method === "POST" && c.query.uploadId)).toHaveLength(1);
    expect(s3.uploads.size).toBe(0);
    expect(s3.object(key)?.etag).toMatch(/^"[0-9a-f]{32}-3"$/);
    expect(createHash("sha256").update(s3.object(key)!.body).digest("hex")).toBe(expected);
  });

  it("gets a file back as a stream identical to what was put (SHA-256)", async () => {
    const size = 11 * MiB + 1;
    await store().put(KEY, streamOf(size, 13));

    const body = await store().get(KEY);

    expect(body).toBeInstanceOf(Readable);
    expect(await sha256Of(body!)).toBe(await sha256Of(streamOf(size, 13)));
  });

  it("lists the backups under its prefix only, across ListObjectsV2 pages", async () => {
    s3.pageSize = 2;
    const a = store();
    const names = ["memberhall-1-daily.dump", "memberhall-2-daily.dump", "memberhall-3-manual.dump"];
    for (const name of names) await a.put(name, Readable.from([Buffer.from(name)]));
    await store({ prefix: "site-b/" }).put("memberhall-9-daily.dump", Readable.from([Buffer.from("other site")]));

    const listed = await a.list();

    expect(listed.map((o) => o.key).sort()).toEqual(names);
    expect(listed.find((o) => o.key === names[0])).toMatchObject({ bytes: names[0]!.length });
    expect(listed.every((o) => o.modifiedAt instanceof Date && !Number.isNaN(o.modifiedAt.getTime()))).toBe(true);
    const lists = s3.calls.filter((c) => c.method === "GET" && c.query["list-type"] === "2");
    expect(lists.length).toBeGreaterThanOrEqual(2);
    expect(lists.every((c) => c.query.prefix === "site-a/backups/")).toBe(true);
  });

  it("heads a file, deletes it, and reads a missing one as null", async () => {
    const s = store();
    await s.put(KEY, Readable.from([Buffer.from("abc")]));
    expect(await s.head(KEY)).toMatchObject({ key: KEY, bytes: 3 });

    await s.delete(KEY);

    expect(s3.object(`site-a/backups/${KEY}`)).toBeUndefined();
    expect(await s.head(KEY)).toBeNull();
    expect(await s.get(KEY)).toBeNull();
    await s.delete(KEY);
  });

  it("reaches the bucket in the host name unless path style is asked for", async () => {
    await store({ forcePathStyle: false }).put(KEY, Readable.from([Buffer.from("hosted")]));

    const [put] = s3.calls.filter((c) => c.method === "PUT");
    expect(put).toMatchObject({ origin: `https://${S3_BUCKET}.s3.backups.test`, path: `/site-a/backups/${KEY}` });
    expect(put!.signatureValid).toBe(true);
  });

  it("turns a 503 into provider_unavailable with the store's reason", async () => {
    s3.failNext("unavailable", { times: 3 });

    const error = await failure(store().put(KEY, Readable.from([Buffer.from("x")])));

    expect(error).toBeInstanceOf(BackupStoreUnavailable);
    expect(isProviderError(error, "provider_unavailable")).toBe(true);
    expect((error as Error).message).toMatch(/not available: it answered 503 \(ServiceUnavailable/);
    expect((error as Error).message).toContain(S3_BUCKET);
  });

  it("retries a store that is slow, with the SDK's backoff, and succeeds", async () => {
    s3.failNext("slow_down");

    await store({}, { maxAttempts: 3 }).put(KEY, Readable.from([Buffer.from("x")]));

    expect(s3.object(`site-a/backups/${KEY}`)?.body.toString()).toBe("x");
  });

  it("turns a refused connection into provider_unavailable", async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const endpoint = `http://127.0.0.1:${port}`;
    mockServer.use(http.all(`${endpoint}/*`, () => passthrough()));

    const error = await failure(store({ endpoint }).list());

    expect(isProviderError(error, "provider_unavailable")).toBe(true);
    expect((error as Error).message).toMatch(/cannot be reached: .*ECONNREFUSED/);
  });

  it("aborts the multipart upload when a part fails, leaving neither parts nor a file behind", async () => {
    mockServer.use(
      http.put(/^https:\/\/s3\.backups\.test\//, ({ request }) =>
        new URL(request.url).searchParams.get("partNumber") === "2"
          ? new HttpResponse(
              '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message></Error>',
              { status: 500, headers: { "Content-Type": "application/xml" } },
            )
          : undefined,
      ),
    );

    const error = await failure(store().put(KEY, streamOf(11 * MiB)));

    expect(isProviderError(error, "provider_unavailable")).toBe(true);
    expect((error as Error).message).toMatch(/answered 500 \(InternalError/);
    expect(s3.calls.filter((c) => c.method === "DELETE" && c.query.uploadId)).toHaveLength(1);
    expect(s3.uploads.size).toBe(0);
    expect(s3.object(`site-a/backups/${KEY}`)).toBeUndefined();
  });

  it("stops an upload when asked, storing nothing and dropping the parts sent", async () => {
    const controller = new AbortController();
    const stopAtFirstPart = ({ request }: { request: Request }) => {
      if (new URL(request.url).searchParams.get("partNumber") === "1") controller.abort();
    };
    mockServer.events.on("request:start", stopAtFirstPart);

    const error = await failure(
      store()
        .put(KEY, streamOf(16 * MiB), { signal: controller.signal })
        .finally(() => mockServer.events.removeListener("request:start", stopAtFirstPart)),
    );

    expect((error as Error).message).toBe("The upload to the backup store was stopped.");
    await vi.waitFor(() => expect(s3.calls.some((c) => c.method === "DELETE" && c.query.uploadId)).toBe(true));
    expect(s3.uploads.size).toBe(0);
    expect(s3.object(`site-a/backups/${KEY}`)).toBeUndefined();
  });

  it("reads a key it does not know as a refusal, with S3's code", async () => {
    const error = await failure(store({ accessKeyId: "AKIAUNKNOWNKEY000000" }).list());

    expect(error).toBeInstanceOf(BackupStoreRefused);
    expect(isProviderError(error, "store_refused")).toBe(true);
    expect(error).toMatchObject({ status: 403, providerCode: "InvalidAccessKeyId" });
  });

  it("signs with the secret key: a wrong one is refused as S3 refuses it", async () => {
    const error = await failure(store({ secretAccessKey: "not-the-secret-of-this-access-key-id" }).head(KEY));

    expect(error).toMatchObject({ code: "store_refused", status: 403 });
    expect(s3.calls[0]).toMatchObject({ accessKeyId: S3_ACCESS_KEY_ID, signatureValid: false });
    const listing = await failure(store({ secretAccessKey: "not-the-secret-of-this-access-key-id" }).list());
    expect(listing).toMatchObject({ providerCode: "SignatureDoesNotMatch" });
  });

  it("refuses a key that is not a plain file name before anything is sent", async () => {
    await expect(store().get("../site-b/secret.dump")).rejects.toThrow(/Not a backup file name/);
    expect(s3.calls).toHaveLength(0);
  });
});
