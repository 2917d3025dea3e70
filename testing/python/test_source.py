"""pvpython: the Shallow Water source's properties, arrays, time handling and conservation."""
import numpy as np
from vtkmodules.util.numpy_support import vtk_to_numpy
from paraview.simple import *

from swe_testing import (CapturedErrors, say, cell_array, check, fail, fetch, field_value,
                         load_plugin)

load_plugin(globals())

src = ShallowWater()
# Defaults a user sees in the Properties panel.
check(list(src.Resolution) == [1000, 1000], "default Resolution 1000 x 1000")
check(src.CellSize == 0.5 and src.EndTime == 20 and src.OutputInterval == 0.5,
      "thesis defaults: dx 0.5 m, 20 s, frames every 0.5 s")
check(src.Device == "auto", "default device auto")
devices = src.GetProperty("AvailableDevices").GetData()
check(devices[0] == "auto" and len(devices) >= 2, "device list: auto + devices: %s" % devices)
Delete(src)

# Every property set to a non-default value.
src = ShallowWater(Resolution=[60, 40], CellSize=2.0, Scenario="Radial dam break",
                   ManningCoefficient=0.02, Gravity=9.8, EndTime=3.0, OutputInterval=0.5,
                   CourantNumber=0.4, FixedTimeStep=0.0, Device=devices[1], Precision="Double")
times = list(src.TimestepValues)
check(times == [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0], "TimestepValues 0..3 by 0.5: %s" % times)

d0 = fetch(src, 0.0)
check(d0.GetDimensions() == (61, 41, 1), "60 x 40 cells")
check(d0.GetSpacing() == (2.0, 2.0, 2.0) and d0.GetOrigin() == (0.0, 0.0, 0.0),
      "spacing = CellSize, origin 0")
names = sorted(d0.GetCellData().GetArrayName(i) for i in range(d0.GetCellData().GetNumberOfArrays()))
check(names == ["Bed", "Depth", "FreeSurface", "Momentum", "Velocity"], "cell arrays %s" % names)
check(d0.GetCellData().GetArray("Depth").GetDataTypeAsString() == "double", "double precision arrays")
depth0 = cell_array(d0, "Depth")
check(depth0.max() == 20.0 and depth0.min() == 10.0, "radial dam break starts 10..20 m")
mass0 = field_value(d0, "Mass")
check(abs(mass0 - depth0.sum() * 4.0) < 1e-9 * mass0, "Mass = sum(h) dx^2")
check(field_value(d0, "Device") in devices[1], "Device field names the device")

forward = {}
for t in [0.5, 1.0, 2.0, 3.0]:
    d = fetch(src, t)
    check(field_value(d, "SimulationTime") == t, "SimulationTime %g" % t)
    check(d.GetInformation().Get(d.DATA_TIME_STEP()) == t, "DATA_TIME_STEP %g" % t)
    h = cell_array(d, "Depth")
    hu = cell_array(d, "Momentum")
    vel = cell_array(d, "Velocity")
    fs = cell_array(d, "FreeSurface")
    check(np.allclose(vel[:, 0] * h, hu[:, 0]) and np.all(vel[:, 2] == 0), "Velocity = Momentum / Depth")
    check(np.array_equal(fs, h + cell_array(d, "Bed")), "FreeSurface = Depth + Bed")
    drift = abs(field_value(d, "Mass") - mass0) / mass0
    check(drift < 1e-12, "mass conserved at t = %g (drift %.2e)" % (t, drift))
    forward[t] = (h.copy(), hu.copy(), field_value(d, "Steps"))

# A time between outputs gives the latest output time before it, like a reader.
d = fetch(src, 1.7)
check(field_value(d, "SimulationTime") == 1.5, "t = 1.7 gives the 1.5 s output")

# Going back returns exactly what going forward gave, without replaying from zero.
for t in [1.0, 0.5, 3.0, 2.0]:
    d = fetch(src, t)
    h, hu, steps = forward[t]
    check(np.array_equal(cell_array(d, "Depth"), h) and np.array_equal(cell_array(d, "Momentum"), hu)
          and field_value(d, "Steps") == steps, "back/forward identical at t = %g" % t)

