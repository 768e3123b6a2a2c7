#!/usr/bin/env bash
# npm test: lint, typecheck, unit and integration tests, build, server tests, browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium_path" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing Debian's Chromium for the browser tests"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "The browser tests need Chromium at $chromium_path." >&2
    echo "Install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary." >&2
    exit 1
  fi
fi

mkdir -p .cache
rm -f .cache/vitest.json .cache/playwright.json

echo "== lint"
npx eslint --max-warnings=0 .
echo "== typecheck"
npx tsc --noEmit
echo "== build"
node scripts/build.mjs
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "== unit, integration (PGlite and PostgreSQL) and server tests"
else
  echo "== unit, integration (PGlite; set TEST_DATABASE_URL to add PostgreSQL) and server tests"
fi
status=0
npx vitest run --project unit --project integration --project server \
  --reporter=default --reporter=json --outputFile.json=.cache/vitest.json || status=$?
echo "== browser tests (Chromium)"
npx playwright test || status=$?
node scripts/test-summary.mjs || status=$?
exit "$status"
