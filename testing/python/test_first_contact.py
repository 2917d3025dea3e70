"""pvpython: the first minutes with real terrain. The example DEM and valley.vti flood through the
Shallow Water Solver with only Input set; a DEM with no water starts with one warning saying what
to set; an error is said once."""
import os

import numpy as np
from paraview.simple import *

from swe_testing import CapturedErrors, cell_array, check, fetch, load_plugin, say

load_plugin(globals())
data = os.environ["SWE_DATA"]
HANCOCK = "MUSCL-Hancock (second order, terrain, wet/dry, fastest)"


def floods(reader, expected_arrays, label):
    """The solver with only Input set picks expected_arrays, and water moves at t > 0."""
    reader.UpdatePipeline()  # as Apply on the reader does in the GUI
    with CapturedErrors() as messages:
        solver = ShallowWaterSolver(Input=reader)
        solver.EndTime = 10.0
        solver.OutputInterval = 5.0
        chosen = {name: solver.GetPropertyValue(name) for name in expected_arrays}
        d0 = fetch(solver, 0.0)
        d10 = fetch(solver, 10.0)
    check(chosen == expected_arrays, "%s: the solver picks %s" % (label, chosen))
    check(solver.Scheme == HANCOCK, "%s: the solver starts with MUSCL-Hancock" % label)
    check(messages.text == "", "%s: no error or warning (%s)" % (label, messages.text[:300]))
    h0, h10 = cell_array(d0, "Depth"), cell_array(d10, "Depth")
    check(h10.max() > 0 and (h10 > 1e-3).sum() > (h0 > 1e-3).sum(),
          "%s: the reservoir floods the valley (%d -> %d wet cells)"
          % (label, (h0 > 1e-3).sum(), (h10 > 1e-3).sum()))
    Delete(solver)
    return d10


# The shipped GeoTIFF opens with the GDAL Raster Reader's defaults (Collate Bands on): band 1 is
# the terrain ("Elevation", the active scalars), band 2 the reservoir's depth ("Band 2").
tif = GDALRasterReader(FileName=os.path.join(data, "valley.tif"))
check(tif.CollateBands == 1, "the GDAL Raster Reader collates bands by default")
from_tif = floods(tif, {"BedArray": "Elevation", "DepthArray": "Band 2"}, "valley.tif")

vti = XMLImageDataReader(FileName=os.path.join(data, "valley.vti"))
from_vti = floods(vti, {"BedArray": "Bed", "FreeSurfaceArray": "FreeSurface",
                        "DepthArray": "None"}, "valley.vti")
# The same valley and reservoir (the GeoTIFF stores them in single precision).
check(np.abs(cell_array(from_tif, "Depth") - cell_array(from_vti, "Depth")).max() < 1e-2,
      "valley.tif and valley.vti give the same flood")

# The valley's shape shows on the lit map: the bed's unit normals are the output's Normals, tilted
# where the valley slopes.
normals = from_vti.GetCellData().GetNormals()
check(normals is not None and normals.GetName() == "ReliefNormals",
      "the valley's frame has the bed's relief as its Normals")
tilt = np.array([normals.GetTuple3(c) for c in range(normals.GetNumberOfTuples())])
check(np.abs(np.linalg.norm(tilt, axis=1) - 1).max() < 1e-5 and tilt[:, 2].min() < 0.9
      and np.median(tilt[:, 2]) > 0.5,
      "the relief's normals are unit vectors, tilted on the slopes (smallest z %.3f)"
      % tilt[:, 2].min())
# The flood extent and the hazard classes, read off the flood maps.
with_maps = ShallowWaterSolver(Input=vti, FloodMaps=1, EndTime=10.0, OutputInterval=10.0)
mapped_valley = fetch(with_maps, 10.0)
arrival = cell_array(mapped_valley, "ArrivalTime")
extent = cell_array(mapped_valley, "FloodExtent")
classes = cell_array(mapped_valley, "HazardClass")
hazard = cell_array(mapped_valley, "MaxHazard")
check(np.array_equal(extent == 1, np.isfinite(arrival)) and extent.sum() > 100,
      "FloodExtent marks the %d cells the water reached" % np.isfinite(arrival).sum())
expected_classes = np.where(np.isfinite(arrival), 1 + np.searchsorted([0.75, 1.25, 2.0], hazard,
                                                                        side="right"), 0)
check(np.array_equal(classes, expected_classes) and classes.max() == 4,
      "HazardClass follows FD2320's bounds 0.75, 1.25 and 2 (classes %s)" % np.bincount(classes))
Delete(with_maps)

# An ESRI grid (terrain only; Collate Bands off, as the user guide says): no array is active, so
# the bed is chosen by its name Band 1; the domain is dry with nothing coming in, and one
# warning says what to set.
asc = GDALRasterReader(FileName=os.path.join(data, "valley.asc"), CollateBands=0)
asc.UpdatePipeline()
with CapturedErrors() as messages:
    dry = ShallowWaterSolver(Input=asc)
    dry.EndTime = 2.0
    dry.OutputInterval = 1.0
    for t in (0.0, 1.0, 2.0):
        d = fetch(dry, t)