# Output Arrays: those left out are not made, the others hold the same values, and another choice
# keeps the simulation (the same frame again, no restart).
all_arrays = ["Depth", "FreeSurface", "Bed", "Momentum", "Velocity", "MaxDepth", "MaxSpeed",
              "MaxHazard", "ArrivalTime", "Duration", "Infiltration", "Inflow"]  # (with what makes them)
check(list(src.OutputArrays) == all_arrays[:5],
      "every array the settings make by default: %s" % list(src.OutputArrays))
bed = cell_array(d0, "Bed")
src.OutputArrays = ["Depth", "Velocity"]
d = fetch(src, 3.0)
names = sorted(d.GetCellData().GetArrayName(i) for i in range(d.GetCellData().GetNumberOfArrays()))
check(names == ["Depth", "Velocity"], "only the arrays chosen: %s" % names)
check(np.array_equal(cell_array(d, "Depth"), forward[3.0][0]) and field_value(d, "Steps") == forward[3.0][2],
      "fewer arrays: the same frame, no restart")
check(d.GetCellData().GetScalars().GetName() == "Depth"
      and d.GetCellData().GetVectors().GetName() == "Velocity", "Depth and Velocity stay active")
check(abs(field_value(d, "Mass") - forward[3.0][0].sum() * 4.0) < 1e-9 * mass0, "Mass without the other arrays")
src.OutputArrays = ["FreeSurface"]
d = fetch(src, 2.0)
check(d.GetCellData().GetNumberOfArrays() == 1 and d.GetCellData().GetScalars() is None,
      "FreeSurface alone, no active scalars")
check(np.array_equal(cell_array(d, "FreeSurface"), forward[2.0][0] + bed), "FreeSurface without Depth or Bed")
# A name the source does not make (Python accepts any; the GUI lists only its own): the request
# fails with one error naming it and the arrays there are, as `swe run --arrays` does.
for chosen in (["Speed"], ["Depth", "Speed"]):
    with CapturedErrors() as errors:
        src.OutputArrays = chosen
        src.UpdatePipeline(3.0)
    unknown = ('no output array "Speed" (the arrays are Depth, FreeSurface, Bed, Momentum, '
               'Velocity, MaxDepth, MaxSpeed, MaxHazard, ArrivalTime, Duration, Infiltration, Inflow)')
    check(errors.text.count(unknown) == 1, "OutputArrays %s: one error '%s' (%s)"
          % (chosen, unknown, errors.text.strip()[:300]))
src.OutputArrays = ["Depth"]
with CapturedErrors() as errors:
    d = fetch(src, 3.0)
check(errors.text == "" and d.GetCellData().GetNumberOfArrays() == 1
      and np.array_equal(cell_array(d, "Depth"), forward[3.0][0])
      and field_value(d, "Steps") == forward[3.0][2],
      "known names work again after: the same frame, no restart (%s %s)" % (errors.text[:300], d.GetCellData().GetNumberOfArrays()))
src.OutputArrays = all_arrays
d = fetch(src, 3.0)
check(d.GetCellData().GetNumberOfArrays() == 5 and np.array_equal(cell_array(d, "Momentum"), forward[3.0][1]),
      "every array back")

# EndTime and OutputInterval changes keep the state: the step count continues.
steps_at_3 = forward[3.0][2]
src.EndTime = 4.0
d = fetch(src, 4.0)
src.UpdatePipelineInformation()
check(list(src.TimestepValues)[-1] == 4.0, "EndTime extends the time steps")
check(field_value(d, "Steps") > steps_at_3, "extending EndTime continues the run")
src.OutputInterval = 0.25
src.UpdatePipelineInformation()
check(len(src.TimestepValues) == 17, "OutputInterval 0.25 gives 17 times")
d = fetch(src, 3.0)
# Going back to 3 s replays from the nearest checkpoint with the new interval, whose output times
# the steps now land on: the same bits only if a checkpoint stands at 3 s, which depends on how
# long checkpoints took (at most 5 % of the run's time): on a loaded machine it may not.
# (the whole run from t = 0 with 0.25 s instead of 0.5 s differs by 1e-3 in L1, 0.03 m at most)
difference = np.abs(cell_array(d, "Depth") - forward[3.0][0])
check(difference.sum() < 2e-3 * np.abs(forward[3.0][0]).sum() and difference.max() < 0.05,
      "new interval keeps earlier results (to the replay's time steps; max difference %.1e m)"
      % difference.max())

