"""pvpython: what the Properties panel of the Shallow Water source and solver is made of. Output
Arrays offers the arrays the applied settings make and keeps an array's tick while its setting is
off; the tables have column headers with units; a constant a series replaces, and Green-Ampt's
constants while Green-Ampt is off, are greyed out; related properties share a group."""
from paraview.simple import *

from swe_testing import check, fetch, load_plugin, say

load_plugin(globals())
HANCOCK = "MUSCL-Hancock (second order, terrain, wet/dry, fastest)"
BASE = ["Depth", "FreeSurface", "Bed", "Momentum", "Velocity"]
MAPS = ["MaxDepth", "MaxSpeed", "MaxHazard", "ArrivalTime", "Duration"]


def offered(proxy):
    """The arrays Output Arrays lists after Apply (which updates the property information)."""
    proxy.UpdatePipelineInformation()
    return list(proxy.OutputArrays.Available)


def ticks(proxy):
    """Each listed array's tick, as the filter keeps it (the information property)."""
    values = proxy.GetProperty("CellArrayInfo").GetData()
    return dict(zip(values[0::2], values[1::2]))


# Read off the maps for display (FrameReadings), with MaxDepth and MaxHazard, not listed.
READINGS = {"FloodExtent", "HazardClass", "ReliefNormals"}


def arrays(data):
    """The frame's cell arrays that Output Arrays lists."""
    cells = data.GetCellData()
    return sorted(name for name in (cells.GetArrayName(i) for i in range(cells.GetNumberOfArrays()))
                  if name not in READINGS)


# 1. Output Arrays lists what the settings make.
src = ShallowWater(Resolution=[20, 16], CellSize=1.0, Scenario="Radial dam break", Scheme=HANCOCK,
                   EndTime=1.0, OutputInterval=0.5)
check(offered(src) == BASE, "Flood Maps off: no flood map offered (%s)" % offered(src))
src.FloodMaps = 1
check(offered(src) == BASE + MAPS, "Flood Maps on: the five maps offered (%s)" % offered(src))
src.HydraulicConductivity = 10.0
src.SuctionHead = 110.0
src.MoistureDeficit = 0.3
src.WaterBalance = 1
check(offered(src) == BASE + MAPS + ["Infiltration", "Inflow"],
      "Green-Ampt and Water Balance on: Infiltration and Inflow offered (%s)" % offered(src))
src.HydraulicConductivity = 0.0
src.SuctionHead = 0.0
src.MoistureDeficit = 0.0  # (a suction or deficit without a conductivity is refused)
src.WaterBalance = 0
check(offered(src) == BASE + MAPS, "Green-Ampt and Water Balance off again: neither offered")

# 2. An array left out stays left out while Flood Maps is switched off and on, as the GUI's list
#    sends only the arrays it shows.
src.OutputArrays = [a for a in BASE + MAPS if a != "MaxSpeed"]
check(arrays(fetch(src, 1.0)) == sorted(a for a in BASE + MAPS if a != "MaxSpeed"),
      "MaxSpeed left out")
src.FloodMaps = 0
check(offered(src) == BASE, "Flood Maps off: the maps leave the list")
src.OutputArrays = ["Depth"]
check(arrays(fetch(src, 1.0)) == ["Depth"], "Depth alone")
src.FloodMaps = 1
listed = offered(src)
shown = ticks(src)
check(listed == BASE + MAPS and shown["MaxSpeed"] == "0" and shown["MaxDepth"] == "1",
      "Flood Maps on again: the maps come back, MaxSpeed still left out (%s)" % shown)
check(arrays(fetch(src, 1.0)) == sorted(["Depth"] + [m for m in MAPS if m != "MaxSpeed"]),
      "the run makes Depth and the maps but MaxSpeed: %s" % arrays(fetch(src, 1.0)))

# 3. A state saved before the list followed the settings holds all twelve arrays: it loads.
old_state = []
for name in BASE + MAPS + ["Infiltration", "Inflow"]:
    old_state += [name, "1" if name in ("Depth", "MaxDepth") else "0"]
cell_arrays = src.GetProperty("CellArrays").SMProperty
cell_arrays.SetNumberOfElements(len(old_state))
for i, value in enumerate(old_state):
    cell_arrays.SetElement(i, value)
src.SMProxy.UpdateVTKObjects()
check(arrays(fetch(src, 1.0)) == ["Depth", "MaxDepth"], "an old state's twelve ticks apply")
Delete(src)

# 4. The solver: a soil array makes Green-Ampt's Infiltration without a Hydraulic Conductivity.
terrain = ShallowWater(Resolution=[20, 16], CellSize=1.0, Scenario="Radial dam break")
terrain.UpdatePipeline(0.0)
solver = ShallowWaterSolver(Input=terrain)
check(offered(solver) == BASE, "the solver offers the five state arrays by default")
solver.HydraulicConductivityArray = "Depth"
check(offered(solver) == BASE + ["Infiltration"],
      "a conductivity array: Infiltration offered (%s)" % offered(solver))


