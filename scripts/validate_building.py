"""A dam break past an isolated building, against the measurements of Soares-Frazao and Zech
(2007), "Experimental study of dam-break flow against an isolated obstacle", J. Hydraulic Research
45 (extra issue) 27-36 (also the UK Environment Agency's 2D benchmark Test 6A, Neelz and Pender
2013). Run with pvpython (numpy, matplotlib and VTK's Python modules):

    pvpython scripts/validate_building.py [--out DIR] [--dx 0.1 0.05] [--schemes ...]

It writes each grid's terrain (.vti: Bed, NaN in the gate's blocks and the building, which the
engine takes as closed cells, walls; and Depth), runs `swe run` on it with the six gauges to 30 s,
and writes into --out: metrics.csv (each gauge's errors against the measured records, a row a run
and gauge, appended to by every variant run into the same folder), metrics.md (the same as a
table), gauges_<variant>_<dx>.png (each grid's schemes against the data) and
gauges_<variant>_grids.png (the first scheme on every grid). The options after --east change the
set-up, to measure what the gauges are sensitive to.

The flume (the set-up sketch UCL_obstacle.png with the data; data/building_gauges_sites.csv):
35.8 m x 3.6 m, x along it from the reservoir's back wall, y across it from the right-hand wall;
a trapezoidal cross-section (side slopes rising 0.155 m over the 0.34 m next to each wall) but at
the gate, whose two blocks (x 6.75-7.55 m, y < 1.3 m and y > 2.3 m) leave a 1 m opening; the
building, 0.8 m x 0.4 m, its corner b1 at (10.99, 1.75), its long side at 64 degrees to the
flume's axis; 0.4 m of water in the reservoir, 0.02 m in the channel; Manning n = 0.01.
"""
import argparse
import csv
import math
import os

import numpy as np

import validation_common as common
from validation_common import DATA, read_csv_rows, write_vti

LENGTH, WIDTH = 35.8, 3.6
GATE_X = (6.75, 7.55)  # the blocks' upstream and downstream faces
GATE_Y = (1.3, 2.3)  # the opening between them
SLOPE_HEIGHT, SLOPE_WIDTH = 0.155, 0.34
BUILDING_CORNER, BUILDING_ANGLE = (10.99, 1.75), 64.0  # b1 and the long side's angle (degrees)
BUILDING_SIZE = (0.8, 0.4)
RESERVOIR_LEVEL, CHANNEL_LEVEL = 0.4, 0.02
HIGH_BED = 1.0  # a block or the building as terrain (1 m, above any water) instead of closed cells
GAUGES = 6


def building_polygon(corner=BUILDING_CORNER, angle=BUILDING_ANGLE, size=BUILDING_SIZE):
    """The building's corners b1, b4, b3, b2: the long side from b1 at `angle`, the short side at
    angle - 90 degrees (the sketch's inset)."""
    a = math.radians(angle)
    along = np.array([math.cos(a), math.sin(a)]) * size[0]
    across = np.array([math.cos(a - math.pi / 2), math.sin(a - math.pi / 2)]) * size[1]
    b1 = np.array(corner)
    return np.array([b1, b1 + along, b1 + along + across, b1 + across])


def inside_polygon(x, y, polygon):
    """Whether the points (x, y) lie inside the convex polygon (corners in either order)."""
    signs = []
    for k in range(len(polygon)):
        (x0, y0), (x1, y1) = polygon[k], polygon[(k + 1) % len(polygon)]
        signs.append((x1 - x0) * (y - y0) - (y1 - y0) * (x - x0))
    signs = np.array(signs)
    return np.all(signs > 0, axis=0) | np.all(signs < 0, axis=0)


