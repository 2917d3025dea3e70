#!/usr/bin/env bash
# The Shallow Water Monitor through ParaView's XML test playback (monitor_test.xml, after
# monitor_setup.py), with ParaView running the pipeline itself (builtin) or on a pvserver on a
# free localhost port (server): the monitor reads only what the client holds, so it must show
# the same. Run under a display (with_display.sh). The plugin comes from PV_PLUGIN_PATH.
# Usage: run_monitor_test.sh builtin|server
set -u
mode=$1
here=$(cd "$(dirname "$0")" && pwd)
connect=()
if [ "$mode" = server ]; then
  log=$(mktemp)
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("localhost", 0)); print(s.getsockname()[1])')
  timeout 240 pvserver --server-port="$port" > "$log" 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null; rm -f "$log"' EXIT
  for _ in $(seq 1 120); do
    grep -q "Accepting connection" "$log" && break
    kill -0 $server 2>/dev/null || { cat "$log"; exit 1; }
    sleep 0.5
  done
  connect=(--server-url="cs://localhost:$port")
fi
paraview --dr "${connect[@]}" --script="$here/monitor_setup.py" \
  --test-script="$here/monitor_test.xml" --exit
