"""Runs inside the ParaView GUI (paraview --script): the plugin must have been loaded from
PV_PLUGIN_PATH; creates the Shallow Water source, advances the animation, and writes a status
file that run_gui_test.sh reads."""
import os

import paraview.simple as pvs
from vtkmodules.vtkCommonCore import vtkOutputWindow, vtkStringOutputWindow

status_file = os.environ["SWE_GUI_STATUS"]


def finish(status):
    with open(status_file, "w") as f:
        f.write(status + "\n")


try:
    if not hasattr(pvs, "ShallowWater"):
        raise RuntimeError("the ShallowWater plugin was not loaded from PV_PLUGIN_PATH")
    errors = vtkStringOutputWindow()
    previous = vtkOutputWindow.GetInstance()
    vtkOutputWindow.SetInstance(errors)
    try:
        src = pvs.ShallowWater(Resolution=[200, 200], CellSize=2.5, EndTime=20.0,
                               OutputInterval=1.0)
        pvs.RenameSource("Dam break", src)
        view = pvs.GetActiveViewOrCreate("RenderView")
        display = pvs.Show(src, view)
        pvs.ColorBy(display, ("CELLS", "Depth"))
        display.SetScalarBarVisibility(view, True)
        pvs.GetColorTransferFunction("Depth").RescaleTransferFunction(10.0, 20.0)
        scene = pvs.GetAnimationScene()
        scene.UpdateAnimationUsingDataTimeSteps()
        for t in (1.0, 3.0, 6.0):
            scene.AnimationTime = t
            pvs.Render(view)
        pvs.ResetCamera(view)
        pvs.Render(view)
        data = pvs.servermanager.Fetch(src)
        simulated = data.GetFieldData().GetArray("SimulationTime").GetValue(0)
    finally:
        vtkOutputWindow.SetInstance(previous)
    if errors.GetOutput():
        raise RuntimeError("the source reported: " + errors.GetOutput()[:500])
    if simulated != 6.0:
        raise RuntimeError("the source is at t = %g s, not 6 s" % simulated)
    finish("OK simulated to t = %g s" % simulated)
except Exception as e:  # report, never hang the GUI test
    finish("FAIL %s" % e)
