"""pvpython: the Shallow Water Solver filter on terrain from a .vti file, a GDAL DEM and a
ProgrammableSource, and its errors on bad inputs."""
import os
import tempfile

import numpy as np
from paraview.simple import *
from vtkmodules.util.numpy_support import vtk_to_numpy

from swe_testing import (CapturedErrors, cell_array, check, fetch, field_value, load_plugin,
                         say)

load_plugin(globals())
data = os.environ["SWE_DATA"]
MUSCL = "MUSCL-HLLC (second order, terrain, wet/dry)"

# 1. The valley with a reservoir behind a dam (data/valley.vti): the dam breaks and floods it.
valley = XMLImageDataReader(FileName=os.path.join(data, "valley.vti"))
valley.UpdatePipeline()  # the array dropdowns list what an updated input has, as in the GUI
HANCOCK = "MUSCL-Hancock (second order, terrain, wet/dry, fastest)"
depths = {}
for scheme in (MUSCL, HANCOCK):
    flood = ShallowWaterSolver(Input=valley, BedArray="Bed", FreeSurfaceArray="FreeSurface",
                               Scheme=scheme, EndTime=30.0, OutputInterval=10.0, Precision="Double")
    source = fetch(valley, 0)
    d0 = fetch(flood, 0.0)
    check(d0.GetDimensions() == source.GetDimensions() and d0.GetSpacing() == source.GetSpacing(),
          "the output has the input's grid %s" % (d0.GetDimensions(),))
    bed = cell_array(source, "Bed")
    check(np.array_equal(cell_array(d0, "Bed"), bed), "Bed is the input terrain")
    h0 = cell_array(d0, "Depth")
    check(np.allclose(h0, np.maximum(0, cell_array(source, "FreeSurface") - bed)),
          "initial depth = free surface - bed")
    wet0 = (h0 > 1e-3).sum()
    d30 = fetch(flood, 30.0)
    h30 = cell_array(d30, "Depth")
    check((h30 > 1e-3).sum() > 1.5 * wet0, "%s: the dam break floods the valley (%d -> %d wet "
          "cells)" % (scheme, wet0, (h30 > 1e-3).sum()))
    check(h30.min() >= 0, "%s: no negative depth" % scheme)
    drift = abs(field_value(d30, "Mass") - field_value(d0, "Mass")) / field_value(d0, "Mass")
    check(drift < 1e-12, "%s: mass conserved in the closed valley (drift %.1e)" % (scheme, drift))
    depths[scheme] = h30
    Delete(flood)
# The two second-order schemes solve the same equations to the same order: the same flood.
spread = np.abs(depths[MUSCL] - depths[HANCOCK]).sum() / depths[MUSCL].sum()
check(spread < 0.05, "MUSCL-HLLC and MUSCL-Hancock floods agree (L1 difference %.1e of the "
      "volume)" % spread)

# 2. The same terrain from the ESRI ASCII grid through ParaView's GDAL reader; a lake at 25 m.
#    (CollateBands=0: Debian's ParaView 5.11 crashes in the reader with collated bands.)
dem = GDALRasterReader(FileName=os.path.join(data, "valley.asc"), CollateBands=0)
dem.UpdatePipeline()
lake = ShallowWaterSolver(Input=dem, BedArray="Band 1", InitialWaterLevel=25.0, Scheme=MUSCL,
                          EndTime=10.0, OutputInterval=10.0, Precision="Double")
d = fetch(lake, 10.0)
check(np.abs(cell_array(d, "Bed") - bed).max() < 1e-3, "GDAL terrain = the .vti terrain (to the"
      " grid's 3 decimals)")
check(np.abs(cell_array(d, "Velocity")).max() < 1e-10, "a lake at rest over the DEM stays at rest")
wet = cell_array(d, "Depth") > 0
check(0 < wet.sum() < wet.size, "the 25 m lake covers part of the valley")
check(np.allclose(cell_array(d, "FreeSurface")[wet], 25.0, atol=1e-12), "its surface stays at 25 m")

