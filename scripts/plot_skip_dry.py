"""Plots what skipping dry land gains against the wet share of the grid, from the DRY lines of
`swe bench --dry-speedup` runs (each after a line "== ARGS" naming its options, as
.device-style logs hold them):

    python3 scripts/plot_skip_dry.py docs/performance/skip_dry_h200.txt docs/images/skip_dry_speedup.png

Runs with --wet-fraction (still water over that share, dry flat land beyond) are drawn as lines
per precision; the valley dam break (--scenario valley-dambreak) and the all-wet dam break as points."""
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def runs(path):
    args = None
    for line in open(path):
        if line.startswith("== "):
            args = line[3:].strip()
        elif line.startswith("DRY ") and args is not None:
            values = dict(field.split("=") for field in line.split()[1:])
            yield args, float(values["wet_share"]), float(values["speedup"])


def main(log, image):
    series = {}
    valley = []
    for args, wet, speedup in runs(log):
        precision = "fp64" if "--precision double" in args else "fp32"
        size = re.search(r"--nx (\d+)", args).group(1)
        if "--wet-fraction" in args and "--boundary" not in args:
            series.setdefault(f"{precision}, {size}²", []).append((wet, speedup))
        elif "valley-dambreak" in args and "muscl-hancock" in args and "--maps" not in args:
            valley.append((wet, speedup, f"valley {precision}, {size}²"))
        elif "--scenario dambreak" in args and "muscl-hancock" in args:
            valley.append((wet, speedup, f"all wet (dam break) {precision}, {size}²"))
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for label, points in sorted(series.items()):
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points], "o-", label=f"water over a share, {label}")
    for wet, speedup, label in valley:
        ax.plot([wet], [speedup], "s", label=label)
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.axhline(3.0, color="grey", linewidth=0.8, linestyle=":")
    ax.axvline(0.2, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlabel("wet share of the cells")
    ax.set_ylabel("speed-up against skipping off")
    ax.set_title("Skipping dry land, MUSCL-Hancock, NVIDIA H200")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, None)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(image, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
