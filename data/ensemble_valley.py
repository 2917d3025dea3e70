"""How likely each cell of the synthetic valley (data/valley.vti) is to flood when its dam fails
during the first 15 minutes of the design storm of data/storm.csv, with Manning's n (0.03 to
0.08) and the storm's intensity (0.5 to 1.5 times) uncertain: 32 members drawn by a Latin
hypercube, run side by side by `swe ensemble`, then the flooding probability drawn over the
valley's relief. Run with pvpython (under xvfb-run without a display), giving the swe tool and
an output directory:

    xvfb-run -a pvpython data/ensemble_valley.py build/apps/swe out/ensemble

Writes into the output directory the ensemble's statistics (ensemble.pvd, members.csv, the last
statistics as GeoTIFF) and the picture ensemble_probability.png."""
import os
import subprocess
import sys

from paraview.simple import *

HERE = os.path.dirname(os.path.abspath(__file__))
swe, out = sys.argv[1], os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else "out/ensemble")
subprocess.run([swe, "ensemble", "--input", os.path.join(HERE, "valley.vti"),
                "--surface-array", "FreeSurface", "--boundary", "east=open",
                "--rain-series", os.path.join(HERE, "storm.csv"), "--arrival-depth", "0.02",
                "--members", "32", "--vary", "manning=0.03:0.08", "--vary", "rain=0.5:1.5",
                "--seed", "1", "--t-end", "900", "--output-every", "30",
                "--out", out, "--overwrite", "--geotiff"], check=True)

statistics = PVDReader(FileName=os.path.join(out, "ensemble.pvd"))
SHOWN = 90.0  # s: the front's reach then depends on n, so the members disagree along the valley
view = CreateView("RenderView")
view.ViewSize = [1200, 760]
view.OrientationAxesVisibility = 0
view.ViewTime = SHOWN
# The terrain in grey, lit by its relief normals; over it the cells that flood in any member,
# coloured by the share of members that flood them (dark: all of them).
ground = Show(statistics, view)
ground.SetRepresentationType("Surface")
ColorBy(ground, None)
ground.DiffuseColor = [0.78, 0.76, 0.72]
flooded = Threshold(Input=statistics, Scalars=["CELLS", "ProbabilityFlooded"],
                    LowerThreshold=1e-6, UpperThreshold=1.0)
shown = Show(flooded, view)
ColorBy(shown, ("CELLS", "ProbabilityFlooded"))
lut = GetColorTransferFunction("ProbabilityFlooded")
lut.ApplyPreset("Blues", True)
lut.AutomaticRescaleRangeMode = "Never"
lut.RescaleTransferFunction(0.0, 1.0)
if lut.RGBPoints[1:4] < lut.RGBPoints[-3:]:  # (darker for a higher probability)
    lut.InvertTransferFunction()
bar = GetScalarBar(lut, view)
bar.Title = "Probability flooded"
bar.ComponentTitle = ""
bar.RangeLabelFormat = "%.1f"
shown.SetScalarBarVisibility(view, True)
text = Text(Text="Dam break during a storm, 32 members: t = %g s" % SHOWN)
Show(text, view).WindowLocation = "Upper Center"
view.CameraPosition = [400.0, 250.0, 1500.0]
view.CameraFocalPoint = [400.0, 250.0, 0.0]
view.CameraViewUp = [0.0, 1.0, 0.0]
view.CameraParallelProjection = 1
view.CameraParallelScale = 280.0
png = os.path.join(out, "ensemble_probability.png")
SaveScreenshot(png, view, ImageResolution=[1200, 760])
print("ensemble: t = %g s -> %s" % (SHOWN, png))
