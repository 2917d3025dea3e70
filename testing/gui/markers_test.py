"""Runs inside the ParaView GUI (paraview --script, run_gui_test.sh): a solver with gauges, its
four outputs shown in the map at once, played to t = 30 s; a gauge added and applied there (the
run made again up to 30 s, long enough for the abort gate to run). The map's gauge markers must
hold every gauge, not the empty output of the run before the change, which they kept until the
time moved; and nothing is reported."""
import os

import paraview.simple as pvs
from vtkmodules.vtkCommonCore import vtkOutputWindow, vtkStringOutputWindow


def finish(status):
    with open(os.environ["SWE_GUI_STATUS"], "w") as f:
        f.write(status + "\n")


def markers_drawn(source, view):
    """Points the map's Gauge Markers display holds, and points the output holds."""
    display = pvs.GetDisplayProperties(pvs.OutputPort(source, 3), view)
    return (display.SMProxy.GetRepresentedDataInformation().GetNumberOfPoints(),
            source.GetDataInformation(3).GetNumberOfPoints())


try:
    errors = vtkStringOutputWindow()
    vtkOutputWindow.SetInstance(errors)
    view = pvs.GetActiveViewOrCreate("RenderView")
    terrain = pvs.XMLImageDataReader(FileName=os.path.join(os.environ["SWE_DATA"], "valley.vti"))
    terrain.UpdatePipeline()
    flood = pvs.ShallowWaterSolver(Input=terrain, EndTime=30.0, Gauges=[200, 250, 400, 250],
                                   DepthArray="None", FreeSurfaceArray="FreeSurface")
    controller = pvs.servermanager.vtkSMParaViewPipelineControllerWithRendering()
    for port in range(4):
        controller.ShowInPreferredView(flood.SMProxy, port, view.SMProxy)
    view.SMProxy.Update()
    pvs.Render(view)
    scene = pvs.GetAnimationScene()
    scene.UpdateAnimationUsingDataTimeSteps()
    scene.AnimationTime = 30.0
    pvs.Render(view)
    before = markers_drawn(flood, view)
    flood.Gauges = [200, 250, 400, 250, 700, 210]
    view.SMProxy.Update()  # (as the GUI's Apply does: the views updated, then rendered)
    pvs.Render(view)
    after = markers_drawn(flood, view)
    if before != (2, 2) or after != (3, 3):
        raise RuntimeError("the map's gauge markers hold %d of %d points at t = 30 s, and %d of %d "
                           "once a gauge is added there" % (before + after))
    if errors.GetOutput():
        raise RuntimeError("the plugin reported: " + errors.GetOutput()[:500])
    finish("OK the gauge markers follow an Apply at t = 30 s")
except Exception as e:  # report, never hang the GUI test
    finish("FAIL %s" % e)