# A physics change restarts: a different Manning coefficient changes the answer.
src.OutputInterval = 0.5
src.ManningCoefficient = 0.1
d = fetch(src, 1.0)
check(not np.array_equal(cell_array(d, "Depth"), forward[1.0][0]), "Manning change restarts the physics")
check(field_value(d, "SimulationTime") == 1.0, "restarted run reaches t = 1")

# Restart runs again from t = 0 and reproduces the same run.
src.ManningCoefficient = 0.02
d = fetch(src, 1.0)
check(np.array_equal(cell_array(d, "Depth"), forward[1.0][0]), "same properties, same answer")
src.Restart()
d = fetch(src, 0.5)
check(np.array_equal(cell_array(d, "Depth"), forward[0.5][0]), "Reset, then the same run again")

# Single precision and the other scenarios.
src2 = ShallowWater(Resolution=[50, 30], CellSize=1.0, EndTime=1.0, Precision="Single",
                    Scenario="Lake at rest")
d = fetch(src2, 1.0)
check(d.GetCellData().GetArray("Depth").GetDataTypeAsString() == "float", "single precision arrays")
check(np.abs(cell_array(d, "Velocity")).max() < 1e-4, "lake at rest stays at rest")
src2.Scenario = "Dam break (thesis)"
d = fetch(src2, 1.0)
check(np.abs(cell_array(d, "Velocity")).max() > 0.5, "dam break moves")

# The second-order scheme over terrain with dry cells: an emerged bump stays a lake at rest.
src3 = ShallowWater(Resolution=[100, 4], CellSize=0.25, EndTime=2.0, OutputInterval=1.0,
                    Precision="Double", Scheme="MUSCL-HLLC (second order, terrain, wet/dry)",
                    Scenario="Emerged bump (SWASHES)")
d = fetch(src3, 2.0)
bed, depth, surface = cell_array(d, "Bed"), cell_array(d, "Depth"), cell_array(d, "FreeSurface")
check(bed.max() > 0.19 and (depth == 0).any() and (depth > 0).any(), "bump bed with dry cells on top")
check(np.abs(cell_array(d, "Velocity")).max() < 1e-10, "emerged bump: the lake stays at rest")
check(np.allclose(surface[depth > 0], 0.1, atol=1e-12), "wet free surface stays at 0.1 m")

# Boundaries: water flows in on the west and leaves on the east.
src4 = ShallowWater(Resolution=[60, 6], CellSize=1.0, EndTime=4.0, OutputInterval=2.0,
                    Precision="Double", Scheme="MUSCL-HLLC (second order, terrain, wet/dry)",
                    Scenario="Lake at rest", BoundaryWest="Inflow", BoundaryWestDischarge=5.0,
                    BoundaryEast="Open")
m0 = field_value(fetch(src4, 0.0), "Mass")
m2 = field_value(fetch(src4, 2.0), "Mass")
check(abs((m2 - m0) - 5.0 * 6 * 2.0) < 0.05 * 60, "inflow of 5 m^2/s over 6 m adds about 60 m^3 in 2 s (%.2f)" % (m2 - m0))
check(cell_array(fetch(src4, 2.0), "Velocity")[:, 0].max() > 0.1, "the inflow drives an eastward flow")

# Successive outputs refill the previous frame's arrays only when nobody else holds them: an
# array (or a numpy view of it) kept from frame k keeps frame k's values after frame k + 1.
src5 = ShallowWater(Resolution=[40, 30], CellSize=1.0, EndTime=2.0, OutputInterval=0.5,
                    Precision="Double", Scenario="Radial dam break")
