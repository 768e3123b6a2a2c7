import { DomainError } from "~/domain/errors";

export const UNAVAILABLE_MESSAGE = "The service is briefly unavailable. Please try again in a minute.";
export const UNAVAILABLE_RETRY_SECONDS = 30;

// node-postgres and the socket below it: the server refused, went away or was shut down.
const CONNECTION_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE"]);
// PostgreSQL's own: admin, crash or cannot-connect shutdowns, and connection failures (class 08).
const SERVER_CODES = /^(57P0[1-3]|08\d{3})$/;
const MESSAGES = [
  /connection terminated/i,
  /terminating connection/i,
  /connection (?:is )?closed/i,
  /timeout exceeded when trying to connect/i,
  /PGlite is closed/i,
  /database (?:is )?closed/i,
];

/** Whether an error says the database cannot be reached, rather than that a query is wrong. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 4) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (CONNECTION_CODES.has(code) || SERVER_CODES.test(code))) return true;
  if (MESSAGES.some((pattern) => pattern.test(error.message))) return true;
  // Drizzle wraps the driver's error; an AggregateError holds one per address tried.
  if (error instanceof AggregateError && error.errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return isDatabaseUnavailable(error.cause, depth + 1);
}

export const databaseUnavailable = () =>
  new DomainError("unavailable", UNAVAILABLE_MESSAGE, { retryAfterSeconds: UNAVAILABLE_RETRY_SECONDS });

// Marks on a request's load context, shared by the server and the app's bundle by name.
const SEEN = Symbol.for("memberhall.databaseUnavailable.seen");
const RENDER = Symbol.for("memberhall.databaseUnavailable.render");
type Marks = Record<symbol, boolean | undefined>;

/** Notes on the request's context that its failure was the database's, for the server to answer 503. */
export function noteDatabaseUnavailable(context: object, error: unknown) {
  if (isDatabaseUnavailable(error)) (context as Marks)[SEEN] = true;
}

export const sawDatabaseUnavailable = (context: object) => (context as Marks)[SEEN] === true;

/** Asks the root loader to answer the unavailable page at once, without touching the database. */
export function renderUnavailable<T extends object>(context: T): T {
  (context as Marks)[RENDER] = true;
  return context;
}

export const rendersUnavailable = (context: object) => (context as Marks)[RENDER] === true;
