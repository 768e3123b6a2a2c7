/** The browser tests' Chromium: Debian's, without the services a test run has no use for. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];

/**
 * Chromium as members run it gives a third-party frame storage of its own, partitioned by
 * the top site. Playwright turns that partitioning off with its own --disable-features
 * list, and its fresh contexts then refuse the frame any storage (the client falls back to
 * memory). A later --disable-features replaces Playwright's list, so the browser is back to
 * Chromium's defaults for partitioned storage.
 */
export const PARTITIONED_STORAGE_ARGS = [...CHROMIUM_ARGS, "--disable-features=Translate"];