# 3. A ProgrammableSource image with point data: terrain, roughness and an initial current.
prog = ProgrammableSource(OutputDataSetType="vtkImageData")
prog.Script = """
import numpy as np
from vtkmodules.util.numpy_support import numpy_to_vtk
out = self.GetOutput()
out.SetDimensions(41, 21, 1)
out.SetSpacing(2.0, 2.0, 1.0)
out.SetOrigin(100.0, 50.0, 0.0)
x = np.tile(np.arange(41) * 2.0, 21)
for name, values in (("elevation", 0.01 * x), ("roughness", np.full(41 * 21, 0.03)),
                     ("depth", np.full(41 * 21, 1.0))):
    a = numpy_to_vtk(values, deep=True); a.SetName(name); out.GetPointData().AddArray(a)
v = numpy_to_vtk(np.tile([0.5, 0.0, 0.0], (41 * 21, 1)), deep=True); v.SetName("current")
out.GetPointData().AddArray(v)
"""
prog.ScriptRequestInformation = """
executive = self.GetExecutive()
executive.GetOutputInformation(0).Set(executive.WHOLE_EXTENT(), 0, 40, 0, 20, 0, 0)
executive.GetOutputInformation(0).Set(vtk.vtkDataObject.SPACING(), 2.0, 2.0, 1.0)
executive.GetOutputInformation(0).Set(vtk.vtkDataObject.ORIGIN(), 100.0, 50.0, 0.0)
"""
prog.UpdatePipeline()
channel = ShallowWaterSolver(Input=prog, BedArray="elevation", DepthArray="depth",
                             VelocityArray="current", ManningArray="roughness", Scheme=MUSCL,
                             EndTime=2.0, OutputInterval=1.0, Precision="Double")
d = fetch(channel, 0.0)
check(d.GetDimensions() == (41, 21, 1) and d.GetOrigin() == (100.0, 50.0, 0.0),
      "40 x 20 cells at the input's origin")
check(np.allclose(cell_array(d, "Bed")[:3], [0.01, 0.03, 0.05]), "point terrain averaged to cells")
check(np.allclose(cell_array(d, "Momentum")[:, 0], 0.5), "initial momentum = depth x velocity")
d = fetch(channel, 2.0)
check(field_value(d, "SimulationTime") == 2.0, "the channel runs to t = 2 s")
depth = cell_array(d, "Depth").copy()
channel.OutputArrays = ["Depth"]
d = fetch(channel, 2.0)
check(d.GetCellData().GetNumberOfArrays() == 1 and np.array_equal(cell_array(d, "Depth"), depth),
      "Output Arrays: the solver's frame with Depth alone, the same values")

# 3b. ParaView's documented Programmable Source pattern: RequestInformation sets only the whole
#     extent, so the pipeline information keeps its default spacing (1) and origin (0). The data
#     (0.02 m cells at (3, 4)) is the truth: the solver simulates on the data's cells, its output
#     has the data's spacing and origin, and one warning says the information disagreed.
SMALL_CELLS = """
import numpy as np
from vtkmodules.util.numpy_support import numpy_to_vtk
out = self.GetOutput()
out.SetDimensions(21, 11, 1)
out.SetSpacing(0.02, 0.02, 1.0)
out.SetOrigin(3.0, 4.0, 0.0)
a = numpy_to_vtk(np.zeros(200), deep=True); a.SetName("Bed"); out.GetCellData().AddArray(a)
h = numpy_to_vtk(np.where(np.arange(200) % 20 < 10, 0.2, 0.1), deep=True); h.SetName("Depth")
out.GetCellData().AddArray(h)
"""
extent_only = ProgrammableSource(OutputDataSetType="vtkImageData", Script=SMALL_CELLS)
extent_only.ScriptRequestInformation = """
executive = self.GetExecutive()
executive.GetOutputInformation(0).Set(executive.WHOLE_EXTENT(), 0, 20, 0, 10, 0, 0)
"""
described = ProgrammableSource(OutputDataSetType="vtkImageData", Script=SMALL_CELLS)
described.ScriptRequestInformation = extent_only.ScriptRequestInformation + """
executive.GetOutputInformation(0).Set(vtk.vtkDataObject.SPACING(), 0.02, 0.02, 1.0)
executive.GetOutputInformation(0).Set(vtk.vtkDataObject.ORIGIN(), 3.0, 4.0, 0.0)
"""
for prog_source in (extent_only, described):
    prog_source.UpdatePipeline()
