"""A storm over the synthetic valley (data/valley.vti, dry at the start): the design storm of
data/storm.csv (up to 80 mm/h over 30 minutes) falls on it while a river's flood wave enters
through its channel at the upstream (west) edge and leaves downstream (east), while the soil
takes in its share (Green-Ampt); flood maps, three gauges along the channel and the water
balance are kept at every step. Run with pvbatch (under xvfb-run without a display):

    xvfb-run -a pvbatch data/storm_valley.py build/lib/paraview-5.11/plugins/ShallowWater/ShallowWater.so out/storm

Writes into the output directory: the maps at the end (storm_maps.vti: MaxDepth, MaxSpeed,
MaxHazard, ArrivalTime, Duration, Infiltration; and as a GeoTIFF for GIS, storm_maps.tif, placed
on the valley's grid: a DEM read through ParaView's GDAL reader would give it its CRS too), a
picture of the maximum depth (storm_maxdepth.png), the gauges' hydrographs as a table
(storm_gauges.csv) and a chart (storm_gauges.png); prints the water balance at the end."""
import csv
import os
import sys

from paraview.simple import *

plugin, out = sys.argv[1], os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else "out/storm")
os.makedirs(out, exist_ok=True)
LoadPlugin(plugin, remote=False, ns=globals())
here = os.path.dirname(os.path.abspath(__file__))

with open(os.path.join(here, "storm.csv")) as f:
    rows = [r for r in csv.reader(f) if r and not r[0].startswith("#")][1:]
storm = [float(v) for row in rows for v in row]  # (s, mm/h) pairs, flattened

terrain = XMLImageDataReader(FileName=os.path.join(here, "valley.vti"))
END = 2400.0  # the storm and the wave, then ten minutes of draining
flood = ShallowWaterSolver(Input=terrain, ManningCoefficient=0.035, EndTime=END,
                           OutputInterval=300.0, Precision="Single")
flood.BedArray = "Bed"
flood.FreeSurfaceArray = "None"  # dry: water only from the sky and the river
flood.InitialWaterLevel = 0.0
flood.RainfallSeries = storm
# A loam's Green-Ampt infiltration: conductivity 10 mm/h, suction head 110 mm, deficit 0.3.
flood.HydraulicConductivity = 10.0
flood.SuctionHead = 110.0
flood.MoistureDeficit = 0.3
# The river's wave through its channel at the upstream edge (y from 200 to 300 m; the rest of the
# edge a wall): 1 m^2/s at its peak, 100 m^3/s in all.
flood.BoundaryWest = "Inflow"
flood.BoundaryWestStretch = [200.0, 300.0]
flood.BoundaryWestSeries = [0, 0, 600, 1.0, 1800, 0]
flood.BoundaryEast = "Open"
flood.FloodMaps = 1
flood.ArrivalDepth = 0.05
flood.Gauges = [200, 250, 400, 250, 700, 210]  # in the channel: upper, middle, lower valley
flood.WaterBalance = 1

flood.UpdatePipeline(END)
MAPS = ["MaxDepth", "MaxSpeed", "MaxHazard", "ArrivalTime", "Duration", "Infiltration"]
SaveData(os.path.join(out, "storm_maps.vti"), proxy=flood, CellDataArrays=MAPS + ["Bed"])
SaveData(os.path.join(out, "storm_maps.tif"), proxy=flood, CellArrays=MAPS)
# (every digit: the CSV writer's default of 5 rounds close depths into ties)
SaveData(os.path.join(out, "storm_gauges.csv"), proxy=OutputPort(flood, 1), Precision=17)

view = CreateView("RenderView")
view.ViewSize = [1200, 760]
view.OrientationAxesVisibility = 0
view.ViewTime = END
maps = Threshold(Input=flood, Scalars=["CELLS", "MaxDepth"], LowerThreshold=0.05,
                 UpperThreshold=1e9)
ground = Show(flood, view)
ColorBy(ground, ("CELLS", "Bed"))
GetColorTransferFunction("Bed").ApplyPreset("Grayscale", True)
wet = Show(maps, view)
ColorBy(wet, ("CELLS", "MaxDepth"))
depth = GetColorTransferFunction("MaxDepth")
depth.ApplyPreset("Blues", True)
depth.InvertTransferFunction()
wet.SetScalarBarVisibility(view, True)
ResetCamera(view)
SaveScreenshot(os.path.join(out, "storm_maxdepth.png"), view, ImageResolution=[1200, 760])

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