live = src5.GetClientSideObject()


def live_array(time, name):
    src5.UpdatePipeline(time)
    return live.GetOutputDataObject(0).GetCellData().GetArray(name)


held = live_array(0.5, "Depth")
held_copy = cell_array(live.GetOutputDataObject(0), "Depth").copy()
held_view = cell_array(live.GetOutputDataObject(0), "Velocity")
held_view_copy = held_view.copy()
addresses = {}
for t in [1.0, 1.5]:  # 1.5 would normally refill 0.5's arrays
    new = live_array(t, "Depth")
    addresses[t] = new.GetAddressAsString("vtkObject")
    check(new.GetAddressAsString("vtkObject") != held.GetAddressAsString("vtkObject")
          and np.array_equal(vtk_to_numpy(held), held_copy)
          and not np.array_equal(vtk_to_numpy(new), held_copy),
          "a held Depth array keeps frame 0.5's values after frame %g" % t)
    check(np.array_equal(held_view, held_view_copy),
          "a held numpy view of Velocity keeps its values after frame %g" % t)
names = ["Depth", "FreeSurface", "Momentum", "Velocity", "Bed"]
last = {name: cell_array(live.GetOutputDataObject(0), name).copy() for name in names}
# An array nobody holds any more is refilled: frame 2 takes frame 1's (frame 1.5's may still be
# held by ParaView's output port).
mtime = new.GetMTime()
del new, held, held_view
after = live_array(2.0, "Depth")
check(after.GetAddressAsString("vtkObject") == addresses[1.0] and after.GetMTime() > mtime,
      "a released Depth array is refilled and marked modified")
del after
src5.Restart()  # the same run again, into refilled arrays
src5.UpdatePipeline(1.5)
for name in names:
    check(np.array_equal(cell_array(live.GetOutputDataObject(0), name), last[name]),
          "refilled %s equals the first computation" % name)

# Each frame's arrays come with their ranges, as VTK computes them: ParaView's data information
# (asked after every time step in the GUI) and colour maps read them instead of another pass over
# the arrays, which took four times a frame's steps at 4096^2.
from vtkmodules.vtkCommonCore import vtkAbstractArray


def ranges_of(array):
    components = array.GetNumberOfComponents()
    asked = list(range(components)) + ([-1] if components > 1 else [])  # -1: the L2 norm
    return [array.GetRange(c) for c in asked] + [array.GetFiniteRange(c) for c in asked]


for precision in ["Single", "Double"]:
    src6 = ShallowWater(Resolution=[64, 48], CellSize=1.0, EndTime=2.0, OutputInterval=1.0,
                        Precision=precision, Scenario="Radial dam break")
    for t in [0.0, 2.0]:
        src6.UpdatePipeline(t)
        out = src6.GetClientSideObject().GetOutputDataObject(0)
        for name in ["Depth", "FreeSurface", "Bed", "Momentum", "Velocity"]:
            array = out.GetCellData().GetArray(name)
            info = array.GetInformation()
            check(info.Has(vtkAbstractArray.PER_COMPONENT())
                  and info.Has(vtkAbstractArray.PER_FINITE_COMPONENT()),
                  "%s %s at t = %g comes with its ranges" % (precision, name, t))
            cached = ranges_of(array)
            array.Modified()  # drops them: VTK computes its own
            computed = ranges_of(array)
            check(cached == computed, "%s %s at t = %g: ranges %s as VTK computes them (%s)"
                  % (precision, name, t, cached, computed))
    check(computed[-1][1] > 0.5, "the flood moves at t = 2 (speed up to %.2f m/s)" % computed[-1][1])
    Delete(src6)

with CapturedErrors() as errors:
    fetch(src2, 0.5)
check(errors.text == "", "no errors or warnings in a normal run")

# The first run on a device, scheme and precision tunes the launch; the progress bar says so,
# once: a second run with the same settings reads the cache.
import os
import tempfile

