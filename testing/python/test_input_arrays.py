"""pvpython: the Shallow Water Solver's input arrays given in other forms (testing/data/
input_arrays.vti): the initial velocity from two one-component arrays, Manning's n from land-use
classes and the Manning Table, discharge by zone (the Source Zone Array and the Series table's
Discharge columns), and the errors of what cannot be used."""
import os

import numpy as np
from paraview.simple import *

from swe_testing import CapturedErrors, cell_array, check, fetch, load_plugin, say

load_plugin(globals())
here = os.path.dirname(os.path.abspath(__file__))
grid = XMLImageDataReader(FileName=os.path.join(here, "..", "data", "input_arrays.vti"))
grid.UpdatePipeline()
common = dict(BedArray="Bed", DepthArray="Depth", ManningArray="None", EndTime=1.0,
              OutputInterval=1.0, Precision="Double")


def solver(**names):
    """A solver on the grid with the common properties, the array names set after creation (from
    Python, a name the dropdown lacks must reach the filter)."""
    proxy = ShallowWaterSolver(Input=grid, **common)
    for name, value in names.items():
        proxy.SetPropertyWithName(name, value)
    return proxy


def refusal(**names):
    """The errors of an update with these array names."""
    with CapturedErrors() as errors:
        proxy = solver(**names)
        proxy.UpdatePipeline(0.0)
    Delete(proxy)
    return errors.text


def same_run(runs, what):
    """The first two runs' depths at t = 1 s are the same bits, the third's not; the runs go."""
    depths = [cell_array(fetch(proxy, 1.0), "Depth").copy() for proxy in runs]
    check(np.array_equal(depths[0], depths[1], equal_nan=True)
          and not np.array_equal(depths[0], depths[2], equal_nan=True), what)
    for proxy in runs:
        Delete(proxy)


# 1. Velocity X and Y Arrays (U, V) give the Velocity array's (2 components) initial momentum, bit
#    for bit, and the same run.
by_vector = solver(VelocityArray="Velocity")
by_pair = solver(VelocityArray="None", VelocityXArray="U", VelocityYArray="V")
momentum = [cell_array(fetch(proxy, 0.0), "Momentum").copy() for proxy in (by_vector, by_pair)]
check(np.abs(momentum[0]).max() > 0 and np.array_equal(momentum[0], momentum[1], equal_nan=True),
      "Velocity X/Y Arrays give the vector array's initial momentum, bit for bit")
depths = [cell_array(fetch(proxy, 1.0), "Depth").copy() for proxy in (by_vector, by_pair)]
check(np.array_equal(depths[0], depths[1], equal_nan=True), "and the same run to t = 1 s")
Delete(by_vector)
Delete(by_pair)

# 2. Combinations that cannot be used are refused, saying what to set.
for names, expected in (
        (dict(VelocityArray="Velocity", VelocityXArray="U", VelocityYArray="V"),
         "the initial velocity is given twice, by the velocity array 'Velocity' and the arrays "
         "'U' (x) and 'V' (y): set Velocity Array to None"),
        (dict(VelocityArray="None", VelocityXArray="U"),
         "the initial velocity from two arrays needs both: the x array is 'U' and the y array is "
         "None: set Velocity Y Array too"),
        (dict(VelocityArray="None", VelocityXArray="Velocity3", VelocityYArray="V"),
         "the Velocity X Array 'Velocity3' has 3 components: it takes one")):
    text = refusal(**names)
    check(expected in text, "%s is refused: %s" % (names, text.strip()[-300:]))

# 3. Manning Class Array (LandUse) and the Manning Table give the run of the Manning Array that
#    holds each class's n (LandUseN), bit for bit; the closed cell's class (99) is not looked up.
TABLE = [1, 0.03, 2, 0.05, 3, 0.1, 7, 0.2]
flowing = dict(VelocityArray="Velocity")
runs = [solver(ManningArray="LandUseN", **flowing),
        solver(ManningClassArray="LandUse", ManningTable=TABLE, **flowing),
        solver(**flowing)]
same_run(runs, "Manning Class Array with the Manning Table runs as the Manning Array of their "
         "n, bit for bit (and not as the uniform coefficient)")

# 4. What the classes and the table cannot give is refused, naming the class, cell or row.
for names, expected in (
        (dict(ManningClassArray="LandUse", ManningTable=[1, 0.03, 2, 0.05]),
         "the Manning class array 'LandUse' holds class 3 (8 cells), which the Manning Table "
         "has no row for: add a row (class, n) for it"),
        (dict(ManningClassArray="LandUseHalf", ManningTable=TABLE),
         "the Manning class array 'LandUseHalf' holds 2.5 at cell (2, 2), not a whole-number "
         "class"),
        (dict(ManningClassArray="LandUse", ManningTable=[1, 0.03, 2, 1.5, 3, 0.1]),
         "Manning coefficient must be in [0, 1] s/m^(1/3), got 1.5 in row (2, 1.5) of the "
         "Manning Table"),
        (dict(ManningArray="LandUseN", ManningClassArray="LandUse", ManningTable=TABLE),
         "the Manning coefficient is given twice, by the Manning array 'LandUseN' and the "
         "Manning class array 'LandUse': set Manning Array to None to use the classes")):
    text = refusal(**names)
    check(expected in text, "%s is refused: %s" % (names, text.strip()[-300:]))

# 5. Discharge by zone (Zone: zones 0, 1 and 2 of 4, 4 and 1 open cells; the closed cell in
#    none) runs as a point source a cell, each with its zone's discharge over its cell count, bit
#    for bit (cells of 2 m from (100, 200)).
def zone_table(name):
    return CSVReader(FileName=os.path.join(here, "..", "data", name))


ONE, HALF = [0, 1, 100, 1], [0, 0.5, 100, 0.5]
by_hand = []
for x, y, series in ((101, 201, ONE), (103, 201, ONE), (101, 203, ONE), (103, 203, ONE),
                     (109, 201, HALF), (111, 201, HALF), (109, 203, HALF), (111, 203, HALF),
                     (111, 207, HALF)):
    for k in range(0, 4, 2):
        by_hand += [x, y, series[k], series[k + 1]]
table = zone_table("source_zones_table.csv")
runs = [solver(SourceArray="Zone", **flowing), solver(PointSources=by_hand, **flowing),
        solver(**flowing)]
runs[0].Series = table
same_run(runs, "the Source Zone Array with the Series table's Discharge columns runs as a "
         "point source a cell, bit for bit (and not as no sources)")

# 6. Zones that cannot be used are refused, naming the cell, the zone or what to give.
for names, csv, expected in (
        (dict(SourceArray="Zone"), "source_zones_table_two.csv",
         "cell (5, 3) is in source zone 2, but the discharge series give 2 zones (0 to 1)"),
        (dict(SourceArray="ZoneHalf"), "source_zones_table.csv",
         "the source zone array holds 0.5 at cell (5, 3): a zone is a whole number"),
        (dict(SourceArray="Zone"), None,
         "the Source Zone Array 'Zone' gives each cell's source zone: give each zone's discharge"),
        (dict(), "source_zones_table.csv",
         "the Series table gives source zones (Discharge 0, ...): choose the Source Zone Array")):
    with CapturedErrors() as errors:
        proxy = solver(**names)
        if csv:
            proxy.Series = zone_table(csv)
        proxy.UpdatePipeline(0.0)
    Delete(proxy)
    check(expected in errors.text, "%s with %s is refused: %s"
          % (names, csv, errors.text.strip()[-300:]))
say("PASS")
