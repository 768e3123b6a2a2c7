#!/usr/bin/env bash
# The deploy test's RESTART_CMD for deploy/rolling-restart.sh: what `systemctl restart
# memberhall@PORT` does to a unit, done to a server of tests/deploy/supervisor.ts. SIGTERM,
# then wait until the process has drained and ended (as systemd waits, up to its
# TimeoutStopSec); the supervisor starts it again.
set -euo pipefail
pid_dir="$1"
port="$2"
pid="$(cat "$pid_dir/$port.pid")"
kill -TERM "$pid"
for _ in $(seq 1 300); do
  kill -0 "$pid" 2>/dev/null || exit 0
  sleep 0.1
done
echo "the server on port $port did not stop within 30 s" >&2
exit 1