os.environ["SWE_LAUNCH_CACHE"] = os.path.join(tempfile.mkdtemp(), "launch-shapes.txt")


def progress_texts(source):
    texts = []
    algorithm = source.GetClientSideObject()
    tag = algorithm.AddObserver("ProgressEvent",
                                lambda caller, event: texts.append(caller.GetProgressText()))
    source.UpdatePipeline(0.5)
    algorithm.RemoveObserver(tag)
    return texts


tuned = progress_texts(ShallowWater(Resolution=[30, 20], EndTime=1.0))
check(any(t and t.startswith("Tuning the kernel launch") for t in tuned),
      "first use: the progress text says the launch is being tuned")
check(os.path.isfile(os.environ["SWE_LAUNCH_CACHE"]), "the tuned shape is cached")
again = progress_texts(ShallowWater(Resolution=[30, 20], EndTime=1.0))
check(again and not any(t and t.startswith("Tuning") for t in again),
      "second use: no tuning (%s)" % again[:3])
check("Shallow Water: simulating to t = 0.5 s" in again,
      "the progress text names the time the run goes to (%s)" % again[:3])

# Rainfall: 360 mm/h (0.1 mm a second) on the lake at rest, a closed basin, for 10 s raises its
# 10 m by 1 mm everywhere, nothing moves, and the mass grows by the rain's volume.
rain = ShallowWater(Resolution=[20, 16], CellSize=1.0, Scenario="Lake at rest", EndTime=10.0,
                    OutputInterval=10.0, Precision="Double", Rainfall=360.0)
rained = fetch(rain, 10.0)
depth = cell_array(rained, "Depth")
check(np.abs(depth - 10.001).max() < 1e-12 and depth.min() == depth.max(),
      "rain raises the lake by 1 mm in 10 s, everywhere the same (%.15g..%.15g)"
      % (depth.min(), depth.max()))
check(np.abs(cell_array(rained, "Velocity")).max() == 0, "under uniform rain nothing moves")
check(abs(field_value(rained, "Mass") - 320 * 10.001) < 1e-9,
      "the mass grows by the rain's volume: %.12g m^3" % field_value(rained, "Mass"))
# Losses of 720 mm/h under the same rain (MUSCL-Hancock: Lax-Friedrichs refuses losses) take
# 2 mm in 10 s: the lake ends 1 mm lower.
rain.Scheme = "MUSCL-Hancock (second order, terrain, wet/dry, fastest)"
rain.LossRate = 720.0
drained = cell_array(fetch(rain, 10.0), "Depth")
check(np.abs(drained - 9.999).max() < 1e-12,
      "rain and losses: the lake ends at 9.999 m (%.15g..%.15g)" % (drained.min(), drained.max()))

# Rainfall Series: a triangular storm (0 -> 360 -> 0 mm/h over 20 s) on the lake at rest adds its
# 1 mm exactly, half of it by the peak; with Rainfall as well it is refused.
storm = ShallowWater(Resolution=[20, 16], CellSize=1.0, Scenario="Lake at rest", EndTime=30.0,
                     OutputInterval=10.0, Precision="Double",
                     Scheme="MUSCL-Hancock (second order, terrain, wet/dry, fastest)",
                     RainfallSeries=[0, 0, 10, 360, 20, 0])
for t, expected in ((10.0, 10.0005), (30.0, 10.001)):
    stormed = cell_array(fetch(storm, t), "Depth")
    check(np.abs(stormed - expected).max() < 1e-12,
          "the storm's rain by t = %g s: %.15g m (%.15g..%.15g)"
          % (t, expected, stormed.min(), stormed.max()))
with CapturedErrors() as errors:
    storm.Rainfall = 10.0
    storm.UpdatePipeline(10.0)
check("not both" in errors.text, "Rainfall with a Rainfall Series is refused (%s)" % errors.text[:200])

