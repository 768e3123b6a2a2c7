/**
 * Stripe's form encoding, read back as the API reads it: `items[0][price]=p` is
 * `{ items: [{ price: "p" }] }`, `expand[]=a` (or `expand[0]=a`) is `{ expand: ["a"] }`.
 * Every value stays a string, as on the wire.
 */

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type Form = { [key: string]: FormValue };

type Container = FormValue[] | { [key: string]: FormValue };

/** `a[b][0][]` → ["a", "b", "0", ""]. */
function segments(key: string): string[] {
  const first = key.indexOf("[");
  if (first < 0) return [key];
  const rest = [...key.slice(first).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1] ?? "");
  return [key.slice(0, first), ...rest];
}

const isIndex = (segment: string) => segment === "" || /^\d+$/.test(segment);

function slot(container: Container, segment: string): string | number {
  if (!Array.isArray(container)) return segment;
  return segment === "" ? container.length : Number(segment);
}

function child(container: Container, key: string | number, next: string): Container {
  const existing = (container as Record<string | number, FormValue | undefined>)[key];
  if (existing !== undefined && typeof existing !== "string") return existing;
  const made: Container = isIndex(next) ? [] : {};
  (container as Record<string | number, FormValue>)[key] = made;
  return made;
}

export function parseStripeForm(encoded: string | URLSearchParams): Form {
  const form: Form = {};
  const pairs = typeof encoded === "string" ? new URLSearchParams(encoded) : encoded;
  for (const [key, value] of pairs) {
    const path = segments(key);
    let container: Container = form;
    for (let i = 0; i < path.length - 1; i++) {
      container = child(container, slot(container, path[i]!), path[i + 1]!);
    }
    (container as Record<string | number, FormValue>)[slot(container, path[path.length - 1]!)] = value;
  }
  return form;
}

/** A form value read as one string, a map of strings, or a list. */
export const formText = (value: FormValue | undefined): string | undefined =>
  typeof value === "string" ? value : undefined;

export const formRecord = (value: FormValue | undefined): Record<string, string> =>
  value && typeof value === "object" && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string"))
    : {};

export const formList = (value: FormValue | undefined): FormValue[] =>
  Array.isArray(value) ? value : value && typeof value === "object" ? Object.values(value) : [];
