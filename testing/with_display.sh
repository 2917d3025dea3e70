#!/usr/bin/env bash
# Runs a command under its own Xvfb display. xvfb-run -a can hand out a display whose server is
# not ready (or is still shutting down) when several start close together; then the command
# fails with "bad X server connection" before doing anything; a retry on another display, after
# a moment, settles it (once, in CI, the first retry failed too: three attempts).
# Usage: with_display.sh BASE_DISPLAY_NUMBER COMMAND...
set -u
base=$1
shift
log=$(mktemp)
status=0
for attempt in 1 2 3; do
  xvfb-run -a -n $((base + 10 * attempt)) -s "-screen 0 1280x1024x24" "$@" >"$log" 2>&1
  status=$?
  if [ $attempt -lt 3 ] && grep -q "bad X server connection" "$log"; then
    echo "with_display.sh: the X server was not usable; retrying on another display" >&2
    sleep 2
    continue
  fi
  break
done
cat "$log"
rm -f "$log"
exit $status
