"""Runs inside the ParaView GUI (paraview --script): the plugin must have been loaded from
PV_PLUGIN_PATH. Advances the Shallow Water source with the animation, then takes the first-contact
path (the example GeoTIFF through the solver with its defaults, shown as ParaView shows it by
default), and writes a status file that run_gui_test.sh reads; the screenshot shows the solver's
Properties panel."""
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
        # The source: the thesis dam break, advanced by the animation.
        src = pvs.ShallowWater(Resolution=[200, 200], CellSize=2.5, EndTime=20.0,
                               OutputInterval=1.0)
        pvs.RenameSource("Dam break", src)
        view = pvs.GetActiveViewOrCreate("RenderView")
        pvs.Show(src, view)
        scene = pvs.GetAnimationScene()
        scene.UpdateAnimationUsingDataTimeSteps()
        for t in (1.0, 3.0, 6.0):
            scene.AnimationTime = t
            pvs.Render(view)
        data = pvs.servermanager.Fetch(src)
        simulated = data.GetFieldData().GetArray("SimulationTime").GetValue(0)
        # A fresh colour map for the terrain part: the dam break's is 20 m deep.
        pvs.Delete(src)
        pvs.Delete(pvs.GetColorTransferFunction("Depth"))
        # First contact with terrain: the example GeoTIFF with the GDAL reader's defaults, the
        # solver with its defaults; the Properties panel shows the solver for the screenshot.
        dem = pvs.GDALRasterReader(FileName=os.path.join(os.environ["SWE_DATA"], "valley.tif"))
        pvs.RenameSource("valley.tif", dem)
        dem.UpdatePipeline()
        flood = pvs.ShallowWaterSolver(Input=dem)
        flood.EndTime = 60.0
        flood.OutputInterval = 5.0
        # A river entering upstream, the valley open downstream: the panel then shows the west
        # side's discharge (m^2/s) and no value for the open east side or the walls.
        flood.BoundaryWest = "Inflow"
        flood.BoundaryWestDischarge = 0.5
        flood.BoundaryEast = "Open"
        display = pvs.Show(flood, view)
        display.SetScalarBarVisibility(view, True)  # as the GUI's Apply does
        scene.UpdateAnimationUsingDataTimeSteps()
        scene.AnimationTime = 30.0
        pvs.SetActiveSource(flood)
        pvs.ResetCamera(view)
        pvs.Render(view)
        flooded = pvs.servermanager.Fetch(flood)
        depth = flooded.GetCellData().GetArray("Depth")
    finally:
        vtkOutputWindow.SetInstance(previous)
    if errors.GetOutput():
        raise RuntimeError("the plugin reported: " + errors.GetOutput()[:500])
    if simulated != 6.0:
        raise RuntimeError("the source is at t = %g s, not 6 s" % simulated)
    if depth is None or depth.GetRange()[1] <= 0:
        raise RuntimeError("the solver on valley.tif has no water at t = 30 s")
    finish("OK source at t = %g s; valley.tif flooded, deepest %.2f m at t = 30 s"
           % (simulated, depth.GetRange()[1]))
except Exception as e:  # report, never hang the GUI test
    finish("FAIL %s" % e)
