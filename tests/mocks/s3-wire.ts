import { createHash, createHmac, randomBytes } from "node:crypto";

/**
 * S3's wire (docs.aws.amazon.com/AmazonS3/latest/API), as both test S3s speak it: the one in
 * memory behind msw (tests/mocks/s3.ts) and the one on a real socket that keeps its objects on
 * disk (tests/helpers/s3-standin.ts). What a request asks for, whether its v4 signature is the
 * one the secret key makes, and the XML S3 answers with; each of the two keeps its objects its
 * own way.
 */

/** The account both test S3s know unless told otherwise. */
export const S3_BUCKET = "memberhall-backups";
export const S3_REGION = "eu-central-1";
export const S3_ACCESS_KEY_ID = "AKIAMEMBERHALLTEST01";
export const S3_SECRET_ACCESS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYMEMBERHALLKEY";

const XMLNS = "http://s3.amazonaws.com/doc/2006-03-01/";
/** S3's smallest part, for every part of a multipart upload but the last. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;

export const md5Hex = (bytes: Buffer | string) => createHash("md5").update(bytes).digest("hex");
export const sha256Hex = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");
const hmac = (key: Buffer | string, text: string) => createHmac("sha256", key).update(text).digest();

export const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);

const requestId = () => randomBytes(8).toString("hex").toUpperCase();

/** The headers of every XML answer. */
export const xmlHeaders = () => ({ "Content-Type": "application/xml", "x-amz-request-id": requestId() });

export const xmlDocument = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;

/** A refusal as S3 words it: its status, its code and message, and the fields it adds. */
export type S3Failure = { status: number; code: string; message: string; fields?: Record<string, string> };

const failure = (status: number, code: string, message: string, fields?: Record<string, string>): S3Failure => ({
  status,
  code,
  message,
  fields,
});

const SHA256_MISMATCH = "The provided 'x-amz-content-sha256' header does not match what was computed.";

export const s3Failure = {
  accessDenied: () => failure(403, "AccessDenied", "Access Denied"),
  invalidAccessKeyId: (accessKeyId: string) =>
    failure(403, "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records.", {
      AWSAccessKeyId: accessKeyId,
    }),
  signatureDoesNotMatch: () =>
    failure(
      403,
      "SignatureDoesNotMatch",
      "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
    ),
  wrongRegion: (region: string, expected: string) =>
    failure(
      400,
      "AuthorizationHeaderMalformed",
      `The authorization header is malformed; the region '${region}' is wrong; expecting '${expected}'`,
      { Region: expected },
    ),
  missingContentSha256: () =>
    failure(400, "InvalidRequest", "Missing required header for this request: x-amz-content-sha256"),
  badContentSha256: () =>
    failure(
      400,
      "InvalidArgument",
      "x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-UNSIGNED-PAYLOAD-TRAILER, STREAMING-AWS4-HMAC-SHA256-PAYLOAD, STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER, or a valid sha256 value.",
    ),
  contentSha256Mismatch: () => failure(400, "XAmzContentSHA256Mismatch", SHA256_MISMATCH),
  notImplemented: () =>
    failure(501, "NotImplemented", "A header you provided implies functionality that is not implemented."),
  missingContentLength: () => failure(411, "MissingContentLength", "You must provide the Content-Length HTTP header."),
  noSuchBucket: (bucket: string) =>
    failure(404, "NoSuchBucket", "The specified bucket does not exist", { BucketName: bucket }),
  noSuchKey: (key: string) => failure(404, "NoSuchKey", "The specified key does not exist.", { Key: key }),
  noSuchUpload: (uploadId: string) =>
    failure(
      404,
      "NoSuchUpload",
      "The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.",
      { UploadId: uploadId },
    ),
  methodNotAllowed: () =>
    failure(405, "MethodNotAllowed", "The specified method is not allowed against this resource."),
  invalidPartNumber: () =>
    failure(400, "InvalidArgument", "Part number must be an integer between 1 and 10000, inclusive"),
  malformedXml: () =>
    failure(
      400,
      "MalformedXML",
      "The XML you provided was not well-formed or did not validate against our published schema.",
    ),
  invalidPartOrder: () =>
    failure(
      400,
      "InvalidPartOrder",
      "The list of parts was not in ascending order. Parts must be ordered by part number.",
    ),
  invalidPart: () => failure(400, "InvalidPart", "One or more of the specified parts could not be found."),
  entityTooSmall: () =>
    failure(400, "EntityTooSmall", "Your proposed upload is smaller than the minimum allowed object size."),
  serviceUnavailable: () => failure(503, "ServiceUnavailable", "Service is unable to handle request."),
  slowDown: () => failure(503, "SlowDown", "Please reduce your request rate."),
  internalError: () => failure(500, "InternalError", "We encountered an internal error. Please try again."),
};

/** S3's error document. */
export function errorDocument({ code, message, fields = {} }: S3Failure): string {
  const extra = Object.entries(fields)
    .map(([name, value]) => `<${name}>${escapeXml(value)}</${name}>`)
    .join("");
  return xmlDocument(
    `<Error><Code>${code}</Code><Message>${escapeXml(message)}</Message>${extra}<RequestId>${requestId()}</RequestId></Error>`,
  );
}