def terrain(dx, options):
    """Cell-centred Bed (NaN where closed) and Depth, the grid's origin and its size. The grid's
    x edges fall on the gate's faces (the origin is shifted by less than a cell for that, so at
    0.1 m the reservoir is 6.8 m long, not 6.75 m); its y edges on the walls."""
    x0 = GATE_X[0] - dx * round(GATE_X[0] / dx)
    nx = int(round((LENGTH - x0) / dx))  # the far end within half a cell of 35.8 m
    ny = int(round(WIDTH / dx))
    pad = 1 if options.closed_walls else 0  # a ring of closed cells as the flume's walls
    x0, nx, ny = x0 - pad * dx, nx + 2 * pad, ny + 2 * pad
    x = x0 + (np.arange(nx) + 0.5) * dx
    y = (np.arange(ny) - pad + 0.5) * dx
    X, Y = np.meshgrid(x, y)  # rows along y, x fastest: VTK's cell order
    bed = np.zeros_like(X)
    if options.side_slopes:
        rise = SLOPE_HEIGHT / SLOPE_WIDTH
        bed = np.maximum(bed, rise * (SLOPE_WIDTH - Y))
        bed = np.maximum(bed, rise * (Y - (WIDTH - SLOPE_WIDTH)))
    in_gate = (X > GATE_X[0]) & (X < GATE_X[1])
    blocks = in_gate & ((Y < GATE_Y[0]) | (Y > GATE_Y[1]))
    bed[in_gate & ~blocks] = 0.0  # the gate's section is rectangular
    building = building_polygon(angle=options.building_angle)
    if options.mirror_building:  # turned the other way across the flume, about its centre
        building[:, 1] = 2 * building[:, 1].mean() - building[:, 1]
    house = inside_polygon(X, Y, building)
    level = np.where(X < GATE_X[1], RESERVOIR_LEVEL, options.channel_level)
    depth = np.maximum(level - bed, 0.0)
    solid = blocks | house | (X < x0 + pad * dx) | (X > x0 + (nx - pad) * dx)
    solid |= (Y < 0) | (Y > WIDTH)
    if options.obstacles == "closed":
        bed[solid] = np.nan
    else:
        bed[solid] = HIGH_BED
    depth[solid] = 0.0
    return bed, depth, (x0, -pad * dx), (nx, ny)


def gauge_sites():
    header, rows = read_csv_rows(os.path.join(DATA, "building_gauges_sites.csv"))
    return [(float(r[1]), float(r[2])) for r in rows]


def measured():
    """Measured depth (t, h[6]) and velocity (t, u[5], v[5]) as arrays, NaN where not recorded."""
    _, rows = read_csv_rows(os.path.join(DATA, "building_gauges_depth.csv"))
    depth = np.array(rows, dtype=float)
    _, rows = read_csv_rows(os.path.join(DATA, "building_gauges_velocity.csv"))
    vel = np.array([[float(v) if v.strip() else np.nan for v in r] for r in rows])
    return depth[:, 0], depth[:, 1:], vel[:, 0], vel[:, 1::2], vel[:, 2::2]


def run_swe(options, vti, dx, scheme, out):
    extra = ["--boundary", "east=" + options.east] if options.east != "wall" else []
    return common.run_swe(options, vti, scheme, out, gauge_sites(), extra)


def read_gauges(out):
    return common.read_gauges(out, GAUGES)


def front_time(t, h, gauge, threshold=0.03):
    """When the front reaches a gauge: depth first at or above 0.03 m downstream (the channel's
    layer is 0.02 m); in the reservoir (G6) the falling wave, depth first below 0.39 m."""
    hit = h <= RESERVOIR_LEVEL - 0.01 if gauge == GAUGES - 1 else h >= threshold
    return t[np.argmax(hit)] if hit.any() else float("nan")


def jump_time(t, h, after=5.0, depth=0.07):
    """When the jump that comes back upstream from the building passes G2: its depth first at or
    above 0.07 m after 5 s (before it, 0.03-0.05 m; after it, about 0.1 m)."""
    hit = (t >= after) & (h >= depth)
    return t[np.argmax(hit)] if hit.any() else float("nan")


