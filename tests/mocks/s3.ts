import type { S3Settings } from "~/providers/backup-store/s3.server";
import { http, HttpResponse, type HttpHandler } from "msw";
import { FakeProvider, type ProviderCall } from "./fake-provider";
import {
  addressOf,
  checkSignature,
  completeUploadResult,
  errorDocument,
  initiateUploadResult,
  listBucketResult,
  md5Hex,
  multipartEtag,
  newUploadId,
  objectHeaders,
  operationOf,
  partNumberOf,
  partsToComplete,
  refusalOfBody,
  refusalOfParts,
  refusalOfRequest,
  s3Failure,
  S3_ACCESS_KEY_ID,
  S3_BUCKET,
  S3_REGION,
  S3_SECRET_ACCESS_KEY,
  sha256Hex,
  xmlHeaders,
  type S3Failure,
} from "./s3-wire";

/**
 * A small S3 in memory, on S3's wire (./s3-wire.ts): every request signed with signature v4
 * (`Authorization: AWS4-HMAC-SHA256 Credential=…/s3/aws4_request, SignedHeaders=…,
 * Signature=…`, checked against the secret key as S3 checks it, and `x-amz-content-sha256`
 * against the body), buckets in the path or in the host name, XML answers and
 * `<Error><Code>…</Code><Message>…</Message></Error>` refusals, multipart uploads that refuse a
 * part under 5 MiB that is not the last, and ListObjectsV2's pages. It keeps every request for
 * tests to read, and lets a test break the next request.
 */

export { S3_ACCESS_KEY_ID, S3_BUCKET, S3_REGION, S3_SECRET_ACCESS_KEY } from "./s3-wire";
export const S3_ENDPOINT = "https://s3.backups.test";

export type S3Call = ProviderCall & {
  bucket: string | null;
  key: string | null;
  query: Record<string, string>;
  /** The access key id the request was signed with; null when it was not signed. */
  accessKeyId: string | null;
  /** Whether the v4 signature is the one the secret key makes for this request. */
  signatureValid: boolean;
  contentSha256: string | null;
  bytes: number;
};

type Failure = "unavailable" | "slow_down" | "network";

type StoredObject = { body: Buffer; etag: string; lastModified: Date; contentType: string };
type Upload = { bucket: string; key: string; parts: Map<number, { body: Buffer; etag: string }> };

const xml = (document: string, status = 200) => new HttpResponse(document, { status, headers: xmlHeaders() });

/** An S3 error document; a HEAD's answer has none, as S3 sends none. */
const refuse = (failure: S3Failure, method: string) =>
  method === "HEAD" ? new HttpResponse(null, { status: failure.status }) : xml(errorDocument(failure), failure.status);

/** S3 in memory. */
export class FakeS3 extends FakeProvider<S3Call, Failure> {
  readonly buckets = new Map<string, Map<string, StoredObject>>();
  readonly uploads = new Map<string, Upload>();
  readonly credentials = new Map<string, string>();
  /** Keys per ListObjectsV2 page, unless the request asks for fewer. */
  pageSize = 1000;

  constructor() {
    super();
    this.reset();
  }

  reset() {
    this.resetRequests();
    this.buckets.clear();
    this.buckets.set(S3_BUCKET, new Map());
    this.uploads.clear();
    this.credentials.clear();
    this.credentials.set(S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY);
    this.pageSize = 1000;
  }

  object(key: string, bucket = S3_BUCKET): StoredObject | undefined {
    return this.buckets.get(bucket)?.get(key);
  }

