"""pvpython: an ensemble's statistics (swe ensemble's series) as ParaView opens them, with the
plugin loaded: every output time, the seven maps, the members they hold, the terrain's relief, and
legends that say what each map is, the flooding probability on a fixed 0 to 1 scale."""
import os
import subprocess
import tempfile

from paraview.simple import *

from swe_testing import cell_array, check, fetch, load_plugin, say

load_plugin(globals())
out = os.path.join(tempfile.mkdtemp(prefix="swe_ensemble_"), "out")
subprocess.run([os.environ["SWE_TOOL"], "ensemble",
                "--input", os.path.join(os.environ["SWE_DATA"], "valley.vti"),
                "--surface-array", "FreeSurface", "--boundary", "east=open", "--members", "6",
                "--vary", "manning=0.02:0.1", "--t-end", "60", "--output-every", "30",
                "--out", out], check=True, capture_output=True)

statistics = PVDReader(FileName=os.path.join(out, "ensemble.pvd"))
check(list(statistics.TimestepValues) == [0.0, 30.0, 60.0],
      "the series has every output time (%s)" % list(statistics.TimestepValues))
last = fetch(statistics, 60.0)
MAPS = ["ProbabilityFlooded", "MaxDepthMean", "MaxDepthP10", "MaxDepthP50", "MaxDepthP90",
        "ArrivalTimeEarliest", "ArrivalTimeMedian"]
for name in MAPS + ["Bed"]:
    check(last.GetCellData().GetArray(name) is not None, "the statistics hold %s" % name)
check(last.GetFieldData().GetArray("Members").GetValue(0) == 6, "over the 6 members")
check(last.GetCellData().GetNormals() is not None, "the valley's relief comes with them")
share = cell_array(last, "ProbabilityFlooded")
check(share.min() >= 0 and share.max() == 1 and ((share > 0) & (share < 1)).any(),
      "the shares lie in [0, 1], some cells flooded by some members only")
p10, p90 = cell_array(last, "MaxDepthP10"), cell_array(last, "MaxDepthP90")
check((p10 <= p90).all(), "the 10 % quantile of the depth lies below the 90 %")

view = CreateView("RenderView")
view.ViewSize = [1000, 640]
view.ViewTime = 60.0
shown = Show(statistics, view)
shown.SetRepresentationType("Surface")
titles = {"ProbabilityFlooded": "Probability flooded",
          "MaxDepthP90": "Maximum depth, 90 % of the members below (m)",
          "ArrivalTimeMedian": "Arrival time, median of the members (s)"}
for name, title in titles.items():
    ColorBy(shown, ("CELLS", name))
    shown.SetScalarBarVisibility(view, True)
    bar = GetScalarBar(GetColorTransferFunction(name), view)
    check(bar.Title == title, "%s's legend reads '%s' (%s)" % (name, title, bar.Title))
ColorBy(shown, ("CELLS", "ProbabilityFlooded"))
share_map = GetColorTransferFunction("ProbabilityFlooded")
for t in statistics.TimestepValues:
    view.ViewTime = t
    Render(view)
    check(share_map.RGBPoints[0] == 0.0 and share_map.RGBPoints[-4] == 1.0,
          "the probability keeps its 0 to 1 scale at t = %g s (%s)"
          % (t, list(share_map.RGBPoints[::4])))
check(GetColorTransferFunction("ArrivalTimeMedian").NanColor == [0.90, 0.88, 0.82],
      "cells half the members never reach show as land")
for name in titles:  # (the last legend alone in the picture)
    HideScalarBarIfNotNeeded(GetColorTransferFunction(name), view)
SaveScreenshot(os.path.join(out, "ensemble_view.png"), view, ImageResolution=[1000, 640])
say("PASS " + out)
