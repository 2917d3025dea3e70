"""pvpython: times the clock cannot reach and states no flood has are refused before a step,
naming the bound, and nothing hangs. An End Time whose steps underflow (1e-40 s) or past
31.7 years (1e308 s) and a request for the time NaN fail with an error; a request for a time
past either end gets the nearest output time. Restart frames (swe run --restart and the solver's
Restart Frame) with a negative or NaN depth, a flow of 1e10 m/s, a negative SimulationTime or
Steps, or an infinite StepWaveSpeed are refused naming the frame, the cell and the value, and an
initial state with a flow of 1e10 m/s (the solver's Velocity Array) too; the frame unchanged
continues."""
import math
import os
import shutil
import subprocess
import tempfile

from paraview.simple import *
from vtkmodules.vtkIOXML import vtkXMLImageDataReader, vtkXMLImageDataWriter

from swe_testing import CapturedErrors, check, fetch, field_value, load_plugin, say

load_plugin(globals())
tool = os.environ["SWE_TOOL"]
out = os.path.join(os.environ.get("SWE_TEST_OUTPUT", tempfile.mkdtemp()), "bounds")
os.makedirs(out, exist_ok=True)
HANCOCK = "MUSCL-Hancock (second order, terrain, wet/dry, fastest)"

# Times. (On the source's creation its information pass checks the default End Time.)
source = ShallowWater(Resolution=[20, 20], EndTime=2.0, OutputInterval=0.5)
for end, interval, expected in (
        (1e-40, 1e-40, "EndTime must be 0 or at least 1e-30 s, got 1e-40 s"),
        (1e-40, 0.5, "EndTime must be 0 or at least 1e-30 s, got 1e-40 s"),
        (1e308, 1e303, "EndTime must be at most 1e+09 s (31.7 years), got 1e+308 s"),
        (1.0, 1e-40, "OutputInterval must be at least 1e-30 s, got 1e-40 s")):
    with CapturedErrors() as errors:
        source.EndTime = end
        source.OutputInterval = interval
        source.UpdatePipeline(end)
    check(expected in errors.text, "EndTime %g, OutputInterval %g: refused (%s)"
          % (end, interval, errors.text.strip().splitlines()[-1][:160] if errors.text else ""))
source.EndTime = 2.0
source.OutputInterval = 0.5
with CapturedErrors() as errors:
    source.UpdatePipeline(float("nan"))
check("the time requested is NaN" in errors.text, "a request for the time NaN fails")
for asked, answered in ((1e-40, 0.0), (float("inf"), 2.0), (1.7, 1.5)):
    with CapturedErrors() as errors:
        frame = fetch(source, asked)
    check(errors.text == "" and field_value(frame, "SimulationTime") == answered,
          "a request for t = %g gets the output time %g" % (asked, answered))
Delete(source)

# A frame of swe run at t = 0.5 s, then copies of it with one value changed.
model = ["run", "--scenario", "radial-dambreak", "--nx", "30", "--ny", "20", "--scheme",
         "muscl-hancock", "--t-end", "1", "--output-every", "0.5"]
run_dir = os.path.join(out, "run")
shutil.rmtree(run_dir, ignore_errors=True)  # (a folder of an earlier run is refused)
subprocess.run([tool] + model + ["--out", run_dir], check=True, capture_output=True)
frame_file = os.path.join(run_dir, "swe_00001.vti")


def edited(name, change):
    reader = vtkXMLImageDataReader()
    reader.SetFileName(frame_file)
    reader.Update()
    image = reader.GetOutput()
    change(image)
    path = os.path.join(out, name + ".vti")
    writer = vtkXMLImageDataWriter()
    writer.SetInputData(image)
    writer.SetFileName(path)
    writer.Write()
    return path


def cell(image, i, j):
    return j * (image.GetExtent()[1] - image.GetExtent()[0]) + i


def set_depth(value, i, j):
    return lambda image: image.GetCellData().GetArray("Depth").SetTuple1(cell(image, i, j), value)


def set_field(name, value):
    return lambda image: image.GetFieldData().GetArray(name).SetTuple1(0, value)