# A side's series: a hydrograph (0 -> 2 -> 0 m^2/s over 4 s) through the 16 m west side brings
# its 64 m^3 exactly (the side faces' mass flux: NUMERICS.md), and 16 through a quarter of it.
hydro = ShallowWater(Resolution=[40, 16], CellSize=1.0, Scenario="Lake at rest", EndTime=4.0,
                     OutputInterval=4.0, Precision="Double",
                     Scheme="MUSCL-Hancock (second order, terrain, wet/dry, fastest)",
                     BoundaryWest="Inflow", BoundaryWestSeries=[0, 0, 2, 2, 4, 0])
came_in = field_value(fetch(hydro, 4.0), "Mass") - 40 * 16 * 10.0
check(abs(came_in - 64.0) < 1e-9, "the hydrograph brings %.12g m^3 of 64" % came_in)
hydro.BoundaryWestStretch = [4.0, 8.0]  # through a quarter of the side: 16 m^3
came_in = field_value(fetch(hydro, 4.0), "Mass") - 40 * 16 * 10.0
check(abs(came_in - 16.0) < 1e-9, "through a 4 m stretch: %.12g m^3 of 16" % came_in)

# Point Sources: two rows at one point are one source (0 -> 4 m^3/s over 10 s: 20 m^3) into the
# closed lake at rest; its volume comes in exactly.
sourced = ShallowWater(Resolution=[20, 16], CellSize=1.0, Scenario="Lake at rest", EndTime=20.0,
                       OutputInterval=20.0, Precision="Double",
                       Scheme="MUSCL-Hancock (second order, terrain, wet/dry, fastest)",
                       PointSources=[5.5, 8.5, 0, 0, 5.5, 8.5, 10, 4])
gained = field_value(fetch(sourced, 20.0), "Mass") - 20 * 16 * 10.0
check(abs(gained - 20.0) < 1e-9, "the point source brings its 20 m^3 (%.12g)" % gained)

# Green-Ampt: a ponded lake at rest loses what the analytic solution infiltrates (10 mm/h, 110 mm,
# deficit 0.3: 21.64 mm in 30 minutes), the Infiltration array holds it, and Depth + Infiltration
# is the lake's depth at t = 0.
soaked = ShallowWater(Resolution=[20, 16], CellSize=5.0, Scenario="Lake at rest", EndTime=1800.0,
                      OutputInterval=1800.0, Precision="Double",
                      Scheme="MUSCL-Hancock (second order, terrain, wet/dry, fastest)",
                      HydraulicConductivity=10.0, SuctionHead=110.0, MoistureDeficit=0.3)
soaked_frame = fetch(soaked, 1800.0)
taken = cell_array(soaked_frame, "Infiltration")
check(abs(taken.mean() - 0.0216414) < 1e-7 and taken.min() == taken.max(),
      "Green-Ampt takes %.7f m in 30 minutes, everywhere the same" % taken.mean())
check(np.abs(cell_array(soaked_frame, "Depth") + taken - 10.0).max() < 1e-12,
      "Depth + Infiltration is the lake's 10 m")

# Water Balance: a hydrograph in through the west side, out through the open east side, rain,
# a point source and Green-Ampt losses; the field data's balance closes to round-off, forward
# and back in time, and the Inflow array holds the sides' and the source's shares.
balanced = ShallowWater(Resolution=[40, 16], CellSize=1.0, Scenario="Lake at rest", EndTime=4.0,
                        OutputInterval=1.0, Precision="Double",
                        Scheme="MUSCL-Hancock (second order, terrain, wet/dry, fastest)",
                        BoundaryWest="Inflow", BoundaryWestSeries=[0, 0, 2, 2, 4, 0],
                        BoundaryEast="Open", Rainfall=100.0, PointSources=[5.5, 8.5, 0, 1, 5.5, 8.5, 4, 1],
                        HydraulicConductivity=10.0, SuctionHead=110.0, MoistureDeficit=0.3,
                        WaterBalance=1)
