"""The storm study's solver (data/storm_valley.py, the user guide's storm study and its
screenshots): the settings a user would make in the Properties panel, in one place."""
import csv
import os

HERE = os.path.dirname(os.path.abspath(__file__))
END = 2400.0  # the storm and the wave, then ten minutes of draining


def storm_study(terrain, make_solver):
    """The study's solver on terrain (valley.vti read), made by make_solver (ShallowWaterSolver,
    from wherever the plugin was loaded into): what the user guide sets in the panel."""
    with open(os.path.join(HERE, "storm.csv")) as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("#")][1:]
    storm = [float(v) for row in rows for v in row]  # (s, mm/h) pairs, flattened
    flood = make_solver(Input=terrain, ManningCoefficient=0.035, EndTime=END,
                        OutputInterval=300.0, Precision="Single")
    flood.BedArray = "Bed"
    flood.FreeSurfaceArray = "None"  # dry: water only from the sky and the river
    flood.InitialWaterLevel = 0.0
    flood.RainfallSeries = storm
    # A loam's Green-Ampt infiltration: conductivity 10 mm/h, suction head 110 mm, deficit 0.3.
    flood.HydraulicConductivity = 10.0
    flood.SuctionHead = 110.0
    flood.MoistureDeficit = 0.3
    # The river's wave through its channel at the upstream edge (y from 200 to 300 m; the rest of
    # the edge a wall): 1 m^2/s at its peak, 100 m^3/s in all.
    flood.BoundaryWest = "Inflow"
    flood.BoundaryWestStretch = [200.0, 300.0]
    flood.BoundaryWestSeries = [0, 0, 600, 1.0, 1800, 0]
    flood.BoundaryEast = "Open"
    flood.FloodMaps = 1
    flood.ArrivalDepth = 0.05
    flood.Gauges = [200, 250, 400, 250, 700, 210]  # in the channel: upper, middle, lower valley
    flood.WaterBalance = 1
    return flood