small = {}
for name, prog_source in (("extent only", extent_only), ("described", described)):
    with CapturedErrors() as errors:
        dam = ShallowWaterSolver(Input=prog_source, EndTime=0.1, OutputInterval=0.05)
        dam.BedArray = "Bed"
        dam.DepthArray = "Depth"
        frames = [fetch(dam, t) for t in (0.0, 0.05, 0.1)]
    small[name] = (frames[-1], errors.text)
d, warnings = small["extent only"]
check(d.GetSpacing()[:2] == (0.02, 0.02) and d.GetOrigin() == (3.0, 4.0, 0.0),
      "extent-only information: the output has the data's spacing and origin (%s, %s)"
      % (d.GetSpacing(), d.GetOrigin()))
reference, reference_warnings = small["described"]
check(reference_warnings == "", "information that agrees with the data: no warning")
check(field_value(d, "Steps") == field_value(reference, "Steps")
      and np.array_equal(cell_array(d, "Depth"), cell_array(reference, "Depth")),
      "it simulates on the data's 0.02 m cells (%g steps, as with information that says so)"
      % field_value(d, "Steps"))
check(warnings.count("Warning") == 1 and "spacing 1 x 1" in warnings
      and "0.02 x 0.02" in warnings and "origin (0, 0, 0)" in warnings
      and "(3, 4, 0)" in warnings,
      "one warning names the information's grid and the data's: %s" % warnings.strip()[:400])

# 4. Bad inputs: clear errors, and ParaView carries on.
wavelet = Wavelet()
wavelet.UpdatePipeline()
# Names are set after creation: from Python, a name the input lacks must reach the filter (and
# be reported), not be replaced by the dropdown's first entry.
bad_cases = [
    (dict(Input=wavelet), dict(BedArray="RTData"), "must be a 2D image"),
    (dict(Input=valley), dict(BedArray="Elevation"), "no array 'Elevation' for the terrain (Bed)"),
    (dict(Input=valley, Scheme=MUSCL), dict(BedArray="Bed", DepthArray="Nope"), "no array 'Nope'"),
    (dict(Input=valley, Scheme=MUSCL), dict(BedArray="Bed", DepthArray="FreeSurface"),
     "the initial water is given twice, by the depth array 'FreeSurface' and the free-surface "
     "array 'FreeSurface'"),
    (dict(Input=valley, InitialWaterLevel=35.0, Scheme="Lax-Friedrichs (thesis)"),
     dict(BedArray="Bed"), "use the muscl-hllc scheme"),
    (dict(Input=prog), dict(BedArray="current"), "has 3 components, expected 1"),
]
for kwargs, names, expected in bad_cases:
    with CapturedErrors() as errors:
        bad = ShallowWaterSolver(**kwargs)
        for name, value in names.items():
            bad.SetPropertyWithName(name, value)
        bad.UpdatePipeline(0.0)
    check(expected in errors.text, "bad input gives '%s'" % expected)
    Delete(bad)

nan_terrain = ProgrammableSource(OutputDataSetType="vtkImageData")
nan_terrain.Script = """
import numpy as np
from vtkmodules.util.numpy_support import numpy_to_vtk
out = self.GetOutput()
out.SetDimensions(6, 6, 1)
z = np.zeros(25); z[7] = np.inf
a = numpy_to_vtk(z, deep=True); a.SetName("Bed"); out.GetCellData().AddArray(a)
"""
nan_terrain.ScriptRequestInformation = """
executive = self.GetExecutive()
executive.GetOutputInformation(0).Set(executive.WHOLE_EXTENT(), 0, 5, 0, 5, 0, 0)
"""
nan_terrain.UpdatePipeline()
with CapturedErrors() as errors:
    bad = ShallowWaterSolver(Input=nan_terrain, InitialWaterLevel=1.0)
    bad.BedArray = "Bed"
    bad.UpdatePipeline(0.0)
