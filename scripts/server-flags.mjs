/**
 * The Node flags the server runs with, wherever it is started from this project (`npm start`,
 * `npm run serve`, the bench, the tests of the built server). V8 reads them only when the
 * process starts, so they cannot be set from inside the server as its heap growth is.
 *
 * A young generation of 2 × 32 MB instead of V8's 2 × 16 MB: under load a page's objects
 * (its request, its data, its render) live for the few milliseconds the answer takes, and
 * with 50 requests under way 16 MB filled before they were done, so they survived into the
 * old generation and a full collection ran every second. About 30 MB more memory, 5–15 % more
 * pages a second (docs/decisions/040-young-generation.md).
 */
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=32"];