/** The bucket and key a request names: the bucket in the host name (virtual-hosted style), or as the path's first part. */
export function addressOf(host: string, path: string, endpointHost: string) {
  const hosted = host !== endpointHost && host.endsWith(`.${endpointHost}`);
  const bucket = hosted ? host.slice(0, -endpointHost.length - 1) : path.split("/")[1] || null;
  const rawKey = hosted ? path.slice(1) : path.split("/").slice(2).join("/");
  return { bucket, key: rawKey ? decodeURIComponent(rawKey) : null };
}

export type S3Operation =
  | "ListObjectsV2"
  | "CreateMultipartUpload"
  | "UploadPart"
  | "CompleteMultipartUpload"
  | "AbortMultipartUpload"
  | "PutObject"
  | "GetObject"
  | "HeadObject"
  | "DeleteObject";

/** Which of S3's operations a request is; undefined for one neither test S3 answers. */
export function operationOf(method: string, key: string | null, query: URLSearchParams): S3Operation | undefined {
  if (!key) return method === "GET" && query.get("list-type") === "2" ? "ListObjectsV2" : undefined;
  if (method === "POST" && query.has("uploads")) return "CreateMultipartUpload";
  if (query.has("uploadId")) {
    if (method === "PUT" && query.has("partNumber")) return "UploadPart";
    if (method === "POST") return "CompleteMultipartUpload";
    if (method === "DELETE") return "AbortMultipartUpload";
    return undefined;
  }
  const plain: Record<string, S3Operation> = {
    PUT: "PutObject",
    GET: "GetObject",
    HEAD: "HeadObject",
    DELETE: "DeleteObject",
  };
  return plain[method];
}

/** What a signature v4 check reads of a request: its path as sent, its query and its headers. */
export type SignedRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  header(name: string): string | null;
};

export type SignatureCheck = {
  /** The access key id the request was signed with; null when it was not signed. */
  accessKeyId: string | null;
  /** The region of the signature's scope. */
  region: string | null;
  /** Whether the v4 signature is the one the secret key makes for this request. */
  valid: boolean;
};