check("is not finite at cell (2, 1)" in errors.text, "infinite terrain is refused, naming its cell")
# An array shorter than the grid (from a source or filter upstream): refused with both lengths,
# not read past its end.
short_array = ProgrammableSource(OutputDataSetType="vtkImageData")
short_array.Script = """
import numpy as np
from vtkmodules.util.numpy_support import numpy_to_vtk
out = self.GetOutput()
out.SetDimensions(6, 6, 1)
a = numpy_to_vtk(np.zeros(25), deep=True); a.SetName("Bed"); out.GetCellData().AddArray(a)
n = numpy_to_vtk(np.full(10, 0.03), deep=True); n.SetName("Rough"); out.GetCellData().AddArray(n)
"""
short_array.ScriptRequestInformation = nan_terrain.ScriptRequestInformation
with CapturedErrors() as errors:
    bad = ShallowWaterSolver(Input=short_array, InitialWaterLevel=1.0)
    bad.BedArray = "Bed"
    bad.ManningArray = "Rough"
    bad.UpdatePipeline(0.0)
check("the Manning coefficient array 'Rough' has 10 values for the image's 25 cells (5 x 5)"
      in errors.text, "an array shorter than the grid is refused: %s" % errors.text.strip()[-300:])
Delete(bad)
# NaN terrain is no data: that cell is outside the domain (closed), dry and blank.
nan_terrain.Script = nan_terrain.Script.replace("np.inf", "np.nan")
closed = fetch(ShallowWaterSolver(Input=nan_terrain, InitialWaterLevel=1.0, BedArray="Bed"), 0.0)
check(np.isnan(cell_array(closed, "Bed")[7]) and cell_array(closed, "Depth")[7] == 0
      and np.isnan(cell_array(closed, "Bed")).sum() == 1, "NaN terrain is a closed cell")
# A terrain whose extent starts past 0 (an Extract Subset of a DEM): the solver asks its input for
# the cells it simulates in the input's numbering (it asked for the output's, from 0, and every
# update failed in the executive).
part = ExtractSubset(Input=valley, VOI=[20, 60, 10, 40, 0, 0])
with CapturedErrors() as errors:
    piece = fetch(ShallowWaterSolver(Input=part, BedArray="Bed", FreeSurfaceArray="None",
                                     InitialWaterLevel=60.0, EndTime=1.0, OutputInterval=1.0),
                  1.0)
    whole_valley = fetch(valley, 0)
spacing = whole_valley.GetSpacing()[0]
bed_in_valley = cell_array(whole_valley, "Bed").reshape(100, 160)[10:40, 20:60].ravel()
check(errors.text == "" and piece.GetDimensions() == (41, 31, 1)
      and abs(piece.GetOrigin()[0] - (whole_valley.GetOrigin()[0] + 20 * spacing)) < 1e-9
      and np.abs(cell_array(piece, "Bed") - bed_in_valley).max() < 1e-4,
      "a terrain cut from a DEM runs on its cells, placed where they lie (%s)" % errors.text[-300:])
