#!/usr/bin/env bash
# npm run test:deploy: the production recipe in deploy/ run for real on this machine: nginx
# in front of two built servers and a PostgreSQL of its own, whose backup goes to an S3
# stand-in and is restored onto a new PostgreSQL. Needs `npm run build` first.
set -euo pipefail
cd "$(dirname "$0")/.."

nginx_path="$(command -v nginx || true)"
if [ -z "$nginx_path" ] && [ -x /usr/sbin/nginx ]; then nginx_path=/usr/sbin/nginx; fi
if [ -z "$nginx_path" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing Debian's nginx for the deploy test (its own service is left stopped)"
    apt-get update -qq
    # policy-rc.d answering 101 keeps the package's scripts from starting the default site.
    policy=/usr/sbin/policy-rc.d
    made_policy=""
    if [ ! -e "$policy" ]; then
      printf '#!/bin/sh\nexit 101\n' >"$policy"
      chmod +x "$policy"
      made_policy=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null || status=$?
    if [ -n "$made_policy" ]; then rm -f "$policy"; fi
    if [ "${status:-0}" != 0 ]; then exit "$status"; fi
    nginx_path=/usr/sbin/nginx
  else
    echo "The deploy test needs nginx (Debian/Ubuntu: sudo apt-get install nginx) and openssl." >&2
    exit 1
  fi
fi
for tool in openssl pg_ctl initdb pg_dump pg_restore; do
  if ! command -v "$tool" >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/"$tool" >/dev/null 2>&1; then
    echo "The deploy test needs $tool (Debian/Ubuntu: sudo apt-get install openssl postgresql)." >&2
    exit 1
  fi
done

NGINX_BIN="$nginx_path" exec npx vitest run --project deploy "$@"
