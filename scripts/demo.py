"""The main job: the thesis dam break (1000 x 1000 cells of 0.5 m, 20 s) in pvbatch on the default
OpenCL device; writes a .pvd series and PNG frames under the output directory.

Usage: pvbatch scripts/demo.py PLUGIN_LIBRARY OUTPUT_DIR"""
import os
import sys
import time

from paraview.simple import *

plugin, out = sys.argv[1], os.path.abspath(sys.argv[2])
os.makedirs(out, exist_ok=True)
LoadPlugin(plugin, remote=False, ns=globals())

src = ShallowWater(Scenario="Dam break (thesis)", Resolution=[1000, 1000], CellSize=0.5,
                   EndTime=20.0, OutputInterval=5.0, Device="auto", Precision="Single")
RenameSource("Dam break", src)
times = list(src.TimestepValues)
device = src.GetProperty("AvailableDevices").GetData()
print("demo: thesis dam break, 1000 x 1000 cells, output times %s s" % times)

# The free surface as a 3D height field, exaggerated 5 x, coloured by depth.
points = CellDatatoPointData(Input=src)
warp = WarpByScalar(Input=points, Scalars=["POINTS", "FreeSurface"], ScaleFactor=5.0)
view = CreateView("RenderView")
view.ViewSize = [1200, 800]
view.OrientationAxesVisibility = 0
display = Show(warp, view)
ColorBy(display, ("POINTS", "Depth"))
lut = GetColorTransferFunction("Depth")
lut.ApplyPreset("Viridis (matplotlib)", True)
lut.RescaleTransferFunction(10.0, 20.0)
display.SetScalarBarVisibility(view, True)
bar = GetScalarBar(lut, view)
bar.Title = "Depth [m]"
bar.ComponentTitle = ""
label = Text(Text="")
label_display = Show(label, view)
label_display.WindowLocation = "Upper Left Corner"
view.CameraPosition = [-250.0, -650.0, 600.0]
view.CameraFocalPoint = [250.0, 250.0, 40.0]
view.CameraViewUp = [0.0, 0.0, 1.0]

start = time.time()
for t in times:
    view.ViewTime = t
    src.UpdatePipeline(t)
    data = servermanager.Fetch(src)
    fd = data.GetFieldData()
    label.Text = "t = %.1f s   steps = %d" % (t, fd.GetArray("Steps").GetValue(0))
    png = os.path.join(out, "dambreak_%04.1fs.png" % t)
    SaveScreenshot(png, view, ImageResolution=[1200, 800])
    print("demo: t = %5.1f s  steps = %5d  mass = %.6e m^3  -> %s" % (
        t, fd.GetArray("Steps").GetValue(0), fd.GetArray("Mass").GetValue(0), png))
device_name = data.GetFieldData().GetAbstractArray("Device").GetValue(0)

# Inline binary .vti files: see the note on appended data in docs/USER_GUIDE.md.
pvd = os.path.join(out, "dambreak.pvd")
SaveData(pvd, proxy=src, WriteTimeSteps=1, DataMode="Binary", CompressorType="ZLib")
print("demo: simulated %g s on %s in %.1f s of wall time" % (times[-1], device_name, time.time() - start))
print("demo: wrote %s (open it in ParaView) and %d PNG frames in %s" % (pvd, len(times), out))
