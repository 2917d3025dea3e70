"""Runs inside the ParaView GUI (paraview --script, the plugin on PV_PLUGIN_PATH), driven by
scripts/guide_screenshots: sets up the user guide's walkthrough named by SWE_SHOT as a user would
(the readers' and the solver's defaults, Apply, a time picked), then writes SWE_GUI_STATUS, after
which the caller takes the window's picture.
  first_contact: data/valley.tif through the GDAL Raster Reader and the Shallow Water Solver with
                 their defaults, at t = 60 s;
  storm:         the storm study (data/storm_study.py) on data/valley.vti, coloured by
                 HazardClass at t = 2400 s, its gauges charted."""
import os
import sys

import paraview.simple as pvs

data = os.environ.get("SWE_DATA", "data")  # (paraview --script runs it without __file__)


def show_as_apply_does(proxy, view):
    display = pvs.Show(proxy, view)
    display.SetScalarBarVisibility(view, True)
    return display


def first_contact(view, scene):
    dem = pvs.GDALRasterReader(registrationName="valley.tif",
                               FileName=os.path.join(data, "valley.tif"))
    show_as_apply_does(dem, view)
    flood = pvs.ShallowWaterSolver(Input=dem)
    pvs.Hide(dem, view)
    show_as_apply_does(flood, view)
    return flood, 60.0


def storm(view, scene):
    sys.path.insert(0, data)
    from storm_study import END, storm_study
    terrain = pvs.XMLImageDataReader(registrationName="valley.vti",
                                     FileName=os.path.join(data, "valley.vti"))
    show_as_apply_does(terrain, view)
    flood = storm_study(terrain, pvs.ShallowWaterSolver)
    pvs.Hide(terrain, view)
    display = show_as_apply_does(flood, view)
    pvs.ColorBy(display, ("CELLS", "HazardClass"))
    display.SetScalarBarVisibility(view, True)
    # (as the GUI's colour menu does: the legend of a map no longer shown goes)
    pvs.HideScalarBarIfNotNeeded(pvs.GetColorTransferFunction("Depth"), view)
    return flood, END


status = "FAIL"
try:
    view = pvs.GetActiveViewOrCreate("RenderView")
    scene = pvs.GetAnimationScene()
    flood, time = {"first_contact": first_contact, "storm": storm}[os.environ["SWE_SHOT"]](
        view, scene)
    pvs.SetActiveSource(flood)
    scene.UpdateAnimationUsingDataTimeSteps()
    pvs.ResetCamera(view)
    # Played to the time, frame by frame, as Play does: the monitor's chart has the run's history.
    for frame in flood.TimestepValues:
        if frame <= time:
            scene.AnimationTime = frame
            pvs.Render(view)
    status = "OK %s at t = %g s" % (os.environ["SWE_SHOT"], time)
except Exception as e:  # say it, never hang the caller
    status = "FAIL %s" % e
with open(os.environ["SWE_GUI_STATUS"], "w") as f:
    f.write(status + "\n")