def set_flow(speed, i, j):
    """Depth 8 m at the cell and the momentum for speed: exact in fp32 for a power of two."""
    def change(image):
        k = cell(image, i, j)
        image.GetCellData().GetArray("Depth").SetTuple1(k, 8.0)
        image.GetCellData().GetArray("Momentum").SetTuple3(k, 8.0 * speed, 0.0, 0.0)
    return change


CASES = [
    ("negative_depth", set_depth(-0.5, 3, 2), "'s depth must be a finite number >= 0 m, got -0.5 m at cell (3, 2)"),
    ("nan_depth", set_depth(math.nan, 7, 4), "'s depth must be a finite number >= 0 m, got nan m at cell (7, 4)"),
    ("fast_flow", set_flow(2.0 ** 33, 5, 6), " at cell (5, 6) is 8589934592 m/s"),
    ("negative_time", set_field("SimulationTime", -5.0), "'s SimulationTime must be >= 0 s, got -5"),
    ("negative_steps", set_field("Steps", -3), "'s Steps must be a whole number in [0, 2147483647], got -3"),
    ("infinite_wave_speed", set_field("StepWaveSpeed", math.inf), "'s StepWaveSpeed must be a finite number of at most"),
]
for name, change, expected in CASES:
    path = edited(name, change)
    done = subprocess.run([tool] + model + ["--restart", path], capture_output=True, text=True,
                          timeout=60)
    check(done.returncode != 0 and ("'%s'%s" % (path, expected)) in done.stderr,
          "swe run --restart %s: refused (%s)" % (name, done.stderr.strip().splitlines()[-1][:200]))
unchanged = edited("unchanged", lambda image: None)
done = subprocess.run([tool] + model + ["--restart", unchanged], capture_output=True, text=True,
                      timeout=60)
check(done.returncode == 0 and "RESULT steps=" in done.stdout,
      "swe run --restart of the frame written again unchanged runs (%s)" % done.stderr[-200:])

# The solver on the run's terrain and first state, continued from the frames.
first = XMLImageDataReader(FileName=os.path.join(run_dir, "swe_00000.vti"))
first.UpdatePipeline()


def solver(input, **more):
    return ShallowWaterSolver(Input=input, BedArray="Bed", DepthArray="Depth",
                              FreeSurfaceArray="None", VelocityArray="None", Scheme=HANCOCK,
                              Precision="Single", EndTime=1.0, OutputInterval=0.5, **more)


for name, expected in (("negative_depth", CASES[0][2]), ("fast_flow", CASES[2][2])):
    restart = XMLImageDataReader(FileName=os.path.join(out, name + ".vti"))
    continued = solver(first, RestartFrame=restart)
    with CapturedErrors() as errors:
        continued.UpdatePipeline(1.0)
    check("the Restart Frame" + expected in errors.text or
          ("the Restart Frame" in errors.text and expected in errors.text),
          "the solver's Restart Frame %s: refused (%s)"
          % (name, errors.text.strip().splitlines()[-1][:200] if errors.text else ""))
    Delete(continued)
    Delete(restart)
restart = XMLImageDataReader(FileName=unchanged)
continued = solver(first, RestartFrame=restart)
with CapturedErrors() as errors:
    later = fetch(continued, 1.0)
check("Error" not in errors.text and field_value(later, "SimulationTime") == 1.0,
      "the solver continues from the frame unchanged to t = 1 s")
Delete(continued)

# An initial state whose Velocity Array holds a flow of 1e10 m/s.
velocity_file = edited("fast_velocity", lambda image: image.GetCellData().GetArray(
    "Velocity").SetTuple3(cell(image, 5, 6), 1e10, 0.0, 0.0))
fast = XMLImageDataReader(FileName=velocity_file)
started = solver(fast)
started.VelocityArray = "Velocity"
with CapturedErrors() as errors:
    started.UpdatePipeline(0.5)
check("the flow of the initial state at cell (5, 6) is 1e+10 m/s" in errors.text and
      "at most 1000 m/s" in errors.text,
      "an initial flow of 1e10 m/s: refused (%s)"
      % (errors.text.strip().splitlines()[-1][:200] if errors.text else ""))
say("PASS")