# 5. The panel's hints, as ParaView 5.11 reads them.
def hint(proxy, name, element):
    hints = proxy.GetProperty(name).SMProperty.GetHints()
    return hints.FindNestedElementByName(element) if hints else None


def column_labels(proxy, name):
    labels = hint(proxy, name, "ShowComponentLabels")
    if labels is None:
        return []
    return [labels.GetNestedElement(i).GetAttribute("label")
            for i in range(labels.GetNumberOfNestedElements())]


def decorators(proxy, name):
    """The (mode, property, value, inverse) of the GenericDecorators of a property's hints, those
    inside a CompositeDecorator included."""
    found = []

    def walk(element):
        for i in range(element.GetNumberOfNestedElements()):
            child = element.GetNestedElement(i)
            if child.GetName() == "PropertyWidgetDecorator" and \
                    child.GetAttribute("type") == "GenericDecorator":
                found.append((child.GetAttribute("mode"), child.GetAttribute("property"),
                              child.GetAttribute("value"), child.GetAttribute("inverse")))
            walk(child)

    hints = proxy.GetProperty(name).SMProperty.GetHints()
    if hints:
        walk(hints)
    return found


for proxy, label in ((ShallowWater(), "source"), (solver, "solver")):
    tables = {"RainfallSeries": ["Time (s)", "Rain (mm/h)"],
              "PointSources": ["x (m)", "y (m)", "Time (s)", "Discharge (m³/s)"],
              "Gauges": ["x (m)", "y (m)"],
              "BoundaryNorthSeries": ["Time (s)", "Value (m²/s or m)"]}
    for name, expected in tables.items():
        per_row = proxy.GetProperty(name).SMProperty.GetNumberOfElementsPerCommand()
        check(column_labels(proxy, name) == expected and len(expected) == per_row,
              "%s: %s's columns are headed %s" % (label, name, column_labels(proxy, name)))
    check(column_labels(proxy, "BoundarySouthStretch") == ["from", "to"],
          "%s: a side's stretch reads from ... to" % label)
    for side in ("West", "East", "South", "North"):
        for constant in ("Discharge", "Level"):
            check(("enabled_state", "Boundary%sSeries" % side, "null", None)
                  in decorators(proxy, "Boundary%s%s" % (side, constant)),
                  "%s: Boundary %s %s greyed out while its series has rows"
                  % (label, side, constant))
    check(("enabled_state", "RainfallSeries", "null", None) in decorators(proxy, "Rainfall"),
          "%s: Rainfall greyed out while a Rainfall Series has rows" % label)
    for constant in ("SuctionHead", "MoistureDeficit"):
        check(("enabled_state", "HydraulicConductivity", "0", "1") in decorators(proxy, constant)
              and ("enabled_state", constant, "0", "1") in decorators(proxy, constant)
              and proxy.GetProperty(constant).SMProperty.GetPanelVisibility() == "default",
              "%s: %s listed beside Hydraulic Conductivity, greyed out while it is 0 unless "
              "set" % (label, constant))
    check(("enabled_state", "Rainfall", "0", "1") in decorators(proxy, "Rainfall"),
          "%s: a Rainfall that is set stays editable beside a series" % label)
    groups = {}
    smproxy = proxy.SMProxy
    for g in range(smproxy.GetNumberOfPropertyGroups()):
        group = smproxy.GetPropertyGroup(g)
        groups[group.GetXMLLabel()] = [smproxy.GetPropertyName(group.GetProperty(p))
                                       for p in range(group.GetNumberOfProperties())]
    check(groups.get("Infiltration") == ["LossRate", "HydraulicConductivity", "SuctionHead",
                                         "MoistureDeficit"]
          and groups.get("Rain and point sources") == ["Rainfall", "RainfallSeries",
                                                       "PointSources"]
          and groups.get("Gauges") == ["Gauges", "GaugeInterval"],
          "%s: infiltration, rain and gauges each in a group" % label)
check(("enabled_state", "HydraulicConductivityArray", "None", "1")
      in decorators(solver, "SuctionHead")
      and ("enabled_state", "SuctionHeadArray", "None", None) in decorators(solver, "SuctionHead"),
      "solver: Suction Head also in use with a conductivity array, not with a suction array")
check(("enabled_state", "DepthArray", "None", None) in decorators(solver, "InitialWaterLevel")
      and ("enabled_state", "FreeSurfaceArray", "None", None)
      in decorators(solver, "InitialWaterLevel"),
      "solver: Initial Water Level greyed out while a Depth or Free Surface Array is chosen")
say("PASS")
