import { createHash, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Transform } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import { z } from "zod";
import * as wire from "../mocks/s3-wire";

/**
 * An S3 on a real socket, for a server started as a process of its own (msw cannot reach
 * into it): the same wire as tests/mocks/s3.ts (signature v4 checked with the secret, XML
 * answers and refusals, multipart uploads), buckets in the path, and every object's bytes in a
 * file under `dir`, so a test reads what a backup really stored. A body goes to a temporary
 * file as it arrives and is renamed into place once whole and matching its signed SHA-256:
 * a multi-gigabyte dump never sits in memory, and a cut-off upload leaves nothing behind.
 *
 * Under `dir`: `buckets/<bucket>/<id>` an object's bytes and `<id>.json` its key, ETag and
 * type (id: the key's SHA-256, so any key is a safe file name); `uploads/<uploadId>/` a
 * multipart upload's parts, `<partNumber>.<md5>`; `tmp/` bodies still arriving.
 */

export type S3StandinOptions = {
  dir: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  region?: string;
  bucket?: string;
  /** 0 (the default): any free port. */
  port?: number;
  /** Keys per ListObjectsV2 page, unless the request asks for fewer (S3's is 1000). */
  pageSize?: number;
};

export type S3StandinRequest = {
  method: string;
  path: string;
  query: Record<string, string>;
  signatureValid: boolean;
  /** The S3 operation the request is; undefined for one S3 would refuse as not allowed. */
  operation: wire.S3Operation | undefined;
};

export type S3Standin = {
  /** Where it listens: http://127.0.0.1:{port}, an endpoint for path-style requests. */
  url: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  dir: string;
  /** Every request received, refused ones too, in the order they arrived. */
  requests: S3StandinRequest[];
  /** The file holding the bytes of the object `key` in the stand-in's bucket. */
  objectPath(key: string): string;
  /** While down, every request is answered 503 ServiceUnavailable, as S3 answers when it fails. */
  setDown(down: boolean): void;
  close(): Promise<void>;
};

const objectRecord = z.object({ key: z.string(), etag: z.string(), contentType: z.string() });
const uploadRecord = z.object({ bucket: z.string(), key: z.string(), contentType: z.string() });
type UploadRecord = z.infer<typeof uploadRecord>;

const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const UPLOAD_ID = /^[A-Za-z0-9_-]{32}$/;
const PART_FILE = /^(\d+)\.([0-9a-f]{32})$/;

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";

/** An answer with no body, or with an XML document, its length always given as S3 gives it. */
function send(outgoing: http.ServerResponse, status: number, headers: Record<string, string> = {}, document = "") {
  outgoing.writeHead(status, {
    ...(document ? wire.xmlHeaders() : {}),
    ...headers,
    "Content-Length": String(Buffer.byteLength(document)),
  });
  outgoing.end(document);
}

