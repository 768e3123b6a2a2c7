import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { once } from "node:events";
import { createReadStream, existsSync } from "node:fs";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { http, passthrough } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { s3BackupStore, type S3Settings } from "~/providers/backup-store/s3.server";
import { BackupStoreRefused, BackupStoreUnavailable } from "~/providers/backup-store/types";
import { startS3Standin, type S3Standin, type S3StandinOptions } from "../helpers/s3-standin";
import { mockServer } from "../mocks/server";

/**
 * The S3 backup store over a real socket, against the stand-in a separately started server
 * stores its backups in: what the adapter sends must be what the stand-in keeps on disk, byte
 * for byte, and its failures must read to the adapter as S3's do.
 */

const MiB = 1024 * 1024;
const PREFIX = "site-a/backups/";
const KEY = "memberhall-20261207T031700Z-daily.dump";

/** What the stand-in prints when started as a process: all a store needs to reach it. */
type Printed = Pick<S3Standin, "url" | "bucket" | "region" | "accessKeyId" | "secretAccessKey">;

const started: S3Standin[] = [];
let standin: S3Standin;

async function start(options: Partial<S3StandinOptions> = {}): Promise<S3Standin> {
  const dir = await mkdtemp(path.join(tmpdir(), "s3-standin-"));
  const s = await startS3Standin({ dir, ...options });
  started.push(s);
  // This process's msw would answer for any host; the stand-in's requests go out on the socket.
  mockServer.use(http.all(`${s.url}/*`, () => passthrough()));
  return s;
}

beforeEach(async () => {
  standin = await start();
});
afterEach(async () => {
  for (const s of started.splice(0)) {
    await s.close();
    await rm(s.dir, { recursive: true, force: true });
  }
});

const settingsOf = (s: Printed) =>
  ({
    kind: "s3",
    endpoint: s.url,
    bucket: s.bucket,
    region: s.region,
    accessKeyId: s.accessKeyId,
    secretAccessKey: s.secretAccessKey,
    prefix: PREFIX,
    forcePathStyle: true,
  }) satisfies S3Settings;

const store = (overrides: Partial<S3Settings> = {}, s: Printed = standin) =>
  s3BackupStore({ ...settingsOf(s), ...overrides }, { maxAttempts: 1 });

/** The SDK itself, for what the adapter never asks: S3's own codes and headers. */
const clientOf = (s: S3Standin) =>
  new S3Client({
    endpoint: s.url,
    region: s.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey },
    maxAttempts: 1,
    requestChecksumCalculation: "WHEN_REQUIRED",
  });

/**
 * `size` random bytes made as they are read, 1 MiB at a time, so no test holds a whole backup;
 * `pause` holds the stream once `pause.at` bytes are out, until `pause.until` settles.
 */
function generated(size: number, pause?: { at: number; until: () => Promise<unknown> }) {
  const hash = createHash("sha256");
  async function* chunks() {
    let sent = 0;
    while (sent < size) {
      if (pause && sent >= pause.at) {
        await pause.until();
        pause = undefined;
      }
      const chunk = randomBytes(Math.min(MiB, size - sent));
      hash.update(chunk);
      sent += chunk.length;
      yield chunk;
    }
  }
  return { stream: Readable.from(chunks()), sha256: () => hash.digest("hex") };
}

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(stream, hash);
  return hash.digest("hex");
}

/** What a stopped or failed upload may not leave: its parts, or bodies half received. */
const leftovers = async (s: S3Standin) => [
  ...(await readdir(path.join(s.dir, "uploads"))),
  ...(await readdir(path.join(s.dir, "tmp"))),
];

const operations = (s: S3Standin) => s.requests.map((r) => r.operation);

const sawUploadPart = (s: S3Standin) =>
  vi.waitFor(() => expect(operations(s)).toContain("UploadPart"), { timeout: 20_000 });