/** RFC 3986 encoding, as signature v4 writes query names and values. */
const uriEncode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Checks a v4 signature as S3 does: the canonical request rebuilt from what was received, signed with the secret. */
export function checkSignature(
  request: SignedRequest,
  secretFor: (accessKeyId: string) => string | undefined,
): SignatureCheck {
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
      request.header("authorization") ?? "",
    );
  if (!match) return { accessKeyId: null, region: null, valid: false };
  const [, accessKeyId, day, region, signedHeaders, signature] = match as unknown as string[];
  const secret = secretFor(accessKeyId!);
  const amzDate = request.header("x-amz-date") ?? "";
  if (!secret || !amzDate.startsWith(day!)) return { accessKeyId: accessKeyId!, region: region!, valid: false };
  const canonicalQuery = [...request.query]
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
  const canonical = [
    request.method,
    request.path,
    canonicalQuery,
    ...signedHeaders!.split(";").map((name) => `${name}:${(request.header(name) ?? "").trim().replace(/\s+/g, " ")}`),
    "",
    signedHeaders,
    request.header("x-amz-content-sha256") ?? "",
  ].join("\n");
  const scope = `${day}/${region}/s3/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256Hex(canonical)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day!), region!), "s3"), "aws4_request");
  return { accessKeyId: accessKeyId!, region: region!, valid: hmac(key, toSign).toString("hex") === signature };
}

/**
 * Whom S3 turns away before reading a request's body, in its order: no signature, a key it does
 * not know, a signature scoped to another region (when the S3 has one), a signature the secret
 * does not make; then a missing or unreadable `x-amz-content-sha256`.
 */
export function refusalOfRequest(
  signature: SignatureCheck,
  contentSha256: string | null,
  account: { knows(accessKeyId: string): boolean; region?: string },
): S3Failure | undefined {
  if (!signature.accessKeyId) return s3Failure.accessDenied();
  if (!account.knows(signature.accessKeyId)) return s3Failure.invalidAccessKeyId(signature.accessKeyId);
  if (account.region && signature.region !== account.region)
    return s3Failure.wrongRegion(signature.region ?? "", account.region);
  if (!signature.valid) return s3Failure.signatureDoesNotMatch();
  if (!contentSha256) return s3Failure.missingContentSha256();
  // The adapter turns the SDK's aws-chunked bodies off (decision 063): one arriving means that
  // setting was lost, and storing its chunk framing as the file would hide it.
  if (contentSha256.startsWith("STREAMING-")) return s3Failure.notImplemented();
  if (contentSha256 !== "UNSIGNED-PAYLOAD" && !/^[0-9a-f]{64}$/.test(contentSha256))
    return s3Failure.badContentSha256();
  return undefined;
}

/** The body against the SHA-256 the request declared (and signed), once it is all read. */
export const refusalOfBody = (contentSha256: string | null, bodySha256: string): S3Failure | undefined =>
  contentSha256 !== "UNSIGNED-PAYLOAD" && contentSha256 !== bodySha256 ? s3Failure.contentSha256Mismatch() : undefined;

/** UploadPart's part number; undefined when S3 would refuse it. */
export function partNumberOf(query: URLSearchParams): number | undefined {
  const partNumber = Number(query.get("partNumber"));
  return Number.isInteger(partNumber) && partNumber >= 1 && partNumber <= 10_000 ? partNumber : undefined;
}

export const newUploadId = () => randomBytes(24).toString("base64url");

export const initiateUploadResult = (bucket: string, key: string, uploadId: string) =>
  xmlDocument(
    `<InitiateMultipartUploadResult xmlns="${XMLNS}"><Bucket>${escapeXml(bucket)}</Bucket><Key>${escapeXml(key)}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`,
  );

export type ListedPart = { number: number; etag: string };

/** The parts a CompleteMultipartUpload body lists, in its order; undefined when S3 would not read it. */
export function partsToComplete(body: string): ListedPart[] | undefined {
  const listed = [...body.matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map(([, part]) => ({
    etag: (/<ETag>([\s\S]*?)<\/ETag>/.exec(part!)?.[1] ?? "").replaceAll("&quot;", '"'),
    number: Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(part!)?.[1]),
  }));
  return body.includes("<CompleteMultipartUpload") && listed.length > 0 ? listed : undefined;
}

/** Whether the listed parts make an object as S3 judges them: in order, each one received, none but the last under 5 MiB. */
export function refusalOfParts(
  listed: ListedPart[],
  held: (partNumber: number) => { etag: string; bytes: number } | undefined,
): S3Failure | undefined {
  for (const [i, part] of listed.entries()) {
    if (i > 0 && part.number <= listed[i - 1]!.number) return s3Failure.invalidPartOrder();
    const received = held(part.number);
    if (!received || received.etag !== part.etag) return s3Failure.invalidPart();
    if (i < listed.length - 1 && received.bytes < MIN_PART_BYTES) return s3Failure.entityTooSmall();
  }
  return undefined;
}

/** A multipart object's ETag: the MD5 of its parts' MD5s, and how many parts there were. */
export const multipartEtag = (partEtags: string[]) =>
  `"${md5Hex(Buffer.concat(partEtags.map((etag) => Buffer.from(etag.slice(1, -1), "hex"))))}-${partEtags.length}"`;

export const completeUploadResult = (location: string, bucket: string, key: string, etag: string) =>
  xmlDocument(
    `<CompleteMultipartUploadResult xmlns="${XMLNS}"><Location>${escapeXml(location)}</Location><Bucket>${escapeXml(bucket)}</Bucket><Key>${escapeXml(key)}</Key><ETag>${escapeXml(etag)}</ETag></CompleteMultipartUploadResult>`,
  );

/** An object as GetObject, HeadObject and a listing describe it. */
export type ObjectFacts = { key: string; bytes: number; etag: string; lastModified: Date; contentType: string };

export const objectHeaders = (object: ObjectFacts) => ({
  "Content-Length": String(object.bytes),
  "Content-Type": object.contentType,
  ETag: object.etag,
  "Last-Modified": object.lastModified.toUTCString(),
  "Accept-Ranges": "bytes",
});

/** One ListObjectsV2 page: the keys under `prefix` after the continuation token, at most max-keys (and `pageSize`) of them. */
export function listBucketResult(
  bucket: string,
  objects: Iterable<ObjectFacts>,
  query: URLSearchParams,
  pageSize: number,
): string {
  const prefix = query.get("prefix") ?? "";
  const maxKeys = Math.min(Number(query.get("max-keys") ?? pageSize), pageSize);
  const after = query.has("continuation-token")
    ? Buffer.from(query.get("continuation-token")!, "base64url").toString()
    : (query.get("start-after") ?? "");
  const encode = query.get("encoding-type") === "url";
  const found = [...objects].filter((o) => o.key.startsWith(prefix) && o.key > after);
  found.sort((a, b) => (a.key < b.key ? -1 : 1));
  const page = found.slice(0, maxKeys);
  const truncated = found.length > page.length;
  const shown = (text: string) => escapeXml(encode ? encodeURIComponent(text) : text);
  const contents = page
    .map(
      (o) =>
        `<Contents><Key>${shown(o.key)}</Key><LastModified>${o.lastModified.toISOString()}</LastModified><ETag>${escapeXml(o.etag)}</ETag><Size>${o.bytes}</Size><StorageClass>STANDARD</StorageClass></Contents>`,
    )
    .join("");
  return xmlDocument(
    `<ListBucketResult xmlns="${XMLNS}"><Name>${escapeXml(bucket)}</Name><Prefix>${shown(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys>${encode ? "<EncodingType>url</EncodingType>" : ""}<IsTruncated>${truncated}</IsTruncated>${contents}${
      query.has("continuation-token")
        ? `<ContinuationToken>${escapeXml(query.get("continuation-token")!)}</ContinuationToken>`
        : ""
    }${truncated ? `<NextContinuationToken>${Buffer.from(page.at(-1)!.key).toString("base64url")}</NextContinuationToken>` : ""}</ListBucketResult>`,
  );
}