for t in [4.0, 2.0]:
    frame = fetch(balanced, t)
    relative = field_value(frame, "RelativeBalanceError")
    check(abs(relative) < 1e-12 and field_value(frame, "InflowVolume") > 0
          and field_value(frame, "OutflowVolume") > 0 and field_value(frame, "RainVolume") > 0
          and field_value(frame, "InfiltratedVolume") > 0,
          "the water balance closes at t = %g (relative error %.2e)" % (t, relative))
    check(abs(cell_array(frame, "Inflow").sum() - (field_value(frame, "InflowVolume")
                                                  - field_value(frame, "OutflowVolume"))) < 1e-9,
          "the Inflow array sums to what came in less what went out")

# Diagnostics: the third output is a table of the outputs made so far, a row each up to the
# frame's time (Time, Steps, Mass, the balance, LargestDepth, the timings).
diagnostics = servermanager.Fetch(balanced, idx=2)
names = [diagnostics.GetColumnName(k) for k in range(diagnostics.GetNumberOfColumns())]
check(diagnostics.GetNumberOfRows() == 1 and names[0] == "Time"
      and all(n in names for n in ["Steps", "Mass", "StoredVolume", "RelativeBalanceError",
                                   "LargestDepth", "FloodedArea", "StepSeconds"]),
      "Diagnostics: a row per output made (t = 4, then 2), up to t = 2 (%d), columns %s"
      % (diagnostics.GetNumberOfRows(), names))
balanced.UpdatePipeline(4.0)
diagnostics = servermanager.Fetch(balanced, idx=2)
rows = vtk_to_numpy(diagnostics.GetColumnByName("Time"))
stored = vtk_to_numpy(diagnostics.GetColumnByName("StoredVolume"))
check(list(rows) == [2.0, 4.0] and stored[1] == field_value(fetch(balanced, 4.0), "StoredVolume"),
      "Diagnostics at t = 4: the rows of t = 2 and 4, the frames' numbers (%s)" % list(rows))

frame = fetch(balanced, 4.0)
flooded = (cell_array(frame, "Depth") >= 0.01).sum() * 1.0
check(field_value(frame, "FloodedArea") == flooded,
      "FloodedArea is the area at or above the Arrival Depth (%g m^2)" % flooded)

# Gauges: the second output is a table of every step's samples up to the frame's time; two gauges
# mirrored across the radial dam break's centre read the same; back in time, the table is cut.
gauged = ShallowWater(Resolution=[40, 40], CellSize=1.0, Scenario="Radial dam break", EndTime=3.0,
                      OutputInterval=1.0, Gauges=[9.5, 20.5, 30.5, 20.5])
frame = fetch(gauged, 2.0)
table = servermanager.Fetch(gauged, idx=1)
from vtkmodules.util.numpy_support import vtk_to_numpy
column = lambda t, name: vtk_to_numpy(t.GetColumnByName(name))
times = column(table, "Time")
check(table.GetNumberOfRows() == field_value(frame, "Steps") + 1 and times[0] == 0.0
      and abs(times[-1] - 2.0) < 1e-6, "a row a step up to t = 2 s (%d rows, last %g)"
      % (table.GetNumberOfRows(), times[-1]))
check(np.abs(column(table, "G1 Depth") - column(table, "G2 Depth")).max() < 1e-4,
      "gauges mirrored across the dam read the same depths")
check(column(table, "G1 Depth").max() > column(table, "G1 Depth")[0] + 0.1,
      "the wave passes the gauge (%.4g m)" % column(table, "G1 Depth").max())
# The fourth output marks the gauges where they stand, numbered as the table's, with the table's
# last readings.
points = servermanager.Fetch(gauged, idx=3)
marked = vtk_to_numpy(points.GetPoints().GetData())
readings = points.GetPointData()
check(points.GetNumberOfVerts() == 2 and np.allclose(marked[:, :2], [[9.5, 20.5], [30.5, 20.5]])
      and list(vtk_to_numpy(readings.GetArray("Gauge"))) == [1, 2],
      "Gauge Markers: G1 and G2 where they were set (%s)" % marked.tolist())
check(vtk_to_numpy(readings.GetArray("Depth"))[1] == column(table, "G2 Depth")[-1]
      and vtk_to_numpy(readings.GetArray("Speed"))[0] == column(table, "G1 Speed")[-1],
      "Gauge Markers read the table's last row")
