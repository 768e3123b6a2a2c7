#!/usr/bin/env bash
# Restarts the memberhall servers one at a time, so that nginx always has one to send requests
# to, and none is stopped while nginx may still send it one:
#
#   deploy/rolling-restart.sh 3001 3002
#
# For each server: mark it `down` in the nginx site and reload nginx (new connections go to
# the others; nginx's old workers finish what they had), wait DRAIN_SECONDS, restart it, wait
# for its /healthz to answer 200, then take it back in and reload again. A server stopped
# while nginx still chose it would refuse or reset connections nginx had just opened, and a
# POST caught that way is answered 502, since nginx never sends a POST twice.
#
# NGINX_SITE is the rendered site (default /etc/nginx/sites-available/memberhall);
# NGINX_RELOAD_CMD reloads nginx (default: systemctl reload nginx); RESTART_CMD restarts one
# server, its port appended (default: systemctl restart memberhall@); HEALTH_HOST is where the
# servers listen (default 127.0.0.1); HEALTH_TIMEOUT the seconds a server has to answer
# (default 60); DRAIN_SECONDS the wait after taking a server out (default 2).
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 PORT [PORT…]" >&2
  exit 64
fi
site="${NGINX_SITE:-/etc/nginx/sites-available/memberhall}"
reload_cmd="${NGINX_RELOAD_CMD:-systemctl reload nginx}"
restart_cmd="${RESTART_CMD:-systemctl restart memberhall@}"
health_host="${HEALTH_HOST:-127.0.0.1}"
health_timeout="${HEALTH_TIMEOUT:-60}"
drain_seconds="${DRAIN_SECONDS:-2}"

healthy() {
  [ "$(curl --silent --output /dev/null --max-time 2 --write-out '%{http_code}' "http://$health_host:$1/healthz")" = "200" ]
}

# Every upstream line of the server at host:port, in every upstream of the site.
upstream_line() {
  printf '^(\\s*server %s:%s\\s[^;]*)' "${health_host//./\\.}" "$1"
}

set_down() {
  local line
  line="$(upstream_line "$1")"
  sed -i --follow-symlinks -E "s/$line down;/\\1;/; s/$line;/\\1 down;/" "$site"
  eval "$reload_cmd"
}

set_up() {
  sed -i --follow-symlinks -E "s/$(upstream_line "$1") down;/\\1;/" "$site"
  eval "$reload_cmd"
}

for port in "$@"; do
  if ! grep -Eq "$(upstream_line "$port")" "$site"; then
    echo "$site has no server $health_host:$port: stopping here" >&2
    exit 1
  fi
  if ! healthy "$port"; then
    echo "memberhall on port $port is not healthy before its restart: stopping here" >&2
    exit 1
  fi
done

for port in "$@"; do
  echo "restarting memberhall on port $port"
  start=$SECONDS
  set_down "$port"
  sleep "$drain_seconds"
  eval "$restart_cmd$port"
  until healthy "$port"; do
    if [ $((SECONDS - start)) -ge "$health_timeout" ]; then
      echo "memberhall on port $port did not answer /healthz with 200 within ${health_timeout} s; it stays down in $site" >&2
      exit 1
    fi
    sleep 0.5
  done
  set_up "$port"
  echo "memberhall on port $port is serving again after $((SECONDS - start)) s"
done
