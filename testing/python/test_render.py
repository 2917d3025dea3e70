"""pvbatch (under Xvfb): render the thesis dam break at t = 10 s and compare with a baseline."""
import os

from paraview.simple import *
from vtkmodules.vtkImagingCore import vtkImageDifference
from vtkmodules.vtkIOImage import vtkPNGReader

from swe_testing import check, fail, load_plugin, say

load_plugin(globals())
baselines = os.environ["SWE_BASELINES"]
out = os.environ.get("SWE_TEST_OUTPUT", ".")
baseline = os.path.join(baselines, "dambreak_t10.png")
image = os.path.join(out, "dambreak_t10.png")

# The thesis's 500 m basin on a coarser grid (200 x 200 cells of 2.5 m) so the test stays quick.
src = ShallowWater(Resolution=[200, 200], CellSize=2.5, EndTime=10.0, OutputInterval=5.0,
                   Precision="Double")
view = CreateView("RenderView")
view.ViewSize = [600, 400]
view.OrientationAxesVisibility = 0
view.Background = [1, 1, 1]
view.UseColorPaletteForBackground = 0
view.ViewTime = 10.0
display = Show(src, view)
ColorBy(display, ("CELLS", "Depth"))
lut = GetColorTransferFunction("Depth")
lut.ApplyPreset("Viridis (matplotlib)", True)
lut.RescaleTransferFunction(10.0, 20.0)
view.InteractionMode = "2D"
ResetCamera(view)
Render(view)
SaveScreenshot(image, view, ImageResolution=[600, 400])
check(os.path.isfile(image), "screenshot written to %s" % image)

if not os.path.isfile(baseline):
    fail("no baseline %s: inspect %s and copy it there" % (baseline, image))



def image_error(path_a, path_b):
    readers = []
    for path in (path_a, path_b):
        r = vtkPNGReader()
        r.SetFileName(path)
        r.Update()
        readers.append(r)
    diff = vtkImageDifference()
    diff.SetInputConnection(readers[0].GetOutputPort())
    diff.SetImageConnection(readers[1].GetOutputPort())
    diff.Update()
    return diff.GetThresholdedError()


error = image_error(image, baseline)
check(error <= 10.0, "image matches the baseline (error %g <= 10)" % error)

# The comparison can fail: the t = 5 s frame differs from the t = 10 s baseline.
view.ViewTime = 5.0
Render(view)
other = os.path.join(out, "dambreak_t5.png")
SaveScreenshot(other, view, ImageResolution=[600, 400])
error = image_error(other, baseline)
check(error > 10.0, "the t = 5 s frame does not match the t = 10 s baseline (error %g)" % error)
say("PASS")