/** A JSON record on disk, or undefined when there is none. */
async function readRecord<T>(file: string, schema: z.ZodType<T>): Promise<T | undefined> {
  try {
    return schema.parse(JSON.parse(await readFile(file, "utf8")));
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

export async function startS3Standin(options: S3StandinOptions): Promise<S3Standin> {
  const dir = path.resolve(options.dir);
  const bucket = options.bucket ?? wire.S3_BUCKET;
  const accessKeyId = options.accessKeyId ?? wire.S3_ACCESS_KEY_ID;
  const secretAccessKey = options.secretAccessKey ?? wire.S3_SECRET_ACCESS_KEY;
  const region = options.region ?? wire.S3_REGION;
  const pageSize = options.pageSize ?? 1000;
  const requests: S3StandinRequest[] = [];
  let down = false;

  const bucketDir = (name: string) => path.join(dir, "buckets", name);
  const dataFile = (name: string, key: string) => path.join(bucketDir(name), wire.sha256Hex(key));
  const uploadDir = (uploadId: string) => path.join(dir, "uploads", uploadId);
  const tmpFile = () => path.join(dir, "tmp", randomBytes(12).toString("hex"));

  // Bodies a stopped stand-in was still receiving are no one's.
  await rm(path.join(dir, "tmp"), { recursive: true, force: true });
  for (const folder of [bucketDir(bucket), path.join(dir, "uploads"), path.join(dir, "tmp")])
    await mkdir(folder, { recursive: true });

  async function bucketExists(name: string | null): Promise<boolean> {
    if (!name || !BUCKET_NAME.test(name)) return false;
    return stat(bucketDir(name)).then(
      (s) => s.isDirectory(),
      () => false,
    );
  }

  /** Written whole under a temporary name and renamed, so a reader sees the old record or the new one. */
  async function writeRecord(file: string, record: object) {
    const tmp = tmpFile();
    await writeFile(tmp, JSON.stringify(record));
    await rename(tmp, file);
  }

  /** The body, as it arrives, into `file`; its digests. A cut-off body leaves no file. */
  async function receiveBody(incoming: http.IncomingMessage, file: string) {
    const md5 = createHash("md5");
    const sha256 = createHash("sha256");
    const digest = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        md5.update(chunk);
        sha256.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(incoming, digest, createWriteStream(file));
    } catch (error) {
      await rm(file, { force: true });
      throw error;
    }
    return { md5: md5.digest("hex"), sha256: sha256.digest("hex") };
  }

  async function readSmallBody(incoming: http.IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /** The object's record and its open file: the bytes stay the ones described even if the object is replaced meanwhile. */
  async function openObject(name: string, key: string) {
    const record = await readRecord(`${dataFile(name, key)}.json`, objectRecord);
    if (!record) return undefined;
    const file = await open(dataFile(name, key)).catch((error: unknown) => {
      if (isMissing(error)) return undefined;
      throw error;
    });
    if (!file) return undefined;
    const facts = await file.stat();
    const object: wire.ObjectFacts = { ...record, bytes: facts.size, lastModified: facts.mtime };
    return { object, file };
  }

  /** Puts a whole received file in place as the object `key`; its record last, as that is what makes it visible. */
  async function storeObject(name: string, key: string, received: string, record: z.infer<typeof objectRecord>) {
    await rename(received, dataFile(name, key));
    await writeRecord(`${dataFile(name, key)}.json`, record);
  }

  async function listObjects(name: string): Promise<wire.ObjectFacts[]> {
    const files = (await readdir(bucketDir(name))).filter((file) => file.endsWith(".json"));
    const found = await Promise.all(
      files.map(async (file) => {
        const record = await readRecord(path.join(bucketDir(name), file), objectRecord);
        const facts = await stat(path.join(bucketDir(name), file.slice(0, -".json".length))).catch(() => undefined);
        return record && facts ? { ...record, bytes: facts.size, lastModified: facts.mtime } : undefined;
      }),
    );
    return found.filter((object) => object !== undefined);
  }

  async function openUpload(uploadId: string, name: string, key: string): Promise<UploadRecord | undefined> {
    if (!UPLOAD_ID.test(uploadId)) return undefined;
    const upload = await readRecord(path.join(uploadDir(uploadId), "upload.json"), uploadRecord);
    return upload && upload.bucket === name && upload.key === key ? upload : undefined;
  }

  /** The parts an upload holds, by number: their ETags, sizes and files. */
  async function heldParts(folder: string) {
    const parts = new Map<number, { etag: string; bytes: number; file: string }>();
    for (const file of await readdir(folder)) {
      const match = PART_FILE.exec(file);
      if (!match) continue;
      const { size } = await stat(path.join(folder, file));
      parts.set(Number(match[1]), { etag: `"${match[2]}"`, bytes: size, file });
    }
    return parts;
  }

  /**
   * Takes an upload away from its place in one rename, so a part still arriving for it finds
   * no upload, and no one else completes or aborts it at the same time; undefined when it is gone.
   */
  async function claimUpload(uploadId: string): Promise<string | undefined> {
    const claimed = tmpFile();
    try {
      await rename(uploadDir(uploadId), claimed);
      return claimed;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  let url = "";
  let host = "";

  async function answer(incoming: http.IncomingMessage, outgoing: http.ServerResponse) {
    const method = incoming.method ?? "GET";
    const [rawPath = "/", rawQuery = ""] = (incoming.url ?? "/").split(/\?(.*)/s);
    const query = new URLSearchParams(rawQuery);
    const header = (name: string) => {
      const value = incoming.headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(",") : value;
    };
    const { bucket: name, key } = wire.addressOf(header("host") ?? "", rawPath, host);
    const signature = wire.checkSignature({ method, path: rawPath, query, header }, (id) =>
      id === accessKeyId ? secretAccessKey : undefined,
    );
    const operation = wire.operationOf(method, key, query);
    requests.push({
      method,
      path: rawPath,
      query: Object.fromEntries(query),
      signatureValid: signature.valid,
      operation,
    });

    /** S3 reads a refused request's body before it answers: a client still sending meets the answer, not a reset. */
    const refuse = async (failure: wire.S3Failure) => {
      incoming.resume();
      await finished(incoming).catch(() => undefined);
      // A HEAD's answer has no body, as S3 sends none.
      send(outgoing, failure.status, {}, method === "HEAD" ? "" : wire.errorDocument(failure));
    };
    const reply = (status: number, headers: Record<string, string> = {}, document = "") =>
      send(outgoing, status, headers, document);

    const contentSha256 = header("x-amz-content-sha256");
    const refusal =
      (down ? wire.s3Failure.serviceUnavailable() : undefined) ??
      wire.refusalOfRequest(signature, contentSha256, { knows: (id) => id === accessKeyId, region }) ??
      ((await bucketExists(name)) ? undefined : wire.s3Failure.noSuchBucket(name ?? ""));
    if (refusal) return refuse(refusal);
    if (!operation || !name) return refuse(wire.s3Failure.methodNotAllowed());

    const streamed = operation === "PutObject" || operation === "UploadPart";
    if (streamed && !header("content-length")) return refuse(wire.s3Failure.missingContentLength());
    /** A body that is not an object's bytes is small: read whole and checked before anything is done. */
    const body = streamed ? Buffer.alloc(0) : await readSmallBody(incoming);
    const bodyRefusal = streamed ? undefined : wire.refusalOfBody(contentSha256, wire.sha256Hex(body));
    if (bodyRefusal) return refuse(bodyRefusal);
    /** A streamed body into a temporary file, kept only when it is the one the request signed. */
    const receive = async () => {
      const file = tmpFile();
      const received = await receiveBody(incoming, file);
      const mismatch = wire.refusalOfBody(contentSha256, received.sha256);
      if (!mismatch) return { file, etag: `"${received.md5}"` };
      await rm(file, { force: true });
      await refuse(mismatch);
      return undefined;
    };

    if (operation === "ListObjectsV2")
      return reply(200, {}, wire.listBucketResult(name, await listObjects(name), query, pageSize));
    if (!key) return refuse(wire.s3Failure.methodNotAllowed());
    const uploadId = query.get("uploadId") ?? "";

    switch (operation) {
      case "PutObject": {
        const received = await receive();
        if (!received) return;
        const contentType = header("content-type") ?? "binary/octet-stream";
        await storeObject(name, key, received.file, { key, etag: received.etag, contentType });
        return reply(200, { ETag: received.etag });
      }
      case "GetObject":
      case "HeadObject": {
        const found = await openObject(name, key);
        if (!found) return refuse(wire.s3Failure.noSuchKey(key));
        outgoing.writeHead(200, wire.objectHeaders(found.object));
        if (method === "HEAD") {
          await found.file.close();
          return void outgoing.end();
        }
        return pipeline(found.file.createReadStream(), outgoing);
      }
      case "DeleteObject":
        // The record first: without it the object is gone for every reader.
        await rm(`${dataFile(name, key)}.json`, { force: true });
        await rm(dataFile(name, key), { force: true });
        return reply(204);
      case "CreateMultipartUpload": {
        const id = wire.newUploadId();
        await mkdir(uploadDir(id));
        const contentType = header("content-type") ?? "binary/octet-stream";
        await writeRecord(path.join(uploadDir(id), "upload.json"), { bucket: name, key, contentType });
        return reply(200, {}, wire.initiateUploadResult(name, key, id));
      }
      case "UploadPart": {
        const partNumber = wire.partNumberOf(query);
        if (partNumber === undefined) return refuse(wire.s3Failure.invalidPartNumber());
        if (!(await openUpload(uploadId, name, key))) return refuse(wire.s3Failure.noSuchUpload(uploadId));
        const received = await receive();
        if (!received) return;
        const partFile = `${partNumber}.${received.etag.slice(1, -1)}`;
        try {
          await rename(received.file, path.join(uploadDir(uploadId), partFile));
        } catch (error) {
          await rm(received.file, { force: true });
          // Completed or aborted while this part was arriving.
          if (isMissing(error)) return refuse(wire.s3Failure.noSuchUpload(uploadId));
          throw error;
        }
        // A part sent again replaces the one before it, as S3 keeps the last.
        for (const file of await readdir(uploadDir(uploadId)).catch(() => [])) {
          if (file !== partFile && file.startsWith(`${partNumber}.`))
            await rm(path.join(uploadDir(uploadId), file), { force: true });
        }
        return reply(200, { ETag: received.etag });
      }
      case "CompleteMultipartUpload": {
        const upload = await openUpload(uploadId, name, key);
        if (!upload) return refuse(wire.s3Failure.noSuchUpload(uploadId));
        const listed = wire.partsToComplete(body.toString("utf8"));
        if (!listed) return refuse(wire.s3Failure.malformedXml());
        const parts = await heldParts(uploadDir(uploadId));
        const partsRefusal = wire.refusalOfParts(listed, (n) => parts.get(n));
        if (partsRefusal) return refuse(partsRefusal);
        const claimed = await claimUpload(uploadId);
        if (!claimed) return refuse(wire.s3Failure.noSuchUpload(uploadId));
        const whole = tmpFile();
        try {
          const out = createWriteStream(whole);
          for (const part of listed)
            await pipeline(createReadStream(path.join(claimed, parts.get(part.number)!.file)), out, { end: false });
          out.end();
          await finished(out);
          const etag = wire.multipartEtag(listed.map((part) => parts.get(part.number)!.etag));
          await storeObject(name, key, whole, { key, etag, contentType: upload.contentType });
          return reply(200, {}, wire.completeUploadResult(`${url}/${name}/${key}`, name, key, etag));
        } finally {
          await rm(claimed, { recursive: true, force: true });
          await rm(whole, { force: true });
        }
      }
      case "AbortMultipartUpload": {
        const claimed = (await openUpload(uploadId, name, key)) && (await claimUpload(uploadId));
        if (!claimed) return refuse(wire.s3Failure.noSuchUpload(uploadId));
        await rm(claimed, { recursive: true, force: true });
        return reply(204);
      }
    }
  }

  const server = http.createServer((incoming, outgoing) => {
    answer(incoming, outgoing).catch(() => {
      // A client that hung up mid-body has no one to answer; anything else is S3's own failure.
      if (outgoing.headersSent || incoming.destroyed) return void outgoing.destroy();
      send(outgoing, 500, {}, wire.errorDocument(wire.s3Failure.internalError()));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  url = `http://${host}`;

  return {
    url,
    bucket,
    accessKeyId,
    secretAccessKey,
    region,
    dir,
    requests,
    objectPath: (key) => dataFile(bucket, key),
    setDown(value) {
      down = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        // The SDK keeps its connections open between requests.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
