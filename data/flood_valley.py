"""Floods the synthetic valley (data/valley.vti): the dam across the upper valley fails at t = 0.
Run with pvbatch (under xvfb-run without a display):

    xvfb-run -a pvbatch data/flood_valley.py build/lib/paraview-5.11/plugins/ShallowWater/ShallowWater.so out/valley

Writes PNG frames of the flood over the terrain and a .pvd series into the output directory."""
import os
import sys

from paraview.simple import *

plugin, out = sys.argv[1], os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else "out/valley")
os.makedirs(out, exist_ok=True)
LoadPlugin(plugin, remote=False, ns=globals())

here = os.path.dirname(os.path.abspath(__file__))
terrain = XMLImageDataReader(FileName=os.path.join(here, "valley.vti"))
terrain.UpdatePipeline()
flood = ShallowWaterSolver(Input=terrain, Scheme="MUSCL-HLLC (second order, terrain, wet/dry)",
                           ManningCoefficient=0.035, EndTime=120.0, OutputInterval=30.0,
                           Precision="Single")
flood.BedArray = "Bed"
flood.FreeSurfaceArray = "FreeSurface"
flood.BoundaryEast = "Open"  # the flood leaves the valley downstream

# The terrain in grey, warped 2x; the water on top, coloured by depth, where it is wetter than 1 cm.
view = CreateView("RenderView")
view.ViewSize = [1200, 700]
view.OrientationAxesVisibility = 0
ground = WarpByScalar(Input=CellDatatoPointData(Input=flood), Scalars=["POINTS", "Bed"],
                      ScaleFactor=2.0)
ground_display = Show(ground, view)
ground_display.DiffuseColor = [0.62, 0.58, 0.5]
ColorBy(ground_display, None)
water = Threshold(Input=flood, Scalars=["CELLS", "Depth"], LowerThreshold=0.01,
                  UpperThreshold=1e9)
surface = WarpByScalar(Input=CellDatatoPointData(Input=water), Scalars=["POINTS", "FreeSurface"],
                       ScaleFactor=2.0)
water_display = Show(surface, view)
ColorBy(water_display, ("POINTS", "Depth"))
lut = GetColorTransferFunction("Depth")
lut.ApplyPreset("Blues", True)
lut.InvertTransferFunction()  # deeper water darker
lut.RescaleTransferFunction(0.0, 8.0)
water_display.SetScalarBarVisibility(view, True)
view.CameraPosition = [-250.0, -700.0, 700.0]
view.CameraFocalPoint = [400.0, 250.0, 40.0]
view.CameraViewUp = [0.0, 0.0, 1.0]

for t in flood.TimestepValues:
    view.ViewTime = t
    png = os.path.join(out, "valley_%05.1fs.png" % t)
    SaveScreenshot(png, view, ImageResolution=[1200, 700])
    print("valley: t = %5.1f s -> %s" % (t, png))
SaveData(os.path.join(out, "valley.pvd"), proxy=flood, WriteTimeSteps=1, DataMode="Binary")
print("valley: wrote %s" % os.path.join(out, "valley.pvd"))