def metrics(t, h, u, v, meas):
    """Per gauge: the mean absolute depth error over the measured record (0-30 s; a gauge's
    record before its front arrives reads 0, compared as the channel's 0.02 m), the mean depth
    over 15-30 s (modelled and measured), the front's arrival (modelled and measured), at G2 the
    returning jump's passage, and the mean speed over the speed record (modelled and measured)."""
    tm, hm, tv, um, vm = meas
    rows = []
    for g in range(GAUGES):
        record = hm[:, g].copy()
        if g != GAUGES - 1:
            record[record <= 0.0] = CHANNEL_LEVEL
        model = np.interp(tm, t, h[:, g])
        late = (tm >= 15.0) & (tm <= 30.0)
        row = {
            "gauge": "G%d" % (g + 1),
            "mae_depth": np.mean(np.abs(model - record)),
            "mean_depth_15_30": np.mean(model[late]),
            "measured_mean_depth_15_30": np.mean(record[late]),
            "arrival": front_time(t, h[:, g], g),
            "measured_arrival": front_time(tm, hm[:, g], g),
        }
        row["jump"] = row["measured_jump"] = float("nan")
        if g == 1:  # G2: the jump coming back upstream past it
            row["jump"] = jump_time(t, h[:, g])
            row["measured_jump"] = jump_time(tm, record)
        if g < 5:
            speed_m = np.hypot(um[:, g], vm[:, g])
            ok = ~np.isnan(speed_m)
            speed = np.hypot(np.interp(tv, t, u[:, g]), np.interp(tv, t, v[:, g]))
            row["mean_speed"] = np.mean(speed[ok])
            row["measured_mean_speed"] = np.mean(speed_m[ok])
        else:
            row["mean_speed"] = row["measured_mean_speed"] = float("nan")
        rows.append(row)
    return rows


def plot(path, runs, meas, title):
    tm, hm, tv, um, vm = meas
    fig, axes = common.pyplot().subplots(3, 2, figsize=(10, 8), sharex=True)
    for g, ax in enumerate(axes.ravel()):
        ax.plot(tm, hm[:, g], "k", lw=0.8, label="measured")
        for label, (t, h, u, v) in runs:
            ax.plot(t, h[:, g], lw=1.0, label=label)
        ax.set_title("G%d" % (g + 1))
        ax.set_xlim(0, 30)
        ax.set_ylim(0, 0.42 if g == GAUGES - 1 else 0.2)
        ax.grid(alpha=0.3)
        if g % 2 == 0:
            ax.set_ylabel("depth (m)")
        if g >= 4:
            ax.set_xlabel("time (s)")
    axes[0, 0].legend(fontsize=8)
    common.save_figure(fig, path, title)


METRICS = ("mae_depth", "mean_depth_15_30", "measured_mean_depth_15_30", "arrival",
           "measured_arrival", "jump", "measured_jump", "mean_speed", "measured_mean_speed")


# What --check asserts of every run (set from the 0.1 m runs of both schemes on the 2-core PoCL
# VM, 2026-12-07, with a margin): the mean absolute depth error per gauge (m; G2's bound is the
# known gap: the jump that comes back upstream past it at 14.5 s is not reproduced), and the
# fronts' arrival after the measured ones (s; the records' clock starts 0.5-0.7 s after the
# modelled gate opening at every gauge).
MAE_BOUNDS = {"G1": 0.015, "G2": 0.04, "G3": 0.015, "G4": 0.02, "G5": 0.015, "G6": 0.005}
ARRIVAL_LAG = (0.0, 0.8)


