"""Shared parts of the measured-data validations (scripts/validate_building.py,
scripts/validate_sill.py): writing a terrain as .vti, reading the data's CSV files, running
`swe run` with gauges and reading its gauge records back. Needs numpy and VTK's Python modules
(run under pvpython)."""
import csv
import os
import re
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(ROOT, "data")


def write_vti(path, bed, depth, origin, dx):
    """Writes cell arrays Bed and Depth (rows along y, x fastest) as a zlib-compressed .vti."""
    from vtkmodules.util.numpy_support import numpy_to_vtk
    from vtkmodules.vtkCommonDataModel import vtkImageData
    from vtkmodules.vtkIOXML import vtkXMLImageDataWriter

    ny, nx = bed.shape
    image = vtkImageData()
    image.SetDimensions(nx + 1, ny + 1, 1)
    image.SetSpacing(dx, dx, dx)
    image.SetOrigin(origin[0], origin[1], 0.0)
    for name, values in (("Bed", bed), ("Depth", depth)):
        array = numpy_to_vtk(values.ravel().astype(np.float64), deep=True)
        array.SetName(name)
        image.GetCellData().AddArray(array)
    writer = vtkXMLImageDataWriter()
    writer.SetFileName(path)
    writer.SetInputData(image)
    writer.SetDataModeToBinary()
    writer.SetCompressorTypeToZLib()
    writer.Write()


def read_csv_rows(path):
    """The header and rows of a CSV file, its '#' comment lines skipped."""
    with open(path) as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("#")]
    return rows[0], rows[1:]


def run_swe(options, vti, scheme, out, gauges, extra=()):
    """Runs `swe run` on vti with the gauges [(x, y)] sampled every 0.01 s; options gives swe,
    precision, manning and t_end. Returns the command line, the step count and the seconds."""
    command = [options.swe, "run", "--input", vti, "--bed-array", "Bed", "--depth-array", "Depth",
               "--scheme", scheme, "--precision", options.precision, "--manning",
               str(options.manning), "--t-end", str(options.t_end), "--output-every", "0",
               "--gauge-interval", "0.01", "--out", out, "--overwrite", "--arrays", "Depth"]
    command += list(extra)
    for gx, gy in gauges:
        command += ["--gauge", "%g,%g" % (gx, gy)]
    command += options.swe_args
    started = time.time()
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("swe failed (%s):\n%s" % (" ".join(command), result.stderr[-3000:]))
    line = [l for l in result.stdout.splitlines() if l.startswith("RESULT")][-1]
    steps = int(re.search(r"steps=(\d+)", line).group(1))
    return " ".join(command), steps, time.time() - started


def read_gauges(out, count):
    """A run's gauge records: time and, a column a gauge, depth, u and v."""
    header, rows = read_csv_rows(os.path.join(out, "gauges.csv"))
    values = np.array(rows, dtype=float)
    t = values[:, 0]
    pick = lambda name: np.stack([values[:, header.index("g%d_%s" % (g, name))]
                                  for g in range(1, count + 1)], axis=1)
    return t, pick("depth"), pick("u"), pick("v")


def add_run_options(parser, name, dx, manning, t_end):
    """The options every validation takes: the swe tool, the output folder (build/<name> by
    default), the grids, the schemes, the precision, Manning's n and the end time."""
    build = os.environ.get("SWE_BUILD_DIR", os.path.join(ROOT, "build"))
    parser.add_argument("--swe", default=os.path.join(build, "apps", "swe"))
    parser.add_argument("--out", default=os.path.join(build, name))
    parser.add_argument("--dx", type=float, nargs="+", default=dx)
    parser.add_argument("--schemes", nargs="+", default=["muscl-hllc", "muscl-hancock"])
    parser.add_argument("--precision", default="double")
    parser.add_argument("--manning", type=float, default=manning)
    parser.add_argument("--t-end", type=float, default=t_end)


def run_grids(options, table, header, run_grid):
    """Runs run_grid(dx, writer) for each of options.dx, appending its rows to the CSV table
    (header written when the table is new). Returns the first scheme's run on every grid (for one
    plot) and every run's checked rows."""
    fresh = not os.path.exists(table)
    with open(table, "a", newline="") as f:
        writer = csv.writer(f)
        if fresh:
            writer.writerow(header)
        first_scheme, checked = [], []
        for dx in options.dx:
            runs, rows = run_grid(dx, writer)
            first_scheme.append(runs[0])
            checked += rows
            f.flush()
    return first_scheme, checked


def check(rows, mae_bounds, arrival_lag, skip_arrival=()):
    """Prints PASS, or a FAIL line for each bound a run's row breaks: its mean absolute depth
    error above its gauge's bound, or its front's arrival minus the measured one outside
    arrival_lag (s; not for the gauges in skip_arrival)."""
    failed = False
    for r in rows:
        lag = r["arrival"] - r["measured_arrival"]
        if not r["mae_depth"] <= mae_bounds[r["gauge"]]:
            print("FAIL: %s %s: mean absolute depth error %.4f m > %g m" %
                  (r["run"], r["gauge"], r["mae_depth"], mae_bounds[r["gauge"]]))
            failed = True
        if r["gauge"] not in skip_arrival and not arrival_lag[0] <= lag <= arrival_lag[1]:
            print("FAIL: %s %s: the front arrives %.2f s after the measured one, not within "
                  "%g to %g s" % (r["run"], r["gauge"], lag, *arrival_lag))
            failed = True
    if not failed:
        print("PASS: %d gauge records within the bounds" % len(rows))


def cell(row, key):
    """A metrics.csv value for a Markdown table: 3 digits, '-' where not measured."""
    return "-" if row[key] == "nan" else "%.3g" % float(row[key])


def pair(row, model, measured):
    """'model / measured' for a Markdown table, '-' where neither has a value."""
    if row[model] == row[measured] == "nan":
        return "-"
    return cell(row, model) + " / " + cell(row, measured)


def field(key):
    """A summary column: metrics.csv's text as it stands."""
    return lambda row: row[key]


def model_measured(key):
    """A summary column: 'model / measured' of key and measured_key."""
    return lambda row: pair(row, key, "measured_" + key)


def write_summary(path, rows, columns):
    """metrics.md: a Markdown table, a line for each of metrics.csv's rows; columns are
    (heading, text of a row) pairs."""
    with open(path, "w") as f:
        f.write("| " + " | ".join(heading for heading, _ in columns) + " |\n")
        f.write("|" + "---|" * len(columns) + "\n")
        for row in rows:
            f.write("| " + " | ".join(text(row) for _, text in columns) + " |\n")


def pyplot():
    """matplotlib's pyplot, drawing to files (no display)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig, path, title):
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    pyplot().close(fig)
