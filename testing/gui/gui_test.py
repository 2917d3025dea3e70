"""Runs inside the ParaView GUI (paraview --script): the plugin must have been loaded from
PV_PLUGIN_PATH. Advances the Shallow Water source with the animation, then takes the first-contact
path (the example GeoTIFF through the solver with its defaults, shown as ParaView shows it by
default), and writes a status file that run_gui_test.sh reads; the screenshot shows the solver's
Properties panel."""
import os

import paraview.simple as pvs
from vtkmodules.vtkCommonCore import vtkOutputWindow, vtkStringOutputWindow

status_file = os.environ["SWE_GUI_STATUS"]


def charts_of(source):
    """The X array, the shown series and the left axis title of the visible chart
    representations of source's Gauges output."""
    found = []
    for v in pvs.GetViews():
        if v.GetXMLName() != "XYChartView":
            continue
        for r in v.Representations:
            inputs = r.SMProxy.GetProperty("Input")
            if (inputs.GetNumberOfProxies() and inputs.GetProxy(0) == source.SMProxy and
                    inputs.GetOutputPortForConnection(0) == 1 and r.Visibility):
                found.append((r.XArrayName, sorted(r.SeriesVisibility), v.LeftAxisTitle))
    return found


def monitor_readouts():
    """What the Shallow Water Monitor dock showed at each refresh (SWE_MONITOR_LOG)."""
    path = os.environ.get("SWE_MONITOR_LOG", "")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [dict(field.split("=", 1) for field in line.rstrip("\n").split("\t"))
                for line in f if line.strip()]


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
        # Shown in a spreadsheet too, as Apply does: each frame is then refreshed more than once,
        # which wiped the monitor's speed and time step.
        sheet = pvs.CreateView("SpreadSheetView")
        pvs.Show(src, sheet)
        pvs.SetActiveView(view)
        scene = pvs.GetAnimationScene()
        scene.UpdateAnimationUsingDataTimeSteps()
        for t in (1.0, 2.0, 3.0, 6.0):
            scene.AnimationTime = t
            pvs.Render(view)
            pvs.Render(sheet)
        data = pvs.servermanager.Fetch(src)
        simulated = data.GetFieldData().GetArray("SimulationTime").GetValue(0)
        # The monitor followed the source frame by frame, from its data information.
        shown = [r for r in monitor_readouts() if r["source"] == "Dam break" and "time" in r]
        steps = data.GetFieldData().GetArray("Steps").GetValue(0)
        if not shown or float(shown[-1]["time"]) != 6.0 or float(shown[-1]["steps"]) != steps:
            raise RuntimeError("the monitor's last readout of the source is not t = 6 s, %d "
                               "steps: %s" % (steps, shown[-1:]))
        if float(shown[-1]["end"]) != 20.0 or float(shown[-1]["memory"]) <= 0:
            raise RuntimeError("the monitor shows no end time or device memory: %s" % shown[-1])
        stepped = [r for r in shown if float(r["time"]) > 0]
        if not stepped or any(float(r["steps_per_second"]) <= 0 or r["mean_dt"] == "nan"
                              for r in stepped):
            raise RuntimeError("a frame's readout lost its speed or time step: %s" % stepped)
        # A property changed and applied: a new run, whose chart starts afresh, marked.
        src.CourantNumber = 0.4
        scene.AnimationTime = 3.0
        pvs.Render(view)
        last = [r for r in monitor_readouts() if r["source"] == "Dam break"][-1]
        if last.get("restarted") != "1" or float(last["time"]) != 3.0:
            raise RuntimeError("the monitor did not mark the new run: %s" % last)
        # A new source in the GUI on a server with CPUs alone (this one): the same 500 m basin
        # in 500 x 500 cells of 1 m, not 1000 x 1000; one given its Resolution keeps it.
        sized = pvs.ShallowWater(registrationName="Sized")
        if list(sized.Resolution) != [500, 500] or sized.CellSize != 1.0:
            raise RuntimeError("a new source on a CPU got %s cells of %g m"
                               % (list(sized.Resolution), sized.CellSize))
        pvs.Delete(sized)
        # A second source not yet applied: the monitor names it with no readout of the first.
        pending = pvs.ShallowWater(registrationName="Not applied", Resolution=[20, 20])
        if list(pending.Resolution) != [20, 20]:
            raise RuntimeError("a source's own Resolution was replaced: %s" % pending.Resolution)
        pvs.SetActiveSource(pending)
        last = monitor_readouts()[-1]
        if last.get("source") != "Not applied" or "cleared" not in last:
            raise RuntimeError("the monitor kept another run's readout: %s" % last)
        pvs.Delete(pending)
        pvs.Delete(sheet)
        pvs.SetActiveSource(src)
        # Gauges open a Line Chart of the hydrographs (Time as X); a source without them does
        # not (pqShallowWaterGaugeChart).
        if charts_of(src):
            raise RuntimeError("a source without gauges opened a chart")
        gauged = pvs.ShallowWater(Resolution=[60, 40], CellSize=1.0, EndTime=2.0,
                                  OutputInterval=1.0, Gauges=[10.5, 20.5, 40.5, 20.5])
        pvs.SetActiveView(view)  # (Apply shows a source in the active view)
        pvs.Show(gauged, view)
        pvs.Render(view)
        gauge_charts = charts_of(gauged)
        if gauge_charts != [("Time", ["G1 Depth", "G2 Depth"], "Depth (m)")]:
            raise RuntimeError("the gauges' table is not in one Line Chart of the depths over "
                               "Time with its axis titled: %s" % gauge_charts)
        # The chart opens under the map (a vertical split), so that the map keeps its width.
        layout = pvs.GetLayout(view).SMProxy
        chart_view = [v for v in pvs.GetViews() if v.GetXMLName() == "XYChartView"][-1]
        map_at, chart_at = layout.GetViewLocation(view.SMProxy), layout.GetViewLocation(
            chart_view.SMProxy)
        split = (map_at - 1) // 2
        if (chart_at != map_at + 1 or map_at != 2 * split + 1
                or layout.GetSplitDirection(split) != layout.VERTICAL):
            raise RuntimeError("the gauge chart is not under the map (cells %d and %d)"
                               % (map_at, chart_at))
        # The gauges are marked on the map, in their hydrographs' colours, named in a legend.
        markers = pvs.GetDisplayProperties(pvs.OutputPort(gauged, 3), view)
        marker_colours = pvs.GetColorTransferFunction("Gauge")
        if (not markers.Visibility or markers.Representation != "Points"
                or markers.ColorArrayName[1] != "Gauge"
                or list(marker_colours.Annotations) != ["1", "G1", "2", "G2"]
                or not markers.IsScalarBarVisible(view)):
            raise RuntimeError("the gauges are not marked on the map by name: %s %s %s"
                               % (markers.Representation, markers.ColorArrayName,
                                  list(marker_colours.Annotations)))
        # A gauge added once the chart is open: its depth joins the chart (not its surface and
        # speed, on the depth axis) and its name the markers' legend.
        gauged.Gauges = [10.5, 20.5, 40.5, 20.5, 30.5, 10.5]
        pvs.Render(view)
        more_charts = charts_of(gauged)
        if (more_charts != [("Time", ["G1 Depth", "G2 Depth", "G3 Depth"], "Depth (m)")]
                or list(marker_colours.Annotations) != ["1", "G1", "2", "G2", "3", "G3"]):
            raise RuntimeError("a gauge added later is charted as %s, named %s"
                               % (more_charts, list(marker_colours.Annotations)))
        # Gauges that reach their second row while the animation scene updates its views (Play,
        # a time change) open their chart once the scene is done: a view added during the update
        # crashed ParaView.
        scene.AnimationTime = 0.0
        late = pvs.ShallowWater(registrationName="Gauged later", Resolution=[40, 30], CellSize=1.0,
                                EndTime=2.0, OutputInterval=1.0, Gauges=[10.5, 15.5])
        pvs.Show(late, view)
        pvs.Render(view)
        late_charts = [v for v in pvs.GetViews() if v.GetXMLName() == "XYChartView"
                       and any(r.Input.SMProxy == late.SMProxy for r in v.Representations)]
        if len(late_charts) != 1 or charts_of(late):
            raise RuntimeError("gauges with one sample did not open their chart, held back "
                               "(%d charts, %s shown)" % (len(late_charts), charts_of(late)))
        if not late_charts[0].ChartTitle.startswith("Hydrographs: drawn once the run has stepped"):
            raise RuntimeError("an empty chart does not say why: %r" % late_charts[0].ChartTitle)
        # (with no water at the gauges yet, the axes span 0 to 1 m and the run's time, not VTK's
        # +-1e-7 m or 0 to 6.5 of an empty chart)
        axes = late_charts[0]
        ranges = [axes.LeftAxisRangeMinimum, axes.LeftAxisRangeMaximum,
                  axes.BottomAxisRangeMinimum, axes.BottomAxisRangeMaximum]
        if (axes.LeftAxisUseCustomRange != 1 or axes.BottomAxisUseCustomRange != 1
                or ranges != [0.0, 1.0, 0.0, 2.0]):
            raise RuntimeError("a chart without water has the axes %s" % ranges)
        scene.AnimationTime = 2.0
        pvs.Render(view)
        if len(charts_of(late)) != 1 or late_charts[0].ChartTitle != "":
            raise RuntimeError("the held-back chart did not show with the second sample (title "
                               "%r)" % late_charts[0].ChartTitle)
        if axes.LeftAxisUseCustomRange or axes.BottomAxisUseCustomRange:
            raise RuntimeError("the chart's axes stayed fixed once the gauges had water")
        pvs.Hide(late, view)
        # Back at t = 0 the table has one row, which VTK's chart cannot draw as a line (it said
        # "Attempted to paint a line with <2 points" at every render): the chart is held back
        # until the second row.
        chart_views = [v for v in pvs.GetViews() if v.GetXMLName() == "XYChartView"]
        scene.AnimationTime = 0.0
        for v in chart_views:
            pvs.Render(v)
        if charts_of(gauged) or "paint a line" in errors.GetOutput():
            raise RuntimeError("a one-row gauge table is drawn: %s %s"
                               % (charts_of(gauged), errors.GetOutput()[:300]))
        scene.AnimationTime = 3.0
        for v in chart_views:
            pvs.Render(v)
        if len(charts_of(gauged)) != 1:
            raise RuntimeError("the gauge chart did not come back with the second row")
        # Apply shows the map alone: the Gauges and Diagnostics tables open no spreadsheet.
        controller = pvs.servermanager.vtkSMParaViewPipelineControllerWithRendering()
        for port in (1, 2):
            if controller.ShowInPreferredView(gauged.SMProxy, port, view.SMProxy):
                raise RuntimeError("Apply would open output port %d in a view" % port)
        # An abort (the progress bar's button; here the filter's own flag, raised as it reports
        # progress between batches of steps) says where the run stopped and how to go on, in
        # Output Messages and in the monitor; the next request goes on from there.
        long_run = pvs.ShallowWater(registrationName="Long run", Resolution=[100, 100],
                                    CellSize=2.5, EndTime=30.0, OutputInterval=30.0)
        pvs.Show(long_run, view)
        pvs.SetActiveSource(long_run)
        algorithm = long_run.GetClientSideObject()
        armed = []  # (as the button: armed from the click on, for every request until the GUI
        # runs its events again, the ones ParaView makes again within the update included)

        def click_abort(caller, event):
            progress = caller.GetProgress()
            if 0.0 < progress < 1.0:
                armed.append(progress)
            if armed:
                caller.SetAbortExecute(progress < 1.0)
        tag = algorithm.AddObserver("ProgressEvent", click_abort)
        scene.AnimationTime = 30.0
        pvs.Render(view)
        pvs.Render(view)  # (asked again while armed: still aborted, not run on)
        algorithm.RemoveObserver(tag)
        said = errors.GetOutput()
        shown = [r for r in monitor_readouts() if r.get("source") == "Long run"]
        frame = algorithm.GetOutputDataObject(0)
        stopped = frame.GetFieldData().GetArray("SimulationTime") if frame.GetNumberOfCells() else None
        if (not armed or said.count("aborted at t = ") != 1
                or "Play or another time goes on" not in said
                or not any(r.get("aborted", "").startswith("aborted at t = ") for r in shown)
                or stopped is None or not 0.0 < stopped.GetValue(0) < 30.0):
            raise RuntimeError("an abort was not said once, kept and shown where it stopped: "
                               "%s | %s | frame at %s" % (said[-300:], shown[-2:],
                                                         stopped.GetValue(0) if stopped else None))
        errors = vtkStringOutputWindow()  # (the abort's warning was expected)
        vtkOutputWindow.SetInstance(errors)
        long_run.MarkModified(long_run)  # (asked again, as Play does: the run goes on)
        pvs.Render(view)
        after = [r for r in monitor_readouts() if r.get("source") == "Long run" and "time" in r]
        if float(after[-1]["time"]) != 30.0 or "aborted" in after[-1]:
            raise RuntimeError("the run did not go on after the abort: %s" % after[-1])
        # (each frame's speed over the steps its own update took: the aborted one's, then the
        # rest's, neither counting the other's)
        if float(after[-1]["steps_per_second"]) <= 0:
            raise RuntimeError("no speed after the run went on: %s" % after[-1])
        pvs.Delete(long_run)
        pvs.Hide(gauged, view)  # (its chart stays, in the screenshot)
        pvs.SetActiveView(view)
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
        # The flood's legend ends in plain numbers ("8.61"), not ParaView's "8.6e+00"; a
        # legend of another array keeps ParaView's default.
        legend = pvs.GetScalarBar(pvs.GetColorTransferFunction("Depth"), view)
        sphere = pvs.Sphere()
        heights = pvs.Elevation(Input=sphere)
        elevation = pvs.Show(heights, view)
        pvs.ColorBy(elevation, ("POINTS", "Elevation"))
        elevation.SetScalarBarVisibility(view, True)
        other = pvs.GetScalarBar(pvs.GetColorTransferFunction("Elevation"), view)
        if legend.RangeLabelFormat != "%.3g" or other.RangeLabelFormat != "%-#6.1e":
            raise RuntimeError("legend formats: Depth %s, Elevation %s"
                               % (legend.RangeLabelFormat, other.RangeLabelFormat))
        elevation.SetScalarBarVisibility(view, False)
        pvs.Delete(heights)
        pvs.Delete(sphere)
        pvs.SetActiveSource(flood)
        # Selecting the solver moved the monitor to it.
        last = monitor_readouts()[-1]
        if float(last["time"]) != 30.0 or last["source"] == "Dam break":
            raise RuntimeError("the monitor did not follow the solver to t = 30 s: %s" % last)
        # (its first frame, straight at t = 30 s, has a speed and a mean time step of its own)
        if float(last["steps_per_second"]) <= 0 or not float(last["mean_dt"]) > 0:
            raise RuntimeError("no speed or time step for a run's first frame: %s" % last)
        # A run with other settings (a property applied) starts the depth colour map from its
        # own frame, not from the 8.6 m of the reservoir before (the map grows every time step).
        before = pvs.GetColorTransferFunction("Depth").RGBPoints[-4]
        flood.DepthArray = "None"  # (the valley dry, a river entering from the west)
        flood.FreeSurfaceArray = "None"
        pvs.Render(view)
        shallow = pvs.servermanager.Fetch(flood).GetCellData().GetArray("Depth").GetRange()[1]
        points = pvs.GetColorTransferFunction("Depth").RGBPoints
        if not 0 < shallow < 0.9 * before or abs(points[-4] - shallow) > 1e-6 * shallow:
            raise RuntimeError("the new run's depths reach %g m, its colour map %g m (%g m before)"
                               % (shallow, points[-4], before))
        # A dry frame's depth legend spans 0 to 1 m, not ParaView's 0 to 1.2e-38 m (a storm's
        # valley at t = 0; a colour map of its own).
        pvs.Delete(flood)
        pvs.Delete(dem)
        pvs.Delete(pvs.GetColorTransferFunction("Depth"))
        scene.AnimationTime = 0.0
        terrain = pvs.XMLImageDataReader(
            FileName=os.path.join(os.environ["SWE_DATA"], "valley.vti"))
        dry = pvs.ShallowWaterSolver(Input=terrain, EndTime=10.0, OutputInterval=10.0,
                                     Rainfall=50.0)
        dry_display = pvs.Show(dry, view)
        dry_display.SetScalarBarVisibility(view, True)
        pvs.Render(view)
        dry_points = pvs.GetColorTransferFunction("Depth").RGBPoints
        if dry_points[-4] - dry_points[0] < 0.5:
            raise RuntimeError("a dry frame's depth legend spans %g to %g m"
                               % (dry_points[0], dry_points[-4]))
        # Gauges added to a run shown already: their markers join the map once its update is
        # over, without the data delivery's "Invalid arguments" (checked with the other messages).
        dry.Gauges = [400, 250]
        view.SMProxy.Update()  # (as the GUI's Apply does: the views updated, then rendered)
        pvs.Render(view)
        # The reservoir's water applied, then a later time: a frame that takes the abort gate
        # long enough for the markers' and the chart's deferred work to come up; it waits for
        # the update's end, without "Missing VIEW()" or "Invalid arguments" (checked with the
        # other messages).
        dry.FreeSurfaceArray = "FreeSurface"
        dry.Rainfall = 0.0
        dry.EndTime = 30.0
        dry.OutputInterval = 30.0
        view.SMProxy.Update()
        pvs.Render(view)
        scene.UpdateAnimationUsingDataTimeSteps()
        scene.AnimationTime = 30.0
        pvs.Render(view)
        pvs.Delete(dry)
        pvs.Delete(terrain)
        pvs.Delete(pvs.GetColorTransferFunction("Depth"))
    finally:
        vtkOutputWindow.SetInstance(previous)
    if errors.GetOutput():
        raise RuntimeError("the plugin reported: " + errors.GetOutput()[:500])
    if simulated != 6.0:
        raise RuntimeError("the source is at t = %g s, not 6 s" % simulated)
    if depth is None or depth.GetRange()[1] <= 0:
        raise RuntimeError("the solver on valley.tif has no water at t = 30 s")
    finish("OK source at t = %g s; gauges charted; valley.tif flooded, deepest %.2f m at t = 30 s; "
           "the monitor followed both" % (simulated, depth.GetRange()[1]))
except Exception as e:  # report, never hang the GUI test
    finish("FAIL %s" % e)
