/**
 * The one way a service says no. Services return data or throw a DomainError; routes never
 * build error answers by hand: `app/lib/http.server.ts` maps each kind to one status, as a
 * page (the error boundary renders the message) or as JSON (`{ error, fieldErrors? }`).
 */

/** spec §8: no route matches, or a page's validation fails. */
export const NOT_FOUND_MESSAGE = "This page could not be found";
export const FORBIDDEN_MESSAGE = "You do not have access to this page";

export type FieldErrors = Partial<Record<string, string[]>>;

export type DomainErrorKind =
  "invalid" | "unauthorized" | "forbidden" | "not-found" | "conflict" | "too-many" | "unavailable";

/** One status per kind, on pages and in the API alike. */
export const STATUS_OF: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  "not-found": 404,
  conflict: 409,
  "too-many": 429,
  unavailable: 503,
};

/**
 * The server runs one copy of this module, but a class is a poor thing to recognise an error
 * by: the brand, shared through the global symbol registry, makes `instanceof DomainError`
 * true for an error made by any copy of it (a bundle of its own, a test's module graph).
 */
const BRAND = Symbol.for("memberhall.DomainError");

export class DomainError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  readonly [BRAND] = true;
  readonly kind: DomainErrorKind;
  readonly fieldErrors: FieldErrors | undefined;
  /** For "too-many": when the client may try again. */
  readonly retryAfterSeconds: number | undefined;
  /** Extra JSON members an API answer carries (e.g. `needsSetup`). */
  readonly extra: Record<string, unknown> | undefined;

  constructor(
    kind: DomainErrorKind,
    message: string,
    options: { fieldErrors?: FieldErrors; retryAfterSeconds?: number; extra?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = "DomainError";
    this.kind = kind;
    this.fieldErrors = options.fieldErrors;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.extra = options.extra;
  }

  get status(): number {
    return STATUS_OF[this.kind];
  }
}

export const notFound = (message: string = NOT_FOUND_MESSAGE) => new DomainError("not-found", message);
export const forbidden = (message: string = FORBIDDEN_MESSAGE) => new DomainError("forbidden", message);
export const invalid = (message: string, fieldErrors?: FieldErrors) =>
  new DomainError("invalid", message, { fieldErrors });
export const conflict = (message: string, fieldErrors?: FieldErrors) =>
  new DomainError("conflict", message, { fieldErrors });
export const unauthorized = (message: string) => new DomainError("unauthorized", message);
export const tooMany = (message: string, retryAfterSeconds: number) =>
  new DomainError("too-many", message, { retryAfterSeconds });
export const unavailable = (message: string) => new DomainError("unavailable", message);

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

/** Throws a not-found (or the given) error when the value is missing: `invariant(row)`. */
export function invariant<T>(
  value: T | null | undefined | false,
  error: () => DomainError = () => notFound(),
): asserts value {
  if (value === null || value === undefined || value === false) throw error();
}