# A DEM's no-data value on a point terrain closes every cell it is a corner of (averaged in, it
# made pits 2500 m deep), and the other arrays are not read there (a depth band's own no-data).
point_terrain = ProgrammableSource(OutputDataSetType="vtkImageData")
point_terrain.Script = """
import numpy as np
from vtkmodules.util.numpy_support import numpy_to_vtk
out = self.GetOutput()
out.SetDimensions(7, 7, 1)
z = np.full(49, 2.0); z[24] = -9999.0
a = numpy_to_vtk(z, deep=True); a.SetName("Bed"); out.GetPointData().AddArray(a)
h = np.full(36, 0.5); h[14] = -9999.0
d = numpy_to_vtk(h, deep=True); d.SetName("Depth0"); out.GetCellData().AddArray(d)
n = numpy_to_vtk(np.array([-9999.0]), deep=True); n.SetName("NO_DATA_VALUE")
out.GetFieldData().AddArray(n)
"""
point_terrain.ScriptRequestInformation = """
executive = self.GetExecutive()
executive.GetOutputInformation(0).Set(executive.WHOLE_EXTENT(), 0, 6, 0, 6, 0, 0)
"""
with CapturedErrors() as errors:
    # (Manning Array left as ParaView sets it: where no Manning array is there, its list falls
    # back to the terrain's, which is no roughness)
    holes = fetch(ShallowWaterSolver(Input=point_terrain, BedArray="Bed", DepthArray="Depth0"), 0.0)
beds = cell_array(holes, "Bed")
check(errors.text == "" and sorted(np.flatnonzero(np.isnan(beds))) == [14, 15, 20, 21]
      and np.nanmin(beds) == 2.0 and cell_array(holes, "Depth")[14] == 0,
      "a point DEM's no-data closes the cells around it; the depth's no-data there is not read (%s)"
      % errors.text[-300:])

# An image without points or cells (a source or reader that produced nothing): said so, once
# for an update (not again when ParaView asks for data after the failed RequestInformation).
nothing = ProgrammableSource(OutputDataSetType="vtkImageData", Script="pass")
nothing.UpdatePipeline()
with CapturedErrors():
    bad = ShallowWaterSolver(Input=nothing)
with CapturedErrors() as errors:
    bad.BedArray = "Bed"
    bad.UpdatePipeline(0.0)
check(errors.text.count("the input image is empty (no cells)") == 1
      and "check that the file, reader or source it comes from produced data" in errors.text
      and "layers" not in errors.text,
      "an empty input is said to be empty, once: %s" % errors.text.strip()[:300])
Delete(bad)

d = fetch(lake, 10.0)
check(field_value(d, "SimulationTime") == 10.0, "the good pipelines still work after the errors")

# Rainfall Array: a storm on the valley's upper slopes only (factor 2 above 20 m, 0 below): the
# water balance's rain is 100 mm/h x 2 on those cells alone, and the water on the grid is what
# it was plus that rain (the balance closes).
share = PythonCalculator(Input=valley, ArrayAssociation="Cell Data", ArrayName="StormShare",
                         Expression="where(Bed > 20, 2.0, 0.0)")
storm = ShallowWaterSolver(Input=share, BedArray="Bed", FreeSurfaceArray="None",
                           InitialWaterLevel=0.0, RainfallArray="StormShare", Rainfall=100.0,
                           WaterBalance=1, EndTime=60.0, OutputInterval=60.0, Precision="Double")
d = fetch(storm, 60.0)
factors = cell_array(fetch(share, 0.0), "StormShare")
expected = 100.0 / 3.6e6 * 60.0 * factors.sum() * 25.0
check(abs(field_value(d, "RainVolume") - expected) < 1e-9 * expected
      and abs(field_value(d, "RelativeBalanceError")) < 1e-12,
      "Rainfall Array: %.6g m^3 of rain on the upper slopes (%.6g), balance %.1e"
      % (field_value(d, "RainVolume"), expected, field_value(d, "RelativeBalanceError")))
# A soil map: Hydraulic Conductivity Array with a paved strip (K = 0) in a loam (10 mm/h) under a
# 25 m lake: nothing soaks in on the strip, the loam takes its Green-Ampt share, and the water
# balance closes.
soils = PythonCalculator(Input=valley, ArrayAssociation="Cell Data", ArrayName="K",
                         Expression="where(abs(Bed - 10) < 2, 0.0, 10.0)")
soaked = ShallowWaterSolver(Input=soils, BedArray="Bed", FreeSurfaceArray="None",
                            InitialWaterLevel=25.0, HydraulicConductivityArray="K",
                            SuctionHead=110.0, MoistureDeficit=0.3, WaterBalance=1,
                            EndTime=60.0, OutputInterval=60.0, Precision="Double")