  async answer(request: Request, endpoint: URL): Promise<Response> {
    const url = new URL(request.url);
    const { method } = request;
    const { bucket, key } = addressOf(url.host, url.pathname, endpoint.host);
    const body = ["GET", "HEAD", "DELETE"].includes(method)
      ? Buffer.alloc(0)
      : Buffer.from(await request.arrayBuffer());
    const signature = checkSignature(
      {
        method,
        path: url.pathname,
        query: url.searchParams,
        header: (name) => request.headers.get(name) ?? (name === "host" ? url.host : null),
      },
      (id) => this.credentials.get(id),
    );
    const call: S3Call = {
      origin: url.origin,
      method,
      path: url.pathname,
      bucket,
      key,
      query: Object.fromEntries(url.searchParams),
      accessKeyId: signature.accessKeyId,
      signatureValid: signature.valid,
      contentSha256: request.headers.get("x-amz-content-sha256"),
      bytes: body.length,
    };
    const failure = this.receive(call);
    if (failure === "network") return HttpResponse.error();
    if (failure === "unavailable") return refuse(s3Failure.serviceUnavailable(), method);
    if (failure === "slow_down") return refuse(s3Failure.slowDown(), method);

    const refusal =
      refusalOfRequest(signature, call.contentSha256, { knows: (id) => this.credentials.has(id) }) ??
      refusalOfBody(call.contentSha256, sha256Hex(body));
    if (refusal) return refuse(refusal, method);
    const objects = bucket ? this.buckets.get(bucket) : undefined;
    if (!bucket || !objects) return refuse(s3Failure.noSuchBucket(bucket ?? ""), method);
    const query = url.searchParams;
    const uploadId = query.get("uploadId") ?? "";
    const upload = this.uploads.get(uploadId);
    const operation = operationOf(method, key, query);
    if (operation === "ListObjectsV2") return xml(listBucketResult(bucket, this.listed(objects), query, this.pageSize));
    if (!operation || !key) return refuse(s3Failure.methodNotAllowed(), method);
    if (
      (operation === "UploadPart" || operation === "CompleteMultipartUpload" || operation === "AbortMultipartUpload") &&
      (!upload || upload.bucket !== bucket || upload.key !== key)
    ) {
      return refuse(s3Failure.noSuchUpload(uploadId), method);
    }

    switch (operation) {
      case "CreateMultipartUpload": {
        const id = newUploadId();
        this.uploads.set(id, { bucket, key, parts: new Map() });
        return xml(initiateUploadResult(bucket, key, id));
      }
      case "UploadPart": {
        const partNumber = partNumberOf(query);
        if (partNumber === undefined) return refuse(s3Failure.invalidPartNumber(), method);
        const etag = `"${md5Hex(body)}"`;
        upload!.parts.set(partNumber, { body, etag });
        return new HttpResponse(null, { status: 200, headers: { ETag: etag } });
      }
      case "CompleteMultipartUpload":
        return this.complete(uploadId, upload!, objects, body.toString("utf8"));
      case "AbortMultipartUpload":
        this.uploads.delete(uploadId);
        return new HttpResponse(null, { status: 204 });
      case "PutObject": {
        const etag = `"${md5Hex(body)}"`;
        const contentType = request.headers.get("content-type") ?? "binary/octet-stream";
        objects.set(key, { body, etag, lastModified: new Date(), contentType });
        return new HttpResponse(null, { status: 200, headers: { ETag: etag } });
      }
      case "GetObject":
      case "HeadObject": {
        const object = objects.get(key);
        if (!object) return refuse(s3Failure.noSuchKey(key), method);
        const headers = objectHeaders({ ...object, key, bytes: object.body.length });
        return new HttpResponse(method === "HEAD" ? null : object.body, { status: 200, headers });
      }
      case "DeleteObject":
        objects.delete(key);
        return new HttpResponse(null, { status: 204 });
    }
  }

  private listed(objects: Map<string, StoredObject>) {
    return [...objects].map(([key, object]) => ({ ...object, key, bytes: object.body.length }));
  }

  private complete(uploadId: string, upload: Upload, objects: Map<string, StoredObject>, body: string) {
    const listed = partsToComplete(body);
    if (!listed) return refuse(s3Failure.malformedXml(), "POST");
    const refusal = refusalOfParts(listed, (n) => {
      const part = upload.parts.get(n);
      return part && { etag: part.etag, bytes: part.body.length };
    });
    if (refusal) return refuse(refusal, "POST");
    const parts = listed.map((part) => upload.parts.get(part.number)!);
    const etag = multipartEtag(parts.map((p) => p.etag));
    objects.set(upload.key, {
      body: Buffer.concat(parts.map((p) => p.body)),
      etag,
      lastModified: new Date(),
      contentType: "binary/octet-stream",
    });
    this.uploads.delete(uploadId);
    return xml(completeUploadResult(`${S3_ENDPOINT}/${upload.bucket}/${upload.key}`, upload.bucket, upload.key, etag));
  }
}

export const s3 = new FakeS3();

/** S3's API at `endpoint`, the bucket in the path or in the host name. */
export function s3Handlers(endpoint = S3_ENDPOINT, fake = s3): HttpHandler[] {
  const base = new URL(endpoint);
  const host = base.host.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const matches = new RegExp(`^${base.protocol}//([a-z0-9.-]+\\.)?${host}/`);
  return [http.all(matches, ({ request }) => fake.answer(request, base))];
}

export const handlers = s3Handlers();

/** The S3 adapter's settings for this mock's bucket, under `prefix`. */
export const mockS3Settings = (prefix: string): S3Settings => ({
  kind: "s3",
  endpoint: S3_ENDPOINT,
  bucket: S3_BUCKET,
  region: S3_REGION,
  accessKeyId: S3_ACCESS_KEY_ID,
  secretAccessKey: S3_SECRET_ACCESS_KEY,
  prefix,
  forcePathStyle: true,
});
