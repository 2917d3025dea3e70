"""pvpython: the solver's Restart Frame. A frame of a run on the valley saved whole with
ParaView's writer (t = 20 s; flood maps, Green-Ampt, rain, a gauge) and read back by ParaView's
reader, given as the Restart Frame of a solver on the same terrain, continues that run: at t = 40 s
every array and the gauge's table (from t = 0: the frame carries the samples so far) are the
uninterrupted run's, bit for bit, in fp64 and fp32; a frame asked for before
t = 20 s is the restart frame's state, tables too; a frame without the run's infiltration and
flood maps, Water Balance, and an End Time before the frame are refused by name, and a frame of
a run with another Manning coefficient goes on (a hot start) with a warning that names it."""
import os
import tempfile

import numpy as np
from paraview.simple import *
from vtkmodules.util.numpy_support import vtk_to_numpy

from swe_testing import CapturedErrors, cell_array, check, fetch, field_value, load_plugin, say

load_plugin(globals())
data = os.environ["SWE_DATA"]
out = os.path.join(os.environ.get("SWE_TEST_OUTPUT", tempfile.mkdtemp()), "restart")
os.makedirs(out, exist_ok=True)
HANCOCK = "MUSCL-Hancock (second order, terrain, wet/dry, fastest)"
ARRAYS = ["Depth", "FreeSurface", "Bed", "Momentum", "Velocity", "MaxDepth", "MaxSpeed",
          "MaxHazard", "ArrivalTime", "Duration", "Infiltration"]

valley = XMLImageDataReader(FileName=os.path.join(data, "valley.vti"))
valley.UpdatePipeline()


def study(input, precision, **more):
    settings = dict(Input=input, BedArray="Bed", FreeSurfaceArray="FreeSurface",
                    DepthArray="None", Scheme=HANCOCK, Precision=precision, EndTime=40.0,
                    OutputInterval=10.0, ManningCoefficient=0.03, Rainfall=60.0, FloodMaps=1,
                    HydraulicConductivity=5.0, SuctionHead=110.0, MoistureDeficit=0.3,
                    Gauges=[60.0, 40.0])
    settings.update(more)
    return ShallowWaterSolver(**settings)


def same_bits(a, b, name):
    x, y = cell_array(a, name), cell_array(b, name)
    return x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()


for precision in ("Double", "Single"):
    whole = study(valley, precision)
    saved = os.path.join(out, "valley_20s_%s.vti" % precision.lower())
    whole.UpdatePipeline(20.0)
    SaveData(saved, proxy=whole, DataMode="Binary")
    at20 = fetch(whole, 20.0)
    at40 = fetch(whole, 40.0)

    frame = XMLImageDataReader(FileName=saved)
    frame.UpdatePipeline()
    continued = study(valley, precision, RestartFrame=frame)
    later = fetch(continued, 40.0)
    check(field_value(later, "SimulationTime") == 40.0 and
          field_value(later, "Steps") == field_value(at40, "Steps"),
          "%s: the continued run reaches t = 40 s in the uninterrupted run's %d steps"
          % (precision, field_value(at40, "Steps")))
    differing = [name for name in ARRAYS if not same_bits(later, at40, name)]
    check(not differing, "%s: at t = 40 s every array is the uninterrupted run's, bit for bit "
          "(differing: %s)" % (precision, differing))
    check(cell_array(later, "Infiltration").max() > 0 and
          np.nanmax(cell_array(later, "ArrivalTime")) > 20.0,
          "%s: infiltration and arrivals carry on past the restart" % precision)
    earlier = fetch(continued, 10.0)
    check(field_value(earlier, "SimulationTime") == 20.0 and same_bits(earlier, at20, "Depth"),
          "%s: a frame asked for before t = 20 s is the restart frame's state" % precision)
    early_gauges = servermanager.Fetch(continued, idx=1)
    check(vtk_to_numpy(early_gauges.GetColumn(0))[-1] == 20.0,
          "%s: and so is the gauge's table (to t = 20 s, not 10)" % precision)
    # The frame carries the gauge's samples so far: the continued run's table is the
    # uninterrupted run's, from t = 0, bit for bit.
    continued.UpdatePipeline(40.0)
    whole.UpdatePipeline(40.0)
    tables = [servermanager.Fetch(p, idx=1) for p in (continued, whole)]
    columns = [[vtk_to_numpy(t.GetColumn(c)) for c in range(t.GetNumberOfColumns())]
               for t in tables]
    check(len(columns[0]) == len(columns[1]) and
          all(a.tobytes() == b.tobytes() for a, b in zip(*columns)),
          "%s: the gauge's table of the continued run is the uninterrupted run's, from t = 0 to "
          "40 s (%d rows), bit for bit" % (precision, tables[0].GetNumberOfRows()))
    check(columns[0][0][0] == 0.0 and columns[0][0][-1] == 40.0,
          "%s: it runs from t = 0 to 40 s" % precision)
    for proxy in (continued, frame, whole):
        Delete(proxy)

# Refusals: the frame lacks what the run keeps; the water balance is kept from t = 0; no output
# time lies after it. The frame of a run with another Manning coefficient is said.
thin = os.path.join(out, "valley_20s_depth_only.vti")
plain = study(valley, "Double")
plain.OutputArrays = ["Depth", "Bed", "Momentum"]
plain.UpdatePipeline(20.0)
SaveData(thin, proxy=plain, DataMode="Binary")
frame = XMLImageDataReader(FileName=thin)
whole_frame = XMLImageDataReader(FileName=os.path.join(out, "valley_20s_double.vti"))
for frame, more, expected in (
        (frame, {}, "has no cell array Infiltration"),
        (frame, {"WaterBalance": 1}, "not the water balance"),
        (whole_frame, {"EndTime": 15.0}, "at t = 20 s, not before the last output time 10 s"),
        (whole_frame, {"ManningCoefficient": 0.05},
         "the Restart Frame was written by a run with other settings: "
         "Manning 0.03 (this run: 0.05)")):
    refused = study(valley, "Double", RestartFrame=frame, **more)
    with CapturedErrors() as errors:
        refused.UpdatePipeline(min(30.0, more.get("EndTime", 30.0)))
    check(expected in errors.text and "Restart Frame" in errors.text,
          "refused or said: %s" % errors.text.strip().splitlines()[-1][:160])
say("PASS")
