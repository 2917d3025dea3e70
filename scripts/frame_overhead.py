"""How much of each frame the plugin spends outside the engine's stepping, in pvbatch.

Runs the thesis dam break as the "Shallow Water" source on an N x N grid with an output every
~100 steps, asks the pipeline for each output time in turn (as Play does), and reads the field
data the plugin attaches to each frame: StepSeconds (stepping), CheckpointSeconds and
OutputSeconds (download and VTK arrays). The frame's wall time is measured around UpdatePipeline,
so the pipeline's own overhead counts as outside the stepping too. After each frame it also asks
for the output's data information, as the GUI does after every time step (the Information panel,
colour-map ranges): the "info s" column, and "outside with info" counts it in the frame.

Usage: pvbatch scripts/frame_overhead.py PLUGIN_LIBRARY [N] [FRAMES] [STEPS_PER_FRAME] [PRECISION]
       [ARRAYS]   (the source's Output Arrays, comma-separated, e.g. Depth,Velocity; default all)"""
import sys
import time

from paraview.simple import *

plugin = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 4096
frames = int(sys.argv[3]) if len(sys.argv) > 3 else 5
steps_per_frame = int(sys.argv[4]) if len(sys.argv) > 4 else 100
precision = sys.argv[5] if len(sys.argv) > 5 else "Single"
arrays = sys.argv[6].split(",") if len(sys.argv) > 6 else None
LoadPlugin(plugin, remote=False, ns=globals())


def say(text):
    sys.__stdout__.write(text + "\n")
    sys.__stdout__.flush()


def field(data, name):
    return data.GetFieldData().GetArray(name).GetValue(0)


src = ShallowWater(Scenario="Dam break (thesis)", Resolution=[n, n], CellSize=0.5,
                   EndTime=200.0, OutputInterval=0.3, Device="auto", Precision=precision)
if arrays:
    src.OutputArrays = arrays
# A first short frame tells dt; then outputs every steps_per_frame steps.
src.UpdatePipeline(0.3)
first = src.GetClientSideObject().GetOutputDataObject(0)
dt = 0.3 / field(first, "Steps")
interval = steps_per_frame * dt
src.OutputInterval = interval
device = first.GetFieldData().GetAbstractArray("Device").GetValue(0)
say("frame overhead: %d x %d, %s, output every %.4g s (~%d steps), device %s, arrays %s"
    % (n, n, precision, interval, steps_per_frame, device, ",".join(src.OutputArrays)))
say("| frame | steps | wall s | stepping s | checkpoint s | output s | outside stepping | info s "
    "| outside with info |")
say("|---|---|---|---|---|---|---|---|---|")
fractions = []
with_info = []
steps_before = int(field(first, "Steps"))
for k in range(1, frames + 1):
    start = time.perf_counter()
    src.UpdatePipeline(k * interval)
    wall = time.perf_counter() - start
    data = src.GetClientSideObject().GetOutputDataObject(0)
    steps = int(field(data, "Steps"))
    stepping = field(data, "StepSeconds")
    start = time.perf_counter()
    src.GetDataInformation().GetNumberOfPoints()  # gathers it: every array's ranges
    info = time.perf_counter() - start
    outside = 1.0 - stepping / wall
    fractions.append(outside)
    with_info.append(1.0 - stepping / (wall + info))
    say("| %d | %d | %.3f | %.3f | %.3f | %.3f | %.1f %% | %.3f | %.1f %% |"
        % (k, steps - steps_before, wall, stepping, field(data, "CheckpointSeconds"),
           field(data, "OutputSeconds"), 100 * outside, info, 100 * with_info[-1]))
    steps_before = steps
fractions.sort()
with_info.sort()
say("RESULT median_outside_stepping=%.4f median_outside_with_info=%.4f"
    % (fractions[len(fractions) // 2], with_info[len(with_info) // 2]))
