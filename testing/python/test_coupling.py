"""pvpython: the source's output feeds ParaView's ordinary filters and writers."""
import glob
import os

import numpy as np
from paraview import servermanager
from paraview.simple import *
from vtkmodules.util.numpy_support import vtk_to_numpy

from swe_testing import CapturedErrors, say, cell_array, check, fetch, field_value, load_plugin

load_plugin(globals())
out = os.path.join(os.environ.get("SWE_TEST_OUTPUT", "."), "coupling")
os.makedirs(out, exist_ok=True)

with CapturedErrors() as errors:
    src = ShallowWater(Resolution=[80, 60], CellSize=1.0, EndTime=2.0, OutputInterval=0.5,
                       Precision="Double")
    t = 1.0
    d = fetch(src, t)
    depth = cell_array(d, "Depth")

    # Contour of the depth (on point data, as users do).
    points = CellDatatoPointData(Input=src)
    contour = Contour(Input=points, ContourBy=["POINTS", "Depth"], Isosurfaces=[15.0])
    c = fetch(contour, t)
    check(c.GetNumberOfPoints() > 0, "Contour of Depth = 15 m has %d points" % c.GetNumberOfPoints())
    xs = vtk_to_numpy(c.GetPoints().GetData())[:, 0]
    check(10 < xs.min() and xs.max() < 45, "the 15 m contour sits on the moving front (x in %.1f..%.1f)"
          % (xs.min(), xs.max()))

    # WarpByScalar: the free surface as a 3D height field.
    warp = WarpByScalar(Input=points, Scalars=["POINTS", "FreeSurface"], ScaleFactor=1.0)
    w = fetch(warp, t)
    zmin, zmax = w.GetBounds()[4:6]
    check(9.0 < zmin and zmax <= 20.0 + 1e-9, "warped surface between 9 and 20 m (%.2f..%.2f)" % (zmin, zmax))

    # Calculator on cell data.
    calc = Calculator(Input=src, AttributeType="Cell Data", ResultArrayName="Speed",
                      Function="mag(Velocity)")
    k = fetch(calc, t)
    speed = cell_array(k, "Speed")
    check(np.allclose(speed, np.linalg.norm(cell_array(d, "Velocity"), axis=1)), "Calculator mag(Velocity)")

    # PlotOverLine across the dam: the depth falls from 20 m to 10 m along x.
    line = PlotOverLine(Input=src)
    line.Point1 = [0.0, 30.0, 0.0]
    line.Point2 = [80.0, 30.0, 0.0]
    line.Resolution = 160
    p = fetch(line, t)
    profile = vtk_to_numpy(p.GetPointData().GetArray("Depth"))
    valid = vtk_to_numpy(p.GetPointData().GetArray("vtkValidPointMask")).astype(bool)
    profile = profile[valid]
    check(profile[0] > 17.0 and profile[-1] < 10.5 and np.all(np.diff(profile) <= 1e-9),
          "PlotOverLine: depth falls monotonically %.2f -> %.2f" % (profile[0], profile[-1]))

    # A .pvd series of .vti files, read back with ParaView's reader.
    pvd = os.path.join(out, "dambreak.pvd")
    # Inline binary: see the note on appended data in docs/USER_GUIDE.md.
    SaveData(pvd, proxy=src, WriteTimeSteps=1, DataMode="Binary")
    files = sorted(glob.glob(os.path.join(out, "dambreak", "*.vti")) + glob.glob(os.path.join(out, "*.vti")))
    check(len(files) == 5, "5 .vti files written for t = 0..2 by 0.5 (%d)" % len(files))
    reader = PVDReader(FileName=pvd)
    check(list(reader.TimestepValues) == [0.0, 0.5, 1.0, 1.5, 2.0], "the .pvd lists the output times")
    r = fetch(reader, t)
    check(np.array_equal(cell_array(r, "Depth"), depth), "Depth read back from the .pvd at t = 1 is identical")
    check(field_value(r, "SimulationTime") == t, "SimulationTime survives the round trip")

check("ERR" not in errors.text and "rror" not in errors.text, "no errors: %s" % errors.text[:300])
say("PASS")