def parse_options():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    common.add_run_options(parser, "validate_building", [0.1, 0.05], 0.01, 30.0)
    # The set-up's variants, to test what the gauges are sensitive to:
    parser.add_argument("--east", default="wall", help="the flume's far end: wall or open")
    parser.add_argument("--obstacles", choices=["closed", "high"], default="closed",
                        help="the gate's blocks and the building as closed (no-data) cells, or "
                        "as terrain 1 m high")
    parser.add_argument("--no-side-slopes", dest="side_slopes", action="store_false",
                        help="a rectangular flume (the sketch's trapezoid left out)")
    parser.add_argument("--channel-level", type=float, default=CHANNEL_LEVEL,
                        help="the channel's initial water level (m; the paper's 0.02)")
    parser.add_argument("--building-angle", type=float, default=BUILDING_ANGLE)
    parser.add_argument("--closed-walls", action="store_true",
                        help="the flume's walls as a ring of closed cells, not the grid's sides")
    parser.add_argument("--mirror-building", action="store_true",
                        help="the building mirrored across the flume about its centre")
    parser.add_argument("--label", default="", help="a name for this variant in metrics.csv")
    parser.add_argument("--check", action="store_true",
                        help="check each run's errors against the bounds the paper's set-up "
                        "meets (MAE_BOUNDS, ARRIVAL_LAG): prints PASS or FAIL lines")
    parser.add_argument("swe_args", nargs="*", help="more `swe run` options, after --")
    return parser.parse_args()


# metrics.md's columns.
SUMMARY = [("variant", common.field("variant")), ("dx (m)", common.field("dx")),
           ("scheme", common.field("scheme")), ("gauge", common.field("gauge")),
           ("MAE depth (m)", lambda row: common.cell(row, "mae_depth")),
           ("mean depth 15-30 s (m), model / measured",
            common.model_measured("mean_depth_15_30")),
           ("front arrival (s), model / measured", common.model_measured("arrival")),
           ("G2 jump (s), model / measured", common.model_measured("jump")),
           ("mean speed (m/s), model / measured", common.model_measured("mean_speed"))]


def run_grid(options, dx, meas, writer):
    """Writes the terrain at dx, runs each scheme on it and writes its rows and plot."""
    bed, depth, origin, (nx, ny) = terrain(dx, options)
    variant = options.label or "baseline"
    tag = "%s_%g" % (variant, dx)
    vti = os.path.join(options.out, "building_%s.vti" % tag)
    write_vti(vti, bed, depth, origin, dx)
    runs, checked = [], []
    for scheme in options.schemes:
        run_dir = os.path.join(options.out, "%s_%s" % (tag, scheme))
        command, steps, seconds = run_swe(options, vti, dx, scheme, run_dir)
        t, h, u, v = read_gauges(run_dir)
        runs.append(("%s %g m" % (scheme, dx), (t, h, u, v)))
        for row in metrics(t, h, u, v, meas):
            checked.append(dict(row, run="%s %g m" % (scheme, dx)))
            writer.writerow([variant, dx, scheme, row["gauge"]] +
                            ["%.4f" % row[k] for k in METRICS] +
                            [steps, "%.1f" % seconds, command])
        print("%s dx=%g %s: %d x %d cells, %d steps, %.1f s" %
              (variant, dx, scheme, nx, ny, steps, seconds))
    plot(os.path.join(options.out, "gauges_%s.png" % tag), runs, meas,
         "Dam break past a building (Soares-Frazao & Zech 2007), dx = %g m, %s" % (dx, variant))
    return runs, checked


def main():
    options = parse_options()
    os.makedirs(options.out, exist_ok=True)
    meas = measured()
    table = os.path.join(options.out, "metrics.csv")  # one file for every variant run into --out
    header = ["variant", "dx", "scheme", "gauge"] + list(METRICS) + ["steps", "seconds", "command"]
    first_scheme, checked = common.run_grids(
        options, table, header, lambda dx, writer: run_grid(options, dx, meas, writer))
    if options.check:
        common.check(checked, MAE_BOUNDS, ARRIVAL_LAG, skip_arrival=("G6",))
    if len(options.dx) > 1:
        variant = options.label or "baseline"
        plot(os.path.join(options.out, "gauges_%s_grids.png" % variant), first_scheme, meas,
             "Dam break past a building (Soares-Frazao & Zech 2007), %s, %s" %
             (options.schemes[0], variant))
    with open(table) as f:
        common.write_summary(os.path.join(options.out, "metrics.md"), list(csv.DictReader(f)),
                             SUMMARY)


if __name__ == "__main__":
    main()
