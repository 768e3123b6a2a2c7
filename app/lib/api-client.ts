import { apiFetch } from "./state-client";

/**
 * The one client for this site's `/api/*` calls from the browser, with spec §7's conventions:
 * - JSON bodies; GET parameters in the query string.
 * - Every request is signed with the state headers and every answer's state kept (apiFetch).
 * - A 404 without a state header is ignored: it is no answer of ours about the member.
 * - A response with an error field is kept as the data's error.
 */

export type ApiResult<T> = {
  /** The answer's data; null when it was ignored or was no JSON object. */
  data: T | null;
  /** The answer's `error` field, or what went wrong reading it. */
  error: string | null;
  status: number;
  /** A 404 that carried no state header (spec §7): nothing to act on. */
  ignored: boolean;
};

export type ApiRequest = {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  /** GET parameters; undefined values are left out. */
  query?: Record<string, string | number | undefined>;
  /** A value sent as the JSON body. */
  body?: unknown;
  /** A body sent as it is (spec §5: "A request may not carry both an object and a raw body"). */
  raw?: string;
  headers?: Record<string, string>;
};

export const BOTH_BODIES_MESSAGE = "A request may not carry both an object and a raw body";

/** The path with its query string. */
export function apiPath(path: string, query: ApiRequest["query"] = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const search = params.toString();
  return search ? `${path}${path.includes("?") ? "&" : "?"}${search}` : path;
}

/** The fetch options of a request: JSON for an object body, as-is for a raw one. */
export function apiInit(request: ApiRequest): RequestInit {
  if (request.body !== undefined && request.raw !== undefined) throw new Error(BOTH_BODIES_MESSAGE);
  const headers: Record<string, string> = { ...request.headers };
  let body: string | undefined;
  if (request.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(request.body);
  } else if (request.raw !== undefined) {
    body = request.raw;
  }
  return { method: request.method ?? "GET", headers, body };
}

/** Reads an answer by the conventions above. */
export async function readApiResponse<T>(response: Response): Promise<ApiResult<T>> {
  if (response.status === 404 && !response.headers.get("state")) {
    // Not awaited: the body is of no use, and a stream that never settles must not hold the call.
    void response.body?.cancel().catch(() => undefined);
    return { data: null, error: null, status: 404, ignored: true };
  }
  let parsed: unknown = null;
  try {
    parsed = await response.json();
  } catch {
    const error = response.ok ? "The answer could not be read" : `The request failed (${response.status})`;
    return { data: null, error, status: response.status, ignored: false };
  }
  const object = parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : null;
  const fieldError = object && typeof object.error === "string" && object.error ? object.error : null;
  const error = fieldError ?? (response.ok ? null : `The request failed (${response.status})`);
  return { data: object as T | null, error, status: response.status, ignored: false };
}

/** Calls `/api/*` with the conventions above: `const { data, error } = await api<T>("/api/…")`. */
export async function api<T>(path: string, request: ApiRequest = {}): Promise<ApiResult<T>> {
  return readApiResponse<T>(await apiFetch(apiPath(path, request.query), apiInit(request)));
}
