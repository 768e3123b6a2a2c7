import type { Readable } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";
import type { BackupStoreSettings } from "~/config/config.server";
import { BackupStoreRefused, BackupStoreUnavailable, checkKey, isBackupKey, type BackupStore } from "./types";

/**
 * An S3-compatible object store through the official SDK: requests signed with signature v4,
 * a file sent in parts (multipart upload) as the stream gives them, so at most `queueSize`
 * parts of `partSize` bytes are in memory at once.
 */

export type S3Settings = Extract<BackupStoreSettings, { kind: "s3" }>;

export type S3Options = {
  /** Bytes per part: 5 MiB at least (S3's floor); the default lets a file reach 160 GiB in S3's 10,000 parts. */
  partSize?: number;
  /** Parts sent at once. */
  queueSize?: number;
  /** Tries per request, the SDK's backoff between them. */
  maxAttempts?: number;
  /** How long a connection may take to open, and a request's socket may stay silent, in milliseconds. */
  connectionTimeoutMs?: number;
  requestTimeoutMs?: number;
};

export const S3_PART_SIZE = 16 * 1024 * 1024;

/** The SDK's names for a request that got no answer. */
const NO_ANSWER = new Set(["TimeoutError", "RequestTimeout", "NetworkingError", "AbortError"]);

/** The HTTP status of the store's answer in the SDK's error (S3ServiceException's `$metadata`); undefined: no answer. */
const statusOf = (error: unknown): number | undefined =>
  (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;

/** A value made once, at its first use. */
function memo<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

export function s3BackupStore(settings: S3Settings, options: S3Options = {}): BackupStore {
  const { bucket, prefix } = settings;
  const where = `${settings.endpoint ?? `AWS S3 (${settings.region})`}, bucket ${bucket}`;
  // The SDK is loaded at the store's first use: a server that never sends a backup never loads it.
  const sdk = memo(async () => {
    const [s3, storage] = await Promise.all([import("@aws-sdk/client-s3"), import("@aws-sdk/lib-storage")]);
    const client: S3Client = new s3.S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      maxAttempts: options.maxAttempts ?? 3,
      // The SDK's newer default adds CRC checksums in aws-chunked bodies to every upload, which
      // several S3-compatible stores (B2, R2 and older MinIO among them) refuse; the payload's
      // SHA-256 is signed either way, and the operations that require a checksum still send one.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      // A part is sent whole either way; waiting for "100 Continue" only saves the bytes of a
      // refused part, and a proxy in front of a self-hosted store that does not relay it holds
      // every part for the SDK's 6 s wait.
      expectContinueHeader: false,
      requestHandler: {
        connectionTimeout: options.connectionTimeoutMs ?? 10_000,
        requestTimeout: options.requestTimeoutMs ?? 120_000,
      },
    });
    return { s3, Upload: storage.Upload, client };
  });
  const objectKey = (key: string) => `${prefix}${checkKey(key)}`;

  /** What the store's failure means to us: unreachable or failing (try again later), or a refusal that will not change. */
  function failure(error: unknown): Error {
    const status = statusOf(error);
    const name = error instanceof Error ? error.name : "Error";
    const message = error instanceof Error ? error.message : String(error);
    if (status === undefined || NO_ANSWER.has(name)) {
      return new BackupStoreUnavailable(`The backup store (${where}) cannot be reached: ${message}`, { cause: error });
    }
    const said =
      name !== "Error" && name !== "UnknownError" && !message.includes(name) ? `${name}: ${message}` : message;
    if (status === 408 || status === 429 || status >= 500) {
      const reason = `it answered ${status} (${said})`;
      return new BackupStoreUnavailable(`The backup store (${where}) is not available: ${reason}`, { cause: error });
    }
    return new BackupStoreRefused(`The backup store (${where}) refused the request: ${said}`, status, name, {
      cause: error,
    });
  }

  /** The SDK's "no such key": HeadObject's bodiless 404 is named NotFound, GetObject's NoSuchKey. */
  const missing = (error: unknown) => statusOf(error) === 404 && (error as Error).name !== "NoSuchBucket";

  async function head(key: string) {
    try {
      const { s3, client } = await sdk();
      const answer = await client.send(new s3.HeadObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
      return { key, bytes: answer.ContentLength ?? 0, modifiedAt: answer.LastModified ?? new Date(0) };
    } catch (error) {
      if (missing(error)) return null;
      throw failure(error);
    }
  }

  return {
    name: "s3",
    location: `s3://${bucket}/${prefix}`,

    async put(key, body, putOptions = {}) {
      const controller = new AbortController();
      const stop = () => controller.abort();
      putOptions.signal?.addEventListener("abort", stop, { once: true });
      const { Upload, client } = await sdk();
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key: objectKey(key), Body: body, ContentType: "application/octet-stream" },
        partSize: options.partSize ?? S3_PART_SIZE,
        queueSize: options.queueSize ?? 2,
        leavePartsOnError: false,
        abortController: controller,
      });
      try {
        await upload.done();
      } catch (error) {
        if (putOptions.signal?.aborted)
          throw new Error("The upload to the backup store was stopped.", { cause: error });
        throw failure(error);
      } finally {
        putOptions.signal?.removeEventListener("abort", stop);
      }
      const stored = await head(key);
      if (!stored)
        throw new BackupStoreUnavailable(`The backup store (${where}) does not show ${key} after storing it`);
      return stored;
    },

    async list() {
      const found = [];
      try {
        const { s3, client } = await sdk();
        for await (const page of s3.paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: prefix })) {
          for (const object of page.Contents ?? []) {
            const key = object.Key?.slice(prefix.length) ?? "";
            // Another folder's files under the prefix, or files the store's users put there, are not backups.
            if (!isBackupKey(key)) continue;
            found.push({ key, bytes: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) });
          }
        }
      } catch (error) {
        throw failure(error);
      }
      return found;
    },

    async get(key) {
      try {
        const { s3, client } = await sdk();
        const answer = await client.send(new s3.GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        return answer.Body as Readable;
      } catch (error) {
        if (missing(error)) return null;
        throw failure(error);
      }
    },

    head,

    async delete(key) {
      try {
        const { s3, client } = await sdk();
        await client.send(new s3.DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
      } catch (error) {
        throw failure(error);
      }
    },
  };
}
