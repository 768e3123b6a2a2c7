import type { ListQuery } from "./listing";

/** The query string of a list's view: its filters and sort, without a page position. */
export function listSearch(query: Pick<ListQuery, "sort" | "dir" | "filters">, extra: Record<string, string> = {}) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query.filters)) {
    if (typeof value === "string") params.set(key, value);
    else {
      if (value.from) params.set(`${key}_from`, value.from);
      if (value.to) params.set(`${key}_to`, value.to);
    }
  }
  params.set("sort", query.sort);
  params.set("dir", query.dir);
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  return params.toString();
}