d = fetch(soaked, 60.0)
k = cell_array(fetch(soils, 0.0), "K")
taken = cell_array(d, "Infiltration")
wet = cell_array(d, "Depth") > 0
check(np.all(taken[k == 0] == 0) and np.all(taken[(k > 0) & wet] > 0)
      and abs(field_value(d, "RelativeBalanceError")) < 1e-12,
      "soil map: nothing soaks into the paved cells, the loam takes %.2e m^3, balance %.1e"
      % (field_value(d, "InfiltratedVolume"), field_value(d, "RelativeBalanceError")))

flooded = (cell_array(d, "Depth") >= 0.01).sum()
check(0 < flooded < wet.size and field_value(d, "FloodedArea") == flooded * 25.0,
      "FloodedArea counts the cells at or above the Arrival Depth (%d of %d)" % (flooded, wet.size))

# Gauge Points: gauge locations from a CSV through Table To Points give the table the Gauges
# property gives.
gauge_file = os.path.join(tempfile.mkdtemp(prefix="swe_gauges_"), "gauges.csv")
with open(gauge_file, "w") as f:
    f.write("x,y\n200,250\n400,250\n")
points = TableToPoints(Input=CSVReader(FileName=[gauge_file]), XColumn="x", YColumn="y",
                       a2DPoints=1)
gauge_common = dict(BedArray="Bed", FreeSurfaceArray="FreeSurface", DepthArray="None",
                    EndTime=20.0, OutputInterval=20.0)
by_points = ShallowWaterSolver(Input=valley, GaugePoints=points, **gauge_common)
by_property = ShallowWaterSolver(Input=valley, Gauges=[200, 250, 400, 250], **gauge_common)
tables = []
for proxy in (by_points, by_property):
    proxy.UpdatePipeline(20.0)
    table = servermanager.Fetch(proxy, idx=1)
    tables.append([vtk_to_numpy(table.GetColumn(k)) for k in range(table.GetNumberOfColumns())])
same = [np.array_equal(a, b) for a, b in zip(*tables)]  # (paraview.simple's all() is numpy's)
check(len(tables[0]) == 7 and False not in same,
      "Gauge Points from a CSV's points give the Gauges property's table, bit for bit")

# A Series table (a CSV read by ParaView's CSV reader) gives the same run as the properties.
table_file = os.path.join(tempfile.mkdtemp(prefix="swe_series_"), "storm.csv")
with open(table_file, "w") as f:
    f.write("Time,Rainfall,West\n0,0,0\n20,150,0.8\n40,0,0\n")
csv = CSVReader(FileName=[table_file])
common = dict(BedArray="Bed", FreeSurfaceArray="None", InitialWaterLevel=0.0, EndTime=30.0,
              OutputInterval=30.0, Precision="Double", BoundaryWest="Inflow",
              BoundaryWestStretch=[200.0, 300.0], BoundaryEast="Open")
by_table = ShallowWaterSolver(Input=valley, Series=csv, **common)
by_properties = ShallowWaterSolver(Input=valley, RainfallSeries=[0, 0, 20, 150, 40, 0],
                                   BoundaryWestSeries=[0, 0, 20, 0.8, 40, 0], **common)
a, b = fetch(by_table, 30.0), fetch(by_properties, 30.0)
check(np.array_equal(cell_array(a, "Depth"), cell_array(b, "Depth"))
      and cell_array(a, "Depth").max() > 0,
      "a Series table (Time, Rainfall, West) gives the properties' run, bit for bit")
with CapturedErrors() as errors:
    both = ShallowWaterSolver(Input=valley, Series=csv, RainfallSeries=[0, 0, 20, 150], **common)
    both.UpdatePipeline(30.0)
check("comes from both the Series table and Rainfall Series" in errors.text,
      "a series given twice is refused, naming both")
# A CSV of column names alone is no rain, nothing else: refused, not run dry.
header_file = os.path.join(os.path.dirname(table_file), "header.csv")
with open(header_file, "w") as f:
    f.write("Time,Rainfall\n")
