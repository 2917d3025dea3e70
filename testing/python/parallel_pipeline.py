"""pvbatch, alone or under mpirun: the Shallow Water source and the solver (on data/valley.vti,
read in pieces, and on data/valley.asc, read whole, with a Series table and gauge points) at two
output times, the second before the first (back in time: a checkpoint
restored), each saved as data (.vti alone, .pvti under mpirun: one piece per rank). Usage:
pvbatch parallel_pipeline.py PLUGIN DATA_DIR OUT_DIR EXTENSION; SWE_EXCHANGE_INTERVAL, when set,
is both proxies' Exchange Interval (the same on one rank: any rank count gives the same bits)."""
import os
import sys

from paraview.simple import *

plugin, data, out, extension = sys.argv[1:5]
LoadPlugin(plugin, ns=globals())
os.makedirs(out, exist_ok=True)

source = ShallowWater()
source.Resolution = [61, 37]
source.CellSize = 0.4
source.Scheme = "MUSCL-Hancock (second order, terrain, wet/dry, fastest)"
source.Scenario = "Radial dam break"
source.BoundaryWest = "Inflow"
source.BoundaryWestDischarge = 0.5
source.BoundaryEast = "Open"
source.EndTime = 1.0
source.OutputInterval = 0.5
source.WaterBalance = 1  # (its Inflow array, each rank's block's sides on the grid's, compared too)
# Gauges in every rank's block, and on the cells where blocks meet: each rank samples its own.
source.Gauges = [2.0, 3.0, 12.2, 7.4, 12.6, 7.4, 22.0, 12.0, 20.0, 2.0]

reader = XMLImageDataReader(FileName=[os.path.join(data, "valley.vti")])
solver = ShallowWaterSolver(Input=reader)
solver.BedArray = "Bed"
solver.FreeSurfaceArray = "FreeSurface"
solver.DepthArray = "None"
solver.BoundaryNorth = "Water level"
solver.BoundaryNorthLevel = 3.0
solver.EndTime = 4.0
solver.OutputInterval = 2.0
# The solver on a raster that the GDAL reader gives whole to piece 0 and empty to the others,
# with a Series table (rain and a hydrograph) and gauge points read from CSV files: every rank
# reads the table and the points whole (pieces of them once gave the ranks different runs, which
# waited on each other for ever), and the terrain whole, keeping its block.
inputs = os.path.join(out, "inputs")
os.makedirs(inputs, exist_ok=True)
with open(os.path.join(inputs, "series.csv"), "w") as f:
    f.write("Time,Rainfall,West\n0,0,0\n2,40,1.5\n4,0,0\n")
with open(os.path.join(inputs, "gauges.csv"), "w") as f:
    f.write("x,y,z\n402.5,252.5,0\n300,150,0\n")
raster = GDALRasterReader(FileName=os.path.join(data, "valley.asc"), CollateBands=0)
gis = ShallowWaterSolver(Input=raster, Series=CSVReader(FileName=[os.path.join(inputs,
    "series.csv")]), GaugePoints=TableToPoints(Input=CSVReader(FileName=[os.path.join(inputs,
    "gauges.csv")]), XColumn="x", YColumn="y", ZColumn="z"))
gis.InitialWaterLevel = 22.0
gis.BoundaryWest = "Inflow"
gis.BoundaryWestStretch = [200.0, 300.0]
gis.BoundaryEast = "Open"
gis.EndTime = 4.0
gis.OutputInterval = 2.0

interval = int(os.environ.get("SWE_EXCHANGE_INTERVAL", "1"))
source.ExchangeInterval = interval
solver.ExchangeInterval = interval
gis.ExchangeInterval = interval

def write_table(proxy, port, path, names=None):
    # The table the client gets (under mpirun every rank's rows appended: a split run's are on its
    # rank 0 alone), the columns named (all: None) with all their digits, or 12 for Mass (a sum
    # over the ranks, added up in another order).
    table = servermanager.Fetch(proxy, idx=port)
    columns = [table.GetColumn(k) for k in range(table.GetNumberOfColumns())]
    columns = [c for c in columns if names is None or c.GetName() in names]
    text = lambda c, row: ("%.12g" if c.GetName() == "Mass" else "%r") % c.GetValue(row)
    with open(path, "w") as f:
        f.write(",".join(c.GetName() for c in columns) + "\n")
        for row in range(table.GetNumberOfRows()):
            f.write(",".join(text(c, row) for c in columns) + "\n")


for name, proxy, times in (("source", source, (1.0, 0.5)), ("solver", solver, (4.0, 2.0)),
                           ("gis", gis, (4.0, 2.0))):
    for t in times:
        proxy.UpdatePipeline(t)
        SaveData(os.path.join(out, "%s_%g.%s" % (name, t, extension)), proxy=proxy)
        if name != "solver":
            write_table(proxy, 1, os.path.join(out, "%s_%g_gauges.csv" % (name, t)))
        write_table(proxy, 2, os.path.join(out, "%s_%g_diagnostics.csv" % (name, t)),
                    ("Time", "SimulationTime", "Steps", "Mass"))
print("wrote " + out)

# A run is kept across requests (on every rank, when split): after the interval changes, the
# frame at t = 1 is the same state again, not a run from t = 0 landing on the new output times
# (whose bits differ: the fresh run below shows it).
from swe_testing import cell_array


def depth_at(proxy, t):
    proxy.UpdatePipeline(t)
    return cell_array(servermanager.Fetch(proxy), "Depth").copy()


kept_before = depth_at(source, 1.0)
source.OutputInterval = 0.125
kept_after = depth_at(source, 1.0)
fresh = ShallowWater(Resolution=[61, 37], CellSize=0.4, EndTime=1.0, OutputInterval=0.125)
fresh.ExchangeInterval = interval
fresh.Scheme = source.Scheme
fresh.Scenario = source.Scenario
fresh.BoundaryWest = "Inflow"
fresh.BoundaryWestDischarge = 0.5
fresh.BoundaryEast = "Open"
replayed = depth_at(fresh, 1.0)
if kept_after.tobytes() != kept_before.tobytes():
    print("FAIL the run restarted when the output interval changed")
    sys.exit(1)
if replayed.tobytes() == kept_after.tobytes():
    print("FAIL a run landing on other output times gave the same bits: the check above is void")
    sys.exit(1)
print("kept the run across requests")
