"""pvbatch under mpirun: a terrain whose last piece holds a depth that is not a number fails the
Shallow Water Solver on every rank with that rank's message, and the update ends (no rank waits
for ever). Usage: mpirun -n N pvbatch parallel_error.py PLUGIN OUT_DIR"""
import os
import sys

from paraview import servermanager
from paraview.simple import *
from vtkmodules.vtkCommonCore import vtkFloatArray, vtkOutputWindow, vtkStringOutputWindow
from vtkmodules.vtkCommonDataModel import vtkImageData
from vtkmodules.vtkIOXML import vtkXMLImageDataWriter

plugin, out = sys.argv[1:3]
LoadPlugin(plugin, ns=globals())
os.makedirs(out, exist_ok=True)

# A 40 x 30 lake with one bad cell near its east side (the last rank's piece along x).
image = vtkImageData()
image.SetExtent(0, 40, 0, 30, 0, 0)
bed, depth = vtkFloatArray(), vtkFloatArray()
bed.SetName("Bed")
depth.SetName("Depth")
for j in range(30):
    for i in range(40):
        bed.InsertNextValue(0.0)
        depth.InsertNextValue(float("nan") if (i, j) == (37, 15) else 1.0)
image.GetCellData().AddArray(bed)
image.GetCellData().AddArray(depth)
path = os.path.join(out, "bad_piece.vti")
writer = vtkXMLImageDataWriter()
writer.SetFileName(path)
writer.SetInputData(image)
writer.Write()

reader = XMLImageDataReader(FileName=[path])
solver = ShallowWaterSolver(Input=reader)
solver.BedArray = "Bed"
solver.DepthArray = "Depth"
solver.EndTime = 1.0
# (the message caught here, not matched in the output, where mpirun interleaves the ranks'
# stderr and stdout in any order)
window, previous = vtkStringOutputWindow(), vtkOutputWindow.GetInstance()
vtkOutputWindow.SetInstance(window)
solver.UpdatePipeline(1.0)
vtkOutputWindow.SetInstance(previous)
expected = "rank 1: the depth array 'Depth' is not finite at cell (37, 15)"
if solver.GetDataInformation().GetNumberOfCells() != 0:
    print("FAIL the solver gave data from a bad input")
elif expected not in window.GetOutput():
    print("FAIL rank 0 was not told rank 1's error: %r" % window.GetOutput()[-300:])
else:
    print("PASS the update ended, with rank 1's message on rank 0: " + expected)
