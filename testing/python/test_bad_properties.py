"""pvpython: every bad property value gives an error naming it, and ParaView keeps working."""
import math

from paraview.simple import *

from swe_testing import CapturedErrors, say, cell_array, check, fetch, field_value, load_plugin

load_plugin(globals())

GOOD = dict(Resolution=[40, 30], CellSize=1.0, ManningCoefficient=0.0, CourantNumber=0.45,
            Gravity=9.81, FixedTimeStep=0.0, EndTime=2.0, OutputInterval=0.5, Device="auto", Precision="Single",
            Scenario="Dam break (thesis)", Scheme="Lax-Friedrichs (thesis)", BoundaryNorth="Wall",
            BoundaryNorthDischarge=0.0, BoundaryNorthLevel=0.0)
src = ShallowWater(**GOOD)
d = fetch(src, 1.0)
reference = cell_array(d, "Depth").copy()

nan, inf = float("nan"), float("inf")
BAD = [
    ("Resolution", [0, 30], "Resolution must be at least 1 x 1 cells, got 0 x 30"),
    ("Resolution", [40, -3], "got 40 x -3"),
    ("Resolution", [100000, 100000], "grid 100000 x 100000"),
    ("Resolution", [30000, 30000], "grid 30000 x 30000 needs"),
    ("CellSize", 0.0, "cell size dx must be > 0 m, got 0"),
    ("CellSize", -2.0, "got -2"),
    ("CellSize", nan, "cell size dx must be a finite number"),
    ("ManningCoefficient", -0.01, "Manning coefficient must be in [0, 1] s/m^(1/3), got -0.01"),
    ("ManningCoefficient", inf, "Manning coefficient must be a finite number"),
    ("CourantNumber", 0.0, "Courant number (CFL) must be in [0.001, 1], got 0"),
    ("CourantNumber", 1.5, "got 1.5"),
    # Refused beside 1 with the digits that make it so (it was shown as "got 1").
    ("CourantNumber", 1.0000001, "must be in [0.001, 1], got 1.0000001"),
    ("CourantNumber", nan, "Courant number (CFL) must be a finite number"),
    ("Gravity", 0.0, "gravity must be in [0.01, 100] m/s^2, got 0"),
    # Values the arithmetic cannot carry meaningfully, refused by the engine with the range.
    ("CellSize", 1e308, "cell size dx must be in [0.001, 100000] m, got 1e+308"),
    ("CellSize", 1e-30, "cell size dx must be in [0.001, 100000] m, got 1e-30"),
    ("ManningCoefficient", 1e30, "Manning coefficient must be in [0, 1] s/m^(1/3), got 1e+30"),
    ("CourantNumber", 1e-40, "Courant number (CFL) must be in [0.001, 1], got 1e-40"),
    ("Gravity", 1e-40, "gravity must be in [0.01, 100] m/s^2, got 1e-40"),
    ("EndTime", -1.0, "EndTime must be >= 0 s, got -1"),
    ("EndTime", nan, "EndTime must be a finite number"),
    ("EndTime", inf, "EndTime must be a finite number"),
    ("OutputInterval", 0.0, "OutputInterval must be > 0 s, got 0"),
    ("OutputInterval", -0.5, "OutputInterval must be > 0 s"),
    ("OutputInterval", 1e-9, "more than a million output times"),
    ("Device", "no-such-device", "unknown OpenCL device 'no-such-device'"),
    ("Precision", 7, "Precision must be 0 (single) or 1 (double), got 7"),
    ("Scenario", 9, "Scenario must be between 0 and 7, got 9"),
    ("Scheme", 4, "Scheme must be between 0 and 2, got 4"),
    ("BoundaryNorth", 7, "the north boundary type must be between 0 and 3, got 7"),
    # A side's value is checked when its type uses it.
    ("BoundaryNorth", 2, "north boundary discharge must be a finite number", dict(BoundaryNorthDischarge=nan)),
    ("BoundaryNorth", 3, "north boundary level must be a finite number", dict(BoundaryNorthLevel=inf)),
    ("FixedTimeStep", -0.1, "fixed time step dt must be at least 1e-06 s, or 0, got -0.1"),
    # 14 m/s waves, dx = 1 m: a 0.5 s step is 7 times the Courant limit. Refused before the
    # first step, with the Courant number and a dt that works.
    ("FixedTimeStep", 0.5, "the fixed time step dt = 0.5 s is too long at step 1 (t = 0 s)"),
]

# A grid whose run needs more host memory than this machine has (the frames, checkpoints and a
# CPU device's buffers: about 156 bytes a cell in fp32), which the device's own memory check
# lets through where the device is the host's CPU: refused with the numbers, not killed by the
# OOM killer once the run has filled the memory.
mem_total = next(int(line.split()[1]) * 1024 for line in open("/proc/meminfo")
                 if line.startswith("MemTotal:"))
side = min(46000, int(math.sqrt(1.1 * mem_total / 156)))
BAD.append(("Resolution", [side, side], "grid %d x %d needs " % (side, side)))

for name, value, expected, *others in BAD:
    others = others[0] if others else {}
    with CapturedErrors() as errors:
        for other, other_value in others.items():
            src.SetPropertyWithName(other, other_value)
        src.SetPropertyWithName(name, value)
        src.UpdatePipeline(1.0)
    check(expected in errors.text, "%s = %r: error says '%s'" % (name, value, expected))
    # Back to the good values: the source works again and gives the same answer as before.
    for restored in [name] + list(others):
        src.SetPropertyWithName(restored, GOOD[restored])
    with CapturedErrors() as errors:
        d = fetch(src, 1.0)
    check(errors.text == "" and field_value(d, "SimulationTime") == 1.0
          and (cell_array(d, "Depth") == reference).all(),
          "%s restored: the source recovers (%s)" % (name, errors.text.strip()[:200]))

# A time that is not a number is named as one (it was taken as -4.6e18 s), and the source
# recovers.
with CapturedErrors() as errors:
    src.UpdatePipeline(nan)
check("the time requested is NaN (not a number): ask for a time in [0, 2] s" in errors.text,
      "UpdatePipeline(nan): the error says the time is NaN (%s)" % errors.text.strip()[:200])
with CapturedErrors() as errors:
    d = fetch(src, 1.0)
check(errors.text == "" and field_value(d, "SimulationTime") == 1.0,
      "after UpdatePipeline(nan): the source recovers (%s)" % errors.text.strip()[:200])
say("PASS")
