"""Turns scripts/validate's results into a Markdown table with observed orders, and plots the
profiles against the exact solutions (numpy + matplotlib, Debian packages)."""
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

out = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(out, "results.csv"))))

lines = ["| case | scheme | cells | L1 error of h (m²) | observed order | steps | mass drift |",
         "|---|---|---|---|---|---|---|"]
previous = {}
for r in rows:
    key = (r["case"], r["scheme"])
    if r["l1"] == "n/a":
        lines.append("| %s | %s | %s | n/a: %s | | | |" % (r["case"], r["scheme"], r["nx"],
                                                      r["mass_rel_drift"].strip('"')[:60]))
        continue
    l1 = float(r["l1"])
    order = ""
    if key in previous:
        order = "%.2f" % math.log2(previous[key] / l1)
    previous[key] = l1
    lines.append("| %s | %s | %s | %.3e | %s | %s | %s |" % (r["case"], r["scheme"], r["nx"], l1,
                                                            order, r["steps"], r["mass_rel_drift"]))
table = "\n".join(lines) + "\n"

radial = list(csv.DictReader(open(os.path.join(out, "radial.csv"))))
table += ("\nRadial dam break (200 m basin, t = 3 s): largest |h(x, y) - h(y, x)| and |h - h rotated by"
          " 90 degrees| in metres, and the azimuthal spread (mean |h(r, 0) - h(r, 45 deg)| over"
          " the wave's height).\n\n| scheme | cells | x<->y | rotation | azimuthal spread |"
          " mass drift |\n|---|---|---|---|---|---|\n")
for r in radial:
    table += "| %s | %s² | %s | %s | %s | %s |\n" % (r["scheme"], r["nx"], r["transpose"],
                                                    r["rotation"], r["azimuthal_spread"],
                                                    r["mass_rel_drift"])
mass = list(csv.DictReader(open(os.path.join(out, "mass.csv"))))
table += ("\nMass in closed basins (walls on every side), fp64: relative drift |m - m0| / m0 at the"
          " end.\n\n| scenario | scheme | cells | t (s) | steps | mass drift |\n"
          "|---|---|---|---|---|---|\n")
for r in mass:
    table += "| %s | %s | %s | %s | %s | %s |\n" % (r["scenario"], r["scheme"], r["cells"],
                                                   r["t_end"], r["steps"], r["mass_rel_drift"])
open(os.path.join(out, "results.md"), "w").write(table)
print(table)

for case in ("stoker", "ritter"):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    exact_drawn = False
    for scheme, style in (("lax-friedrichs", "--"), ("muscl-hllc", "-"), ("muscl-hancock", ":")):
        for nx in (100, 800):
            path = os.path.join(out, "%s_%s_%d.csv" % (case, scheme, nx))
            if not os.path.exists(path):
                continue
            data = np.genfromtxt(path, delimiter=",", names=True)
            if not exact_drawn:
                fine = os.path.join(out, "%s_muscl-hllc_800.csv" % case)
                ref = np.genfromtxt(fine, delimiter=",", names=True)
                ax.plot(ref["x"], ref["exact"] * 1000, "k-", lw=2.5, alpha=0.35, label="exact")
                exact_drawn = True
            ax.plot(data["x"], data["h"] * 1000, style, lw=1.2, label="%s, %d cells" % (scheme, nx))
    ax.set_xlabel("x [m]")
    ax.set_ylabel("depth h [mm]")
    ax.set_title("%s dam break at t = 6 s (SWASHES: L = 10 m, dam at 5 m, h_l = 5 mm)" % case.capitalize())
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "%s.png" % case), dpi=110)
    print("wrote", os.path.join(out, "%s.png" % case))
