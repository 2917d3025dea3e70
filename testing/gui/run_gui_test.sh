#!/usr/bin/env bash
# Starts the ParaView GUI under Xvfb with the plugin on PV_PLUGIN_PATH, runs gui_test.py in it,
# keeps a screenshot of the whole window as a test artifact, and passes if the script says OK.
# Usage: run_gui_test.sh PLUGIN_DIR GUI_SCRIPT ARTIFACT_DIR
set -u
plugin_dir=$1 script=$2 artifacts=$3
mkdir -p "$artifacts"
export PV_PLUGIN_PATH="$plugin_dir"
export SWE_GUI_STATUS="$artifacts/gui_status.txt"
export SWE_GUI_SCREENSHOT="$artifacts/gui_window.png"
export SWE_MONITOR_LOG="$artifacts/monitor.log"
rm -f "$SWE_GUI_STATUS" "$SWE_GUI_SCREENSHOT" "$SWE_MONITOR_LOG"

# (the screen's size: SWE_GUI_WIDTH x SWE_GUI_HEIGHT, 1440 x 960 unless set)
export SWE_GUI_WIDTH=${SWE_GUI_WIDTH:-1440} SWE_GUI_HEIGHT=${SWE_GUI_HEIGHT:-960}
xvfb-run -a -n 300 -s "-screen 0 ${SWE_GUI_WIDTH}x${SWE_GUI_HEIGHT}x24" bash -c '
  paraview --dr --script="$0" > "$1/gui_paraview.log" 2>&1 &
  pid=$!
  for i in $(seq 1 480); do
    [ -f "$SWE_GUI_STATUS" ] && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.5
  done
  # Xvfb has no window manager: the window keeps its first size unless told (xdotool, if there)
  if command -v xdotool > /dev/null; then
    for w in $(xdotool search --onlyvisible --name "ParaView" 2>/dev/null); do
      xdotool windowmove "$w" 0 0 windowsize "$w" "$SWE_GUI_WIDTH" "$SWE_GUI_HEIGHT"
    done
    sleep 1
    # and the docks stay narrow: drag their edge (x = 296) to the right, so that the Properties
    # panel shows its labels on one line
    xdotool mousemove 296 600 sleep 0.3 mousedown 1 sleep 0.3 mousemove 350 600 sleep 0.3 \
      mousemove 480 600 sleep 0.3 mousemove 600 600 sleep 0.3 mouseup 1
    # and give the Properties panel most of the height (the edge above it is at y = 419)
    xdotool mousemove 280 419 sleep 0.3 mousedown 1 sleep 0.3 mousemove 280 380 sleep 0.3 \
      mousemove 280 300 sleep 0.3 mousemove 280 260 sleep 0.3 mouseup 1
    xdotool mousemove 1000 900
  fi
  sleep 3 # let the window finish painting
  import -window root "$SWE_GUI_SCREENSHOT"
  kill $pid 2>/dev/null; wait $pid 2>/dev/null
  exit 0' "$script" "$artifacts"

if [ ! -f "$SWE_GUI_STATUS" ]; then
  echo "FAIL: the GUI never reported (log: $artifacts/gui_paraview.log)"
  tail -20 "$artifacts/gui_paraview.log"
  exit 1
fi
cat "$SWE_GUI_STATUS"
[ -f "$SWE_GUI_SCREENSHOT" ] && echo "screenshot: $SWE_GUI_SCREENSHOT"
if grep -q '^OK' "$SWE_GUI_STATUS" && [ -f "$SWE_GUI_SCREENSHOT" ]; then
  echo PASS
else
  echo FAIL
  exit 1
fi
