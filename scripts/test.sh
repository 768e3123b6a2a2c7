#!/usr/bin/env bash
# npm test: lint, typecheck, unit and integration tests, build, server tests, browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

# A Debian package the tests need: installed when we are root with apt-get, else what to
# install is said and the run stops. $1: the package, $2: what it is for, the rest: what to say.
install_or_explain() {
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing Debian's $1 $2"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >/dev/null
  else
    printf '%s\n' "${@:3}" >&2
    exit 1
  fi
}

chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium_path" ]; then
  install_or_explain chromium "for the browser tests" \
    "The browser tests need Chromium at $chromium_path." \
    "Install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary."
fi
if ! command -v promtool >/dev/null 2>&1; then
  install_or_explain prometheus "for promtool, which checks /metrics" \
    "The server tests check /metrics with promtool." \
    "Install it (Debian/Ubuntu: sudo apt-get install prometheus) or put a promtool binary on the PATH."
fi

mkdir -p .cache
rm -f .cache/vitest*.json .cache/playwright.json

# Lint, typecheck and build at once, each into a log of its own: each is mostly one core's work.
echo "== lint, typecheck and build ($(date -u +%T))"
steps=(lint typecheck build)
pids=()
for step in "${steps[@]}"; do
  case "$step" in
    lint) cmd=(npx eslint --max-warnings=0 .) ;;
    typecheck) cmd=(npx tsc --noEmit) ;;
    build) cmd=(node scripts/build.mjs) ;;
  esac
  ("${cmd[@]}" >".cache/$step.log" 2>&1) &
  pids+=("$!")
done
failed=0
for i in "${!steps[@]}"; do
  step=${steps[$i]}
  if wait "${pids[$i]}"; then
    echo "   $step: passed"
  else
    echo "   $step: FAILED"
    cat ".cache/$step.log"
    failed=1
  fi
done
[ "$failed" = 0 ] || exit 1
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  databases="PGlite and PostgreSQL"
else
  databases="PGlite; set TEST_DATABASE_URL to add PostgreSQL"
fi
status=0
# The server tests start servers of their own. They run in two processes of one thread each,
# half the files each, beside the unit and integration tests: after them, one at a time, they
# left a core idle for minutes. Those that time how long a request waits on the event loop run
# on their own afterwards, as the machine's load is what they would measure beside the others.
alone=(tests/server/long-work.test.ts)
echo "== server tests in two halves, beside the unit and integration tests ($(date -u +%T)): their output follows"
server_tests=()
for half in 1 2; do
  npx vitest run --project server --shard="$half/2" --exclude "${alone[@]}" \
    --reporter=default --reporter=json --outputFile.json=".cache/vitest-server-$half.json" \
    >".cache/server-tests-$half.log" 2>&1 &
  server_tests+=("$!")
done
trap 'kill "${server_tests[@]}" 2>/dev/null || true' EXIT
echo "== unit and integration tests ($databases) ($(date -u +%T))"
npx vitest run --project unit --project integration \
  --reporter=default --reporter=json --outputFile.json=.cache/vitest.json || status=$?
for pid in "${server_tests[@]}"; do wait "$pid" || status=$?; done
for half in 1 2; do
  echo "== server tests, half $half"
  cat ".cache/server-tests-$half.log"
done
echo "== server tests that time the event loop, alone ($(date -u +%T))"
npx vitest run --project server "${alone[@]}" \
  --reporter=default --reporter=json --outputFile.json=.cache/vitest-alone.json || status=$?
echo "== browser tests (Chromium) ($(date -u +%T))"
npx playwright test || status=$?
node scripts/test-summary.mjs || status=$?
exit "$status"
