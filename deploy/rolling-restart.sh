#!/usr/bin/env bash
# Restarts the memberhall servers one at a time, each only once the one before answers
# /healthz with 200 again, so nginx always has a server to send requests to.
#
#   deploy/rolling-restart.sh 3001 3002
#
# nginx leaves a server it could not reach out of rotation for its fail_timeout (5 s, set by
# deploy/render-nginx.mjs); a server back on /healthz is taken in again only after that. So
# before the next restart the script waits SETTLE_SECONDS (default 6), longer than that:
# restarted at once, the next server would leave nginx none to send requests to.
#
# RESTART_CMD restarts one server, its port appended (default: systemctl restart memberhall@);
# HEALTH_HOST is where the servers listen (default 127.0.0.1); HEALTH_TIMEOUT the seconds a
# server has to answer (default 60).
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 PORT [PORT…]" >&2
  exit 64
fi
restart_cmd="${RESTART_CMD:-systemctl restart memberhall@}"
health_host="${HEALTH_HOST:-127.0.0.1}"
health_timeout="${HEALTH_TIMEOUT:-60}"
settle_seconds="${SETTLE_SECONDS:-6}"

healthy() {
  [ "$(curl --silent --output /dev/null --max-time 2 --write-out '%{http_code}' "http://$health_host:$1/healthz")" = "200" ]
}

for port in "$@"; do
  if ! healthy "$port"; then
    echo "memberhall on port $port is not healthy before its restart: stopping here" >&2
    exit 1
  fi
done

first=1
for port in "$@"; do
  if [ -z "$first" ]; then sleep "$settle_seconds"; fi
  first=""
  echo "restarting memberhall on port $port"
  start=$SECONDS
  eval "$restart_cmd$port"
  until healthy "$port"; do
    if [ $((SECONDS - start)) -ge "$health_timeout" ]; then
      echo "memberhall on port $port did not answer /healthz with 200 within ${health_timeout} s: stopping here" >&2
      exit 1
    fi
    sleep 0.5
  done
  echo "memberhall on port $port is serving again after $((SECONDS - start)) s"
done
