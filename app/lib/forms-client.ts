import { api, apiInit, apiPath, readApiResponse, type ApiRequest, type ApiResult } from "./api-client";

/**
 * The browser's client of the second forms service (spec §7), one interface over config's
 * formsUrl: the built-in service on this site (called like every /api/* call, with the state
 * headers), or an outside service at another address (plain JSON calls: the state headers are
 * this site's own and never leave it).
 */

export type FormEntryJson = {
  id: string;
  form: number;
  number: number;
  data: Record<string, unknown>;
  created_at: string;
  updated_at: string;
};

export type FormsService = {
  list(form?: number): Promise<ApiResult<{ list: FormEntryJson[] }>>;
  get(id: string): Promise<ApiResult<{ entry: FormEntryJson }>>;
  create(form: number, data: Record<string, unknown>): Promise<ApiResult<{ entry: FormEntryJson | null }>>;
  update(id: string, data: Record<string, unknown>): Promise<ApiResult<{ entry: FormEntryJson }>>;
  remove(id: string): Promise<ApiResult<{ deleted: true }>>;
};

type Call = <T>(path: string, request?: ApiRequest) => Promise<ApiResult<T>>;

function service(base: string, call: Call): FormsService {
  const entries = `${base.replace(/\/+$/, "")}/entries`;
  const one = (id: string) => `${entries}/${encodeURIComponent(id)}`;
  return {
    list: (form) => call(entries, { query: { form } }),
    get: (id) => call(one(id)),
    create: (form, data) => call(entries, { method: "POST", body: { form, data } }),
    update: (id, data) => call(one(id), { method: "PUT", body: { data } }),
    remove: (id) => call(one(id), { method: "DELETE" }),
  };
}

/** An outside forms service: the same calls, as plain JSON requests to its address. */
export function remoteFormsService(baseUrl: string, fetcher: typeof fetch = (...args) => fetch(...args)): FormsService {
  return service(baseUrl, (path, request = {}) =>
    fetcher(apiPath(path, request.query), apiInit(request)).then((response) => readApiResponse(response)),
  );
}

/** The service at config's formsUrl: this site's own through the /api client, else an outside one. */
export function formsService(formsUrl: string, origin: string): FormsService {
  const url = new URL(formsUrl, origin);
  return url.origin === origin ? service(url.pathname, api) : remoteFormsService(url.href);
}