# Asked for alone at another time (a map updating its markers before its flood), the gauge
# points are that time's.
alone = fetch(PassArrays(Input=OutputPort(gauged, 3)), 1.0).GetPointData().GetArray("Depth")
fetch(gauged, 1.0)
back = servermanager.Fetch(gauged, idx=1)
check(abs(column(back, "Time")[-1] - 1.0) < 1e-6 and back.GetNumberOfRows() < len(times),
      "back at t = 1 s the table ends there")
check(alone.GetValue(0) == column(back, "G1 Depth")[-1] != column(table, "G1 Depth")[-1],
      "the gauge markers asked for alone at t = 1 s read t = 1 s")
gauged.GaugeInterval = 0.25
fetch(gauged, 2.0)
thinned = column(servermanager.Fetch(gauged, idx=1), "Time")
check(thinned[0] == 0.0 and np.all(np.diff(thinned) >= 0.25) and 8 <= len(thinned) < len(times),
      "Gauge Interval 0.25 s: %d rows at least 0.25 s apart" % len(thinned))

# Flood maps: a radial dam break keeps them from t = 0; a frame has them only with Flood Maps
# on, and going back in time gives that time's maps, not the latest.
maps = ShallowWater(Resolution=[40, 40], CellSize=1.0, Scenario="Radial dam break", EndTime=4.0,
                    OutputInterval=1.0)
check(fetch(maps, 1.0).GetCellData().GetArray("MaxDepth") is None, "no flood maps unless asked for")
maps.FloodMaps = 1
maps.ArrivalDepth = 0.5
late = fetch(maps, 4.0)
max_depth, depth = cell_array(late, "MaxDepth"), cell_array(late, "Depth")
check(np.all(max_depth >= depth), "MaxDepth is at least the depth now")
check(max_depth.max() == np.float32(cell_array(fetch(maps, 0.0), "Depth").max()),
      "MaxDepth's largest value is the dam's initial depth (%g)" % max_depth.max())
check(np.all(cell_array(late, "MaxHazard") >= depth * 0.5 - 1e-6),
      "MaxHazard is at least depth x 0.5")
duration = cell_array(late, "Duration")
check(abs(duration.max() - 4.0) < 1e-5, "the longest Duration is the run's 4 s (%.7g)"
      % duration.max())
early = fetch(maps, 1.0)
check(np.all(cell_array(early, "MaxSpeed") <= cell_array(late, "MaxSpeed")),
      "back in time, the maps are those of t = 1 s")
check(abs(cell_array(early, "Duration").max() - 1.0) < 1e-5, "t = 1 s: the longest Duration is 1 s")
maps.ArrivalDepth = 25.0  # deeper than any water (the dam holds 20 m): nothing ever arrives
never = cell_array(fetch(maps, 2.0), "ArrivalTime")
check(np.isnan(never).all(), "ArrivalTime is blank where the water never came")

# Skip Dry Land: on by default; the dam break into the dry valley gives the same bits either way.
valley = {}
for skip in (1, 0):
    run = ShallowWater(Resolution=[96, 60], CellSize=8.0, Scenario="Valley dam break, dry valley",
                       Scheme="MUSCL-Hancock (second order, terrain, wet/dry, fastest)",
                       ManningCoefficient=0.03, EndTime=20.0, OutputInterval=10.0, SkipDryLand=skip)
    valley[skip] = fetch(run, 20.0)
    Delete(run)
check(ShallowWater().SkipDryLand == 1, "Skip Dry Land is on by default")
depth = cell_array(valley[1], "Depth")
check(0 < np.count_nonzero(depth) < 0.5 * depth.size,
      "the valley holds water on %d of %d cells" % (np.count_nonzero(depth), depth.size))
for name in ("Depth", "Momentum", "Velocity", "FreeSurface"):
    check(cell_array(valley[1], name).tobytes() == cell_array(valley[0], name).tobytes(),
          "%s: the same bits with Skip Dry Land on and off" % name)
say("PASS")
