"""pvbatch, alone or under mpirun: the Shallow Water source and the solver (on data/valley.vti,
read in pieces) at two output times, the second before the first (back in time: a checkpoint
restored), each saved as data (.vti alone, .pvti under mpirun: one piece per rank). Usage:
pvbatch parallel_pipeline.py PLUGIN DATA_DIR OUT_DIR EXTENSION"""
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

reader = XMLImageDataReader(FileName=[os.path.join(data, "valley.vti")])
solver = ShallowWaterSolver(Input=reader)
solver.BedArray = "Bed"
solver.FreeSurfaceArray = "FreeSurface"
solver.DepthArray = "None"
solver.BoundaryNorth = "Water level"
solver.BoundaryNorthLevel = 3.0
solver.EndTime = 4.0
solver.OutputInterval = 2.0

for name, proxy, times in (("source", source, (1.0, 0.5)), ("solver", solver, (4.0, 2.0))):
    for t in times:
        proxy.UpdatePipeline(t)
        SaveData(os.path.join(out, "%s_%g.%s" % (name, t, extension)), proxy=proxy)
print("wrote " + out)
