"""pvpython: an update aborted from a progress observer, and a .pvd series written after the
simulation blew up, both end (with the right frame or one clear error) instead of hanging or
handing back a stale frame."""
import os
import subprocess
import sys

import numpy as np
from paraview.simple import *

from swe_testing import CapturedErrors, cell_array, check, fetch, field_value, load_plugin, say

load_plugin(globals())
out = os.path.join(os.environ.get("SWE_TEST_OUTPUT", "."), "interrupts")
os.makedirs(out, exist_ok=True)

# 1. An observer aborts the update a fifth of the way to t = 10 s. That update hands back the
#    state where the run stopped, at its own time, and says so; the next one (observer gone) runs
#    on to t = 10 s, the same frame as a run never aborted.
GRID = dict(Resolution=[200, 200], CellSize=1.0, EndTime=10.0, OutputInterval=5.0,
            Precision="Double")
reference = fetch(ShallowWater(**GRID), 10.0)
src = ShallowWater(**GRID)
algorithm = src.GetClientSideObject()
aborted = []


def abort_once(caller, event):
    if not aborted and 0.2 < caller.GetProgress() < 1.0:
        aborted.append(caller.GetProgress())
        caller.SetAbortExecute(1)


tag = algorithm.AddObserver("ProgressEvent", abort_once)
with CapturedErrors() as errors:
    src.UpdatePipeline(10.0)
partial = algorithm.GetOutputDataObject(0)
stopped = field_value(partial, "SimulationTime") if partial.GetNumberOfCells() else float("nan")
check(aborted and partial.GetNumberOfCells() == 200 * 200 and 0 < stopped < 10.0
      and partial.GetInformation().Get(partial.DATA_TIME_STEP()) == stopped,
      "the aborted update hands back the state where it stopped, at its own time (%d cells, "
      "t = %g s)" % (partial.GetNumberOfCells(), stopped))
check(algorithm.GetAbortExecute() == 0, "the abort, once honoured, is cleared")
check("aborted at t = " in errors.text and "on the way to 10 s" in errors.text
      and "Play or another time goes on from it" in errors.text,
      "the abort says the time reached and how to go on (%s)" % errors.text.strip()[:300])
algorithm.RemoveObserver(tag)
with CapturedErrors() as errors:
    d = fetch(src, 10.0)
check(errors.text == "", "no error after an abort (%s)" % errors.text.strip()[:200])
check(field_value(d, "SimulationTime") == 10.0,
      "the next update reaches t = 10 s (got %g)" % field_value(d, "SimulationTime"))
check(field_value(d, "Steps") == field_value(reference, "Steps")
      and np.array_equal(cell_array(d, "Depth"), cell_array(reference, "Depth")),
      "and gives the frame of a run never aborted")

# 2. A .pvd series of a run that fails after its first frame (a fixed step 14 times the stable
#    one): a failed update would leave ParaView's writer looping forever on that time step. In a
#    child process with a time limit, so that a hang fails this test instead of hanging it.
child = os.path.join(out, "write_blowup.py")
series = os.path.join(out, "blowup.pvd")
with open(child, "w") as f:
    f.write("""
import sys
from paraview.simple import *
from swe_testing import CapturedErrors, load_plugin, say
load_plugin(globals())
src = ShallowWater(Resolution=[40, 30], CellSize=1.0, EndTime=2.0, OutputInterval=0.5,
                   FixedTimeStep=0.5)
with CapturedErrors() as errors:
    SaveData(sys.argv[1], proxy=src, WriteTimeSteps=1)
say("ERRORS %d" % errors.text.count("ERROR"))
say("WRITTEN")
""")
pvpython = os.path.join(os.path.dirname(sys.executable), "pvpython")
if not os.access(pvpython, os.X_OK):
    pvpython = "pvpython"
try:
    run = subprocess.run([pvpython, child, series], capture_output=True, text=True, timeout=120)
    output = run.stdout
except subprocess.TimeoutExpired:
    output = "(still writing after 120 s)"
check("WRITTEN" in output, "the .pvd writer ends after the blow-up: %s" % output[-300:].strip())
check("ERRORS 1\n" in output, "the failure is reported in one error: %s" % output.strip()[-200:])
check(os.path.isfile(series) and open(series).read().count("<DataSet") == 5,
      "the series lists its 5 times")
written = [fetch(XMLImageDataReader(FileName=os.path.join(out, "blowup", "blowup_0_%d.vti" % k)),
                 0.0).GetCellData().GetNumberOfArrays() for k in range(5)]
check(written[0] == 5 and written[-1] == 0,
      "the frame before the failure is written, none after it (arrays: %s)" % written)
say("PASS")
