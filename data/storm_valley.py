"""A storm over the synthetic valley (data/valley.vti, dry at the start): the design storm of
data/storm.csv (up to 80 mm/h over 30 minutes) falls on it while a river's flood wave enters
through its channel at the upstream (west) edge and leaves downstream (east), while the soil
takes in its share (Green-Ampt); flood maps, three gauges along the channel and the water
balance are kept at every step. Run with pvbatch (under xvfb-run without a display):

    xvfb-run -a pvbatch data/storm_valley.py build/lib/paraview-5.11/plugins/ShallowWater/ShallowWater.so out/storm

Writes into the output directory: the maps at the end (storm_maps.vti: MaxDepth, MaxSpeed,
MaxHazard, ArrivalTime, Duration, Infiltration; and as a GeoTIFF for GIS, storm_maps.tif, placed
on the valley's grid: a DEM read through ParaView's GDAL reader would give it its CRS too), a
picture of the hazard classes (storm_hazard.png), the gauges' hydrographs as a table
(storm_gauges.csv) and a chart (storm_gauges.png); prints the water balance at the end."""
import os
import sys

from paraview.simple import *

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from storm_study import END, HERE, storm_study  # noqa: E402

plugin, out = sys.argv[1], os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else "out/storm")
os.makedirs(out, exist_ok=True)
LoadPlugin(plugin, remote=False, ns=globals())
flood = storm_study(XMLImageDataReader(FileName=os.path.join(HERE, "valley.vti")),
                    ShallowWaterSolver)
flood.UpdatePipeline(END)
MAPS = ["MaxDepth", "MaxSpeed", "MaxHazard", "ArrivalTime", "Duration", "Infiltration"]
SaveData(os.path.join(out, "storm_maps.vti"), proxy=flood, CellDataArrays=MAPS + ["Bed"])
SaveData(os.path.join(out, "storm_maps.tif"), proxy=flood, CellArrays=MAPS)
# (every digit: the CSV writer's default of 5 rounds close depths into ties)
SaveData(os.path.join(out, "storm_gauges.csv"), proxy=OutputPort(flood, 1), Precision=17)

# The hazard classes over the relief, as the plugin shows them (no colour edits).
view = CreateView("RenderView")
view.ViewSize = [1200, 760]
view.OrientationAxesVisibility = 0
view.ViewTime = END
hazard = Show(flood, view)
ColorBy(hazard, ("CELLS", "HazardClass"))
hazard.SetScalarBarVisibility(view, True)
view.InteractionMode = "2D"
ResetCamera(view)
SaveScreenshot(os.path.join(out, "storm_hazard.png"), view, ImageResolution=[1200, 760])

chart = CreateView("XYChartView")
chart.ViewSize = [1000, 500]
chart.ViewTime = END
chart.LeftAxisTitle = "depth (m)"
chart.BottomAxisTitle = "time (s)"
lines = Show(OutputPort(flood, 1), chart)
lines.UseIndexForXAxis = 0
lines.XArrayName = "Time"
lines.SeriesVisibility = ["G1 Depth", "G2 Depth", "G3 Depth"]
SaveScreenshot(os.path.join(out, "storm_gauges.png"), chart, ImageResolution=[1000, 500])

gauges = servermanager.Fetch(flood, idx=1)
times = gauges.GetColumnByName("Time")
for g in (1, 2, 3):
    depths = gauges.GetColumnByName("G%d Depth" % g)
    peak = max(range(depths.GetNumberOfTuples()), key=depths.GetValue)
    print("storm: gauge %d peaks at %.2f m at t = %.0f s" % (g, depths.GetValue(peak),
                                                              times.GetValue(peak)))
end = servermanager.Fetch(flood).GetFieldData()
volume = lambda name: end.GetArray(name).GetValue(0)
print("storm: water balance at %.0f s [m^3]: rain %.0f + river %.0f = stored %.0f + out %.0f + "
      "infiltrated %.0f (error %.1e relative)"
      % (END, volume("RainVolume"), volume("InflowVolume"), volume("StoredVolume"),
         volume("OutflowVolume"), volume("InfiltratedVolume"), volume("RelativeBalanceError")))
print("storm: wrote %s" % out)