check(np.abs(cell_array(d, "Bed") - cell_array(from_vti, "Bed")).max() < 1e-3,
      "the ESRI grid's Band 1 is taken as the terrain")
check(messages.text.count("starts dry everywhere") == 1 and "Initial Water Level" in messages.text,
      "a dry domain warns once, naming what to set (%s)" % messages.text[-300:])
dry.InitialWaterLevel = 25.0
with CapturedErrors() as messages:
    d = fetch(dry, 1.0)
check(messages.text == "" and cell_array(d, "Depth").max() > 0,
      "with Initial Water Level 25 m the lake is there and the warning is gone")
Delete(dry)

# A failing request is reported once, by us, with no executive echo: whether it fails in the
# run (Lax-Friedrichs on dry land) or before (a 3D input; a missing file upstream).
wavelet = Wavelet()
missing = GDALRasterReader(FileName=os.path.join(data, "no-such-dem.tif"))
cases = [(dict(Input=vti, Scheme="Lax-Friedrichs (thesis)"), "use the muscl-hllc scheme"),
         (dict(Input=wavelet), "must be a 2D image"),
         (dict(Input=missing), "the input image is empty")]
for kwargs, expected in cases:
    with CapturedErrors():
        bad = ShallowWaterSolver(**kwargs)
    # As Apply does: properties pushed, then updates (and the views' requests).
    with CapturedErrors() as messages:
        bad.EndTime = 2.0
        for t in (0.0, 0.5, 1.0):
            bad.UpdatePipeline(t)
    ours = [line for line in messages.text.splitlines()
            if line.startswith("vtkShallowWaterSolver (")]
    check(messages.text.count(expected) == 1 and len(ours) == 1
          and "vtkShallowWaterSolver" not in "".join(
              line for line in messages.text.splitlines() if "returned failure" in line),
          "'%s' appears once (%s)" % (expected, messages.text[-600:]))
    Delete(bad)
# An End Time between two outputs: the run stops at the one before, and says so once.
with CapturedErrors() as messages:
    short = ShallowWater(EndTime=10.0, OutputInterval=3.0, Resolution=[20, 20])
    for t in (0.0, 3.0, 9.0):
        short.UpdatePipeline(t)
check(messages.text.count("the last output, where the simulation stops, is at 9 s") == 1
      and "set End Time to 9 or 12 s" in messages.text,
      "an End Time between outputs is said once, with the times that work (%s)"
      % messages.text[-400:])
Delete(short)
# Depth's colour map, as the plugin's settings make it: grey at 0 m (dry land), then blues.
depth_map = GetColorTransferFunction("Depth")
check(list(depth_map.RGBPoints[:4]) == [0.0, 0.6, 0.6, 0.6]
      and depth_map.RGBPoints[-3:] == [0.03, 0.19, 0.42],
      "Depth's colour map is grey for dry land, blue for water (%s)" % list(depth_map.RGBPoints[:8]))
# The flood maps' legends carry their units; arrival times blend from dark to light, and cells
# the water never reached (NaN) are left unpainted.
legend_view = CreateView("RenderView")
mapped = ShallowWater(Resolution=[20, 20], EndTime=1.0, OutputInterval=1.0, FloodMaps=1)
legend_view.ViewTime = 1.0
mapped_display = Show(mapped, legend_view)
for name, title in (("MaxDepth", "Maximum depth (m)"), ("MaxSpeed", "Maximum speed (m/s)"),
                    ("MaxHazard", "Maximum hazard, h (v + 0.5) (m^2/s)"),
                    ("ArrivalTime", "Arrival time (s)"), ("Duration", "Time flooded (s)")):
    ColorBy(mapped_display, ("CELLS", name))
    mapped_display.SetScalarBarVisibility(legend_view, True)
    bar = GetScalarBar(GetColorTransferFunction(name), legend_view)
    check(bar.Title == title, "%s's legend reads '%s' (%s)" % (name, title, bar.Title))
for name, title, count in (("FloodExtent", "Flood extent", 2),
                           ("HazardClass", "Highest hazard class, h (v + 0.5)", 5)):
    ColorBy(mapped_display, ("CELLS", name))
    mapped_display.SetScalarBarVisibility(legend_view, True)
    classes_map = GetColorTransferFunction(name)
    check(classes_map.InterpretValuesAsCategories == 1
          and len(classes_map.Annotations) == 2 * count
          and len(classes_map.IndexedColors) == 3 * count
          and GetScalarBar(classes_map, legend_view).Title == title,
          "%s is shown by its %d named classes under '%s' (%s)"
          % (name, count, title, list(classes_map.Annotations)))
# The dam break's bed is flat: no relief to light.
check(fetch(mapped, 1.0).GetCellData().GetNormals() is None, "a flat bed gets no relief")
arrival_map = GetColorTransferFunction("ArrivalTime")
check(arrival_map.NanOpacity == 1.0 and list(arrival_map.NanColor) == [0.90, 0.88, 0.82]
      and arrival_map.ColorSpace == "Lab",
      "ArrivalTime shows never-reached cells as land and blends in Lab (%s, %s, %s)"
      % (arrival_map.NanOpacity, list(arrival_map.NanColor), arrival_map.ColorSpace))
Delete(mapped)
Delete(legend_view)
say("PASS")
