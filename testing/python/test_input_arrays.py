"""pvpython: the Shallow Water Solver's input arrays given in other forms (testing/data/
input_arrays.vti): the initial velocity from two one-component arrays, and the errors of
combinations that cannot be used."""
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
say("PASS")