with CapturedErrors() as errors:
    header_only = ShallowWaterSolver(Input=valley, Series=CSVReader(FileName=[header_file]),
                                     **common)
    header_only.UpdatePipeline(30.0)
check("the Series table holds no rows of numbers (columns Time, Rainfall)" in errors.text,
      "a Series table of column names alone is refused, naming them")
Delete(header_only)
# An optional input set back to None is gone (ParaView disconnects it): the run is the one
# without it.
by_table.Series = None
without = ShallowWaterSolver(Input=valley, **common)
check(np.array_equal(cell_array(fetch(by_table, 30.0), "Depth"),
                     cell_array(fetch(without, 30.0), "Depth")),
      "a Series table set back to None is dropped from the run")
Delete(without)
# A table whose first column is a series, with no Time column, and rain zones with a gap: each
# was taken without a word (the rain as the times; Rainfall 2 dropped).
for text, expected in (("Rainfall,West\n0,0\n150,0.8\n", "has no Time column"),
                       ("Time,Rainfall 0,Rainfall 2\n0,0,0\n20,10,30\n",
                        "it has Rainfall 2 but no Rainfall 1")):
    bad_file = os.path.join(os.path.dirname(table_file), "bad.csv")
    with open(bad_file, "w") as f:
        f.write(text)
    with CapturedErrors() as errors:
        bad = ShallowWaterSolver(Input=valley, Series=CSVReader(FileName=[bad_file]), **common)
        for t in (0.0, 30.0, 0.0):
            bad.UpdatePipeline(t)
    ours = [line for line in errors.text.splitlines()
            if line.startswith("vtkShallowWaterSolver (")]
    check(len(ours) == 1 and expected in ours[0],
          "a Series table that cannot be read as meant says '%s', once (%s)"
          % (expected, errors.text[-300:]))
    # Dropping the table recovers the run, with no error.
    with CapturedErrors() as errors:
        bad.Series = None
        recovered = fetch(bad, 30.0)
    check(errors.text == "" and recovered.GetNumberOfCells() > 0,
          "a bad Series table set back to None leaves a run that works (%s)" % errors.text[-300:])
    Delete(bad)

# Rain zones: the Series table's Rainfall 0 and Rainfall 1 columns, the Rainfall Array each cell's
# zone (the upper slopes 1, the rest 0): the balance's rain is each zone's series' integral on
# its cells, and it closes.
zone_file = os.path.join(os.path.dirname(table_file), "zones.csv")
with open(zone_file, "w") as f:
    f.write("Time,Rainfall 0,Rainfall 1\n0,0,0\n20,50,200\n40,0,0\n")
zones = PythonCalculator(Input=valley, ArrayAssociation="Cell Data", ArrayName="Zone",
                         Expression="where(Bed > 20, 1.0, 0.0)")
zoned = ShallowWaterSolver(Input=zones, Series=CSVReader(FileName=[zone_file]), BedArray="Bed",
                           FreeSurfaceArray="None", InitialWaterLevel=0.0, RainfallArray="Zone",
                           WaterBalance=1, EndTime=30.0, OutputInterval=30.0, Precision="Double")
d = fetch(zoned, 30.0)
upper = cell_array(fetch(zones, 0.0), "Zone").sum()
lower = cell_array(fetch(zones, 0.0), "Zone").size - upper
# (each series' integral to 30 s: 20 s rising to its peak, 10 s falling to half of it)
depth = lambda peak: (peak * 20 / 2 + (peak + peak / 2) / 2 * 10) / 3.6e6
expected = (depth(50.0) * lower + depth(200.0) * upper) * 25.0
check(abs(field_value(d, "RainVolume") - expected) < 1e-9 * expected
      and abs(field_value(d, "RelativeBalanceError")) < 1e-12,
      "rain zones: %.6g m^3 of rain (%.6g), balance %.1e"
      % (field_value(d, "RainVolume"), expected, field_value(d, "RelativeBalanceError")))
say("PASS")