describe("the S3 stand-in, driven by the S3 backup store over a socket", () => {
  it("keeps a 40 MiB stream sent in parts whole on disk, every request signed", async () => {
    const body = generated(40 * MiB);

    const stored = await store().put(KEY, body.stream);

    expect(stored).toMatchObject({ key: KEY, bytes: 40 * MiB });
    const file = standin.objectPath(`${PREFIX}${KEY}`);
    expect((await stat(file)).size).toBe(40 * MiB);
    expect(await sha256Of(createReadStream(file))).toBe(body.sha256());
    // 16 MiB parts: 16 + 16 + 8.
    expect(operations(standin)).toEqual([
      "CreateMultipartUpload",
      "UploadPart",
      "UploadPart",
      "UploadPart",
      "CompleteMultipartUpload",
      "HeadObject",
    ]);
    const parts = standin.requests.filter((r) => r.operation === "UploadPart").map((r) => r.query.partNumber);
    expect(parts.sort()).toEqual(["1", "2", "3"]);
    expect(standin.requests.every((r) => r.signatureValid && r.path.startsWith(`/${standin.bucket}/`))).toBe(true);
    expect(await leftovers(standin)).toEqual([]);
  });

  it("puts a small file in one PutObject, lists, heads and gets it back, and deletes it", async () => {
    const s = store();
    const bytes = Buffer.from("PGDMP a small dump");
    await s.put(KEY, Readable.from([bytes]));
    await s.put("memberhall-20261208T031700Z-daily.dump", Readable.from([Buffer.from("another")]));
    await store({ prefix: "site-b/" }).put(KEY, Readable.from([Buffer.from("another site's")]));

    expect(operations(standin).filter((o) => o === "PutObject")).toHaveLength(3);
    expect(await s.head(KEY)).toMatchObject({ key: KEY, bytes: bytes.length, modifiedAt: expect.any(Date) });
    const listed = await s.list();
    expect(listed.map((o) => [o.key, o.bytes]).sort()).toEqual([
      [KEY, bytes.length],
      ["memberhall-20261208T031700Z-daily.dump", 7],
    ]);
    const got = await s.get(KEY);
    const chunks: Buffer[] = [];
    for await (const chunk of got!) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);

    await s.delete(KEY);

    expect(existsSync(standin.objectPath(`${PREFIX}${KEY}`))).toBe(false);
    expect(await s.head(KEY)).toBeNull();
    await s.delete(KEY);
    expect(standin.requests.filter((r) => r.operation === "DeleteObject")).toHaveLength(2);
    expect(standin.requests.every((r) => r.signatureValid)).toBe(true);
  });

  it("lists across ListObjectsV2 pages with continuation tokens", async () => {
    const paged = await start({ pageSize: 2 });
    const names = [1, 2, 3, 4, 5].map((n) => `memberhall-${n}-daily.dump`);
    for (const name of names) await store({}, paged).put(name, Readable.from([Buffer.from(name)]));

    const listed = await store({}, paged).list();

    expect(listed.map((o) => o.key).sort()).toEqual(names);
    const lists = paged.requests.filter((r) => r.operation === "ListObjectsV2");
    expect(lists).toHaveLength(3);
    expect(lists.map((r) => "continuation-token" in r.query)).toEqual([false, true, true]);
    expect(lists.every((r) => r.query.prefix === PREFIX)).toBe(true);
  });

  it("reads a missing key as null, S3 answering 404 NoSuchKey", async () => {
    expect(await store().head(KEY)).toBeNull();
    expect(await store().get(KEY)).toBeNull();

    await expect(
      clientOf(standin).send(new GetObjectCommand({ Bucket: standin.bucket, Key: "none" })),
    ).rejects.toMatchObject({ name: "NoSuchKey", $metadata: { httpStatusCode: 404 } });
  });

  it("answers GetObject with the object's length, ETag and time, streamed from disk", async () => {
    const client = clientOf(standin);
    await client.send(new PutObjectCommand({ Bucket: standin.bucket, Key: "x.dump", Body: "twelve bytes" }));

    const got = await client.send(new GetObjectCommand({ Bucket: standin.bucket, Key: "x.dump" }));

    expect(got.ContentLength).toBe(12);
    expect(got.ETag).toBe(`"${createHash("md5").update("twelve bytes").digest("hex")}"`);
    expect(Math.abs(got.LastModified!.getTime() - Date.now())).toBeLessThan(60_000);
    expect(await got.Body!.transformToString()).toBe("twelve bytes");
  });

  it("refuses a wrong secret as S3 does, which the adapter reads as a refusal", async () => {
    const listing = store({ secretAccessKey: "not-the-secret-of-this-access-key-id" }).list();

    await expect(listing).rejects.toBeInstanceOf(BackupStoreRefused);
    await expect(listing).rejects.toMatchObject({ status: 403, providerCode: "SignatureDoesNotMatch" });
    expect(standin.requests).toEqual([expect.objectContaining({ signatureValid: false })]);
  });

  it("refuses an unknown access key and an unknown bucket with S3's codes", async () => {
    await expect(store({ accessKeyId: "AKIAUNKNOWNKEY000000" }).list()).rejects.toMatchObject({
      status: 403,
      providerCode: "InvalidAccessKeyId",
    });
    await expect(store({ bucket: "no-such-bucket" }).list()).rejects.toMatchObject({
      status: 404,
      providerCode: "NoSuchBucket",
    });
  });

  it("refuses a body that is not the one signed, keeping nothing of it", async () => {
    const client = clientOf(standin);
    // After signing, as a proxy that changed the bytes on the way would.
    client.middlewareStack.add(
      (next) => (args) => {
        // Of the same length: Content-Length is signed too.
        (args.request as { body: unknown }).body = Buffer.from("y");
        return next(args);
      },
      { step: "deserialize" },
    );

    await expect(
      client.send(new PutObjectCommand({ Bucket: standin.bucket, Key: "x.dump", Body: "x" })),
    ).rejects.toMatchObject({ name: "XAmzContentSHA256Mismatch", $metadata: { httpStatusCode: 400 } });
    expect(existsSync(standin.objectPath("x.dump"))).toBe(false);
    expect(await leftovers(standin)).toEqual([]);
  });

  it("refuses to complete an upload whose part before the last is under 5 MiB (EntityTooSmall)", async () => {
    const client = clientOf(standin);
    const where = { Bucket: standin.bucket, Key: "parts.dump" };
    const { UploadId } = await client.send(new CreateMultipartUploadCommand(where));
    const etags = [];
    for (const PartNumber of [1, 2]) {
      const part = await client.send(new UploadPartCommand({ ...where, UploadId, PartNumber, Body: "small" }));
      etags.push({ PartNumber, ETag: part.ETag });
    }

    await expect(
      client.send(new CompleteMultipartUploadCommand({ ...where, UploadId, MultipartUpload: { Parts: etags } })),
    ).rejects.toMatchObject({ name: "EntityTooSmall", $metadata: { httpStatusCode: 400 } });
    expect(existsSync(standin.objectPath("parts.dump"))).toBe(false);
    // S3 keeps a refused upload until it is aborted.
    expect(await readdir(path.join(standin.dir, "uploads"))).toEqual([UploadId]);
    await client.send(new AbortMultipartUploadCommand({ ...where, UploadId }));
    expect(await leftovers(standin)).toEqual([]);
  });

  it("answers 503 while down, which the adapter reads as unavailable, and stores nothing", async () => {
    standin.setDown(true);

    const putting = store().put(KEY, Readable.from([Buffer.from("x")]));

    await expect(putting).rejects.toBeInstanceOf(BackupStoreUnavailable);
    await expect(putting).rejects.toMatchObject({
      code: "provider_unavailable",
      message: expect.stringMatching(/answered 503 \(ServiceUnavailable/),
    });
    expect(existsSync(standin.objectPath(`${PREFIX}${KEY}`))).toBe(false);
    standin.setDown(false);
    expect(await store().head(KEY)).toBeNull();
    await store().put(KEY, Readable.from([Buffer.from("x")]));
    expect(await store().head(KEY)).toMatchObject({ bytes: 1 });
  });

  it("going down in the middle of a multipart upload leaves no object", async () => {
    const body = generated(40 * MiB, {
      at: 20 * MiB,
      until: () => sawUploadPart(standin).then(() => standin.setDown(true)),
    });

    await expect(store().put(KEY, body.stream)).rejects.toBeInstanceOf(BackupStoreUnavailable);
    expect(existsSync(standin.objectPath(`${PREFIX}${KEY}`))).toBe(false);
    standin.setDown(false);
    expect(await store().head(KEY)).toBeNull();
  });

  it("a stopped upload leaves no object and no parts on disk", async () => {
    const controller = new AbortController();
    const body = generated(40 * MiB, {
      at: 20 * MiB,
      until: () => sawUploadPart(standin).then(() => controller.abort()),
    });

    await expect(store().put(KEY, body.stream, { signal: controller.signal })).rejects.toThrow(
      "The upload to the backup store was stopped.",
    );
    // The SDK answers the stop at once and aborts the upload after the parts in flight end: on a
    // busy machine, some seconds later.
    await vi.waitFor(() => expect(operations(standin)).toContain("AbortMultipartUpload"), { timeout: 20_000 });
    await vi.waitFor(async () => expect(await leftovers(standin)).toEqual([]), { timeout: 20_000 });
    expect(existsSync(standin.objectPath(`${PREFIX}${KEY}`))).toBe(false);
    expect(await store().head(KEY)).toBeNull();
  });

  it("runs as a process of its own, printing its settings and playing an outage on signals", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "s3-standin-main-"));
    const child = spawn(process.execPath, ["--import", "tsx", "tests/helpers/s3-standin-main.ts", "--dir", dir], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
      const printed = JSON.parse(line) as Printed;
      expect(Object.keys(printed).sort()).toEqual(["accessKeyId", "bucket", "region", "secretAccessKey", "url"]);
      expect(printed.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      mockServer.use(http.all(`${printed.url}/*`, () => passthrough()));
      const s = store({}, printed);

      await s.put(KEY, Readable.from([Buffer.from("kept by another process")]));
      expect(await sha256Of((await s.get(KEY))!)).toBe(
        createHash("sha256").update("kept by another process").digest("hex"),
      );

      child.kill("SIGUSR1");
      await vi.waitFor(() => expect(s.list()).rejects.toBeInstanceOf(BackupStoreUnavailable));
      child.kill("SIGUSR2");
      await vi.waitFor(async () => expect(await s.list()).toHaveLength(1));
    } finally {
      child.kill("SIGTERM");
      if (child.exitCode === null) await once(child, "exit");
      await rm(dir, { recursive: true, force: true });
    }
  });
});
