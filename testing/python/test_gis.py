"""pvpython: GIS in and out. A GeoTIFF DEM (the valley, in UTM 33N) read by ParaView's GDAL reader
and by swe run --input; the flood maps written as GeoTIFF by the GeoTIFF (Shallow Water) writer
and by swe run --geotiff, placed and projected like the DEM, band by band the frame's values; a
DEM's no-data cells outside the domain."""
import os
import subprocess
import tempfile

import numpy as np
from osgeo import gdal, osr
from paraview.simple import *

from swe_testing import (CapturedErrors, cell_array, check, fail, fetch, field_value, load_plugin,
                         say)

load_plugin(globals())
gdal.UseExceptions()
data = os.environ["SWE_DATA"]
swe = os.environ["SWE_TOOL"]
work = tempfile.mkdtemp(prefix="swe_gis_")

# The valley's ASCII grid as a GeoTIFF in UTM zone 33N, its lower-left corner at (500000,
# 4100000) m; and a copy with no data in a corner.
dem = os.path.join(work, "valley_utm.tif")
gdal.Translate(dem, os.path.join(data, "valley.asc"), outputSRS="EPSG:32633",
               outputBounds=[500000, 4100500, 500800, 4100000])
holed = os.path.join(work, "valley_holed.tif")
gdal.Translate(holed, dem, noData=-9999)
ds = gdal.Open(holed, gdal.GA_Update)
values = ds.GetRasterBand(1).ReadAsArray()
values[0:3, 0:4] = -9999
ds.GetRasterBand(1).WriteArray(values)
ds = None  # (written on closing)
source = gdal.Open(dem)
utm = osr.SpatialReference(wkt=source.GetProjection())


def same_place(path, what):
    """The GeoTIFF at path lies where the DEM does, in its CRS."""
    out = gdal.Open(path)
    check(np.allclose(out.GetGeoTransform(), source.GetGeoTransform()),
          "%s: placed like the DEM %s" % (what, out.GetGeoTransform()))
    check(osr.SpatialReference(wkt=out.GetProjection()).IsSame(utm),
          "%s: in the DEM's CRS (UTM 33N)" % what)
    return out


# 1. In ParaView: the solver on the GeoTIFF DEM, its maps saved with the GeoTIFF writer.
reader = GDALRasterReader(FileName=dem, CollateBands=0)
reader.UpdatePipeline()
flood = ShallowWaterSolver(Input=reader, BedArray="Band 1", InitialWaterLevel=25.0,
                           Scheme="MUSCL-Hancock (second order, terrain, wet/dry, fastest)",
                           BoundaryEast="Open", Rainfall=200.0, FloodMaps=1, EndTime=20.0,
                           OutputInterval=20.0)
frame = fetch(flood, 20.0)
check(frame.GetFieldData().GetAbstractArray("MAP_PROJECTION") is not None,
      "the solver's output carries the DEM's MAP_PROJECTION")
maps = os.path.join(work, "maps.tif")
SaveData(maps, proxy=flood, CellArrays=["MaxDepth", "ArrivalTime", "Depth"])
out = same_place(maps, "the writer's GeoTIFF")
check(out.RasterCount == 3 and [out.GetRasterBand(b + 1).GetDescription() for b in range(3)]
      == ["MaxDepth", "ArrivalTime", "Depth"], "one band per chosen array, named after it")
for b, name in enumerate(["MaxDepth", "ArrivalTime", "Depth"]):
    band = out.GetRasterBand(b + 1)
    # GDAL's rows run from the north, VTK's from the south.
    raster = band.ReadAsArray()[::-1].ravel()
    values = cell_array(frame, name)
    check(np.array_equal(raster, values, equal_nan=True),
          "%s: the frame's values, cell by cell (NaN: %d)" % (name, np.isnan(values).sum()))
    check(np.isnan(band.GetNoDataValue()), "%s: NaN is no data" % name)
check(np.isnan(cell_array(frame, "ArrivalTime")).any()
      and not np.isnan(cell_array(frame, "ArrivalTime")).all(),
      "ArrivalTime is blank where the water never came, and set where it did")
SaveData(os.path.join(work, "crs.tif"), proxy=flood, CellArrays=["MaxDepth"],
         CoordinateReferenceSystem="EPSG:4326")
check(osr.SpatialReference(wkt=gdal.Open(os.path.join(work, "crs.tif")).GetProjection())
      .GetAuthorityCode(None) == "4326", "Coordinate Reference System overrides the DEM's")
with CapturedErrors() as errors:
    SaveData(os.path.join(work, "bad.tif"), proxy=flood, CellArrays=["MaxDepth"],
             CoordinateReferenceSystem="EPSG:nonsense")
check("is not one GDAL knows" in errors.text, "a CRS GDAL does not know is refused by name")

# 2. The DEM with no data in a corner: those cells are outside the domain (not -9999 m pits):
#    blank terrain, hidden, never wet under rain, no data in the GeoTIFF; the balance counts rain
#    on the other cells only.
holed_reader = GDALRasterReader(FileName=holed, CollateBands=0)
holed_reader.UpdatePipeline()
holed_flood = ShallowWaterSolver(Input=holed_reader, BedArray="Band 1", InitialWaterLevel=25.0,
                                 Scheme="MUSCL-Hancock (second order, terrain, wet/dry, fastest)",
                                 BoundaryEast="Open", Rainfall=200.0, EndTime=10.0,
                                 OutputInterval=10.0, Precision="Double", WaterBalance=1)
holed_frame = fetch(holed_flood, 10.0)
closed = np.isnan(cell_array(holed_frame, "Bed"))
ghosts = cell_array(holed_frame, "vtkGhostType")
check(closed.sum() == 12 and np.array_equal(ghosts == 32, closed),
      "the 12 no-data cells are blank terrain and hidden (vtkGhostType HIDDENCELL)")
check(np.all(cell_array(holed_frame, "Depth")[closed] == 0),
      "no water in them after 10 s of rain and flow")
relative = field_value(holed_frame, "RelativeBalanceError")
check(abs(relative) < 1e-12, "the balance closes with rain on the open cells (%.1e)" % relative)
SaveData(os.path.join(work, "holed.tif"), proxy=holed_flood, CellArrays=["Depth"])
blank = np.isnan(gdal.Open(os.path.join(work, "holed.tif")).ReadAsArray()[::-1].ravel())
check(np.array_equal(blank, closed), "the GeoTIFF has no data there")

# 3. swe run --input on the GeoTIFF, --geotiff: the end state and the maps in the DEM's place.
run_dir = os.path.join(work, "run")
result = subprocess.run([swe, "run", "--input", dem, "--water-level", "25", "--scheme",
                         "muscl-hancock", "--boundary", "east=open", "--rain", "200", "--maps",
                         "--t-end", "20", "--output-every", "20", "--out", run_dir, "--geotiff",
                         "--device", "auto"], capture_output=True, text=True)
if result.returncode != 0:
    fail("swe run --geotiff failed: " + result.stderr)
for name in ["Depth", "FreeSurface", "MaxDepth", "MaxSpeed", "MaxHazard", "ArrivalTime",
             "Duration"]:
    tif = same_place(os.path.join(run_dir, name + ".tif"), "swe run's " + name + ".tif")
last = XMLImageDataReader(FileName=os.path.join(run_dir, "swe_00001.vti"))
check(np.array_equal(gdal.Open(os.path.join(run_dir, "MaxDepth.tif")).ReadAsArray()[::-1].ravel(),
                     cell_array(fetch(last, 20.0), "MaxDepth")),
      "swe run's MaxDepth.tif holds its last frame's MaxDepth")
balance_frames = os.path.join(work, "balance")
result = subprocess.run([swe, "run", "--input", holed, "--water-level", "25", "--rain", "200",
                         "--scheme", "muscl-hancock", "--precision", "double", "--t-end", "5",
                         "--output-every", "2.5", "--out", balance_frames, "--balance",
                         "--device", "auto"], capture_output=True, text=True)
check(result.returncode == 0 and "balance_rel_error=" in result.stdout,
      "swe run takes the no-data DEM too: %s" % (result.stdout + result.stderr).strip()[-160:])
error = float(result.stdout.split("balance_rel_error=")[1].split()[0])
check(abs(error) < 1e-12, "and its balance closes (%.1e)" % error)
# Each frame's field data gives the same balance (its initial volume was once 0, its error the
# whole stored water).
frame_errors = []
for k in range(3):
    frame = XMLImageDataReader(FileName=os.path.join(balance_frames, "swe_%05d.vti" % k))
    data = fetch(frame, 0)
    frame_errors.append((field_value(data, "InitialVolume"),
                         field_value(data, "RelativeBalanceError")))
    Delete(frame)
check(all(initial > 0 and abs(relative) < 1e-12 for initial, relative in frame_errors),
      "swe run's frames carry the balance the run gives (%s)" % frame_errors)
# A DEM in latitude and longitude (cells of 0.001 degree, which would run as millimetres) is
# refused by name, in ParaView and by swe run.
geographic = os.path.join(work, "valley_wgs84.tif")
gdal.Translate(geographic, os.path.join(os.environ["SWE_DATA"], "valley.asc"),
               outputSRS="EPSG:4326", outputBounds=[12.0, 45.1, 12.16, 45.0])
degrees = ShallowWaterSolver(Input=GDALRasterReader(FileName=geographic, CollateBands=0),
                             BedArray="Band 1", InitialWaterLevel=25.0)
with CapturedErrors() as errors:
    degrees.UpdatePipeline(0.0)
result = subprocess.run([swe, "run", "--input", geographic, "--water-level", "25", "--t-end",
                         "1"], capture_output=True, text=True)
expected = "the terrain's coordinate reference system is geographic"
check(expected in errors.text and expected in result.stderr and result.returncode != 0,
      "a DEM in degrees is refused: %s" % result.stderr.strip()[-200:])
# A rotated raster, which the reader would lay out north-up, is refused by swe run.
rotated = os.path.join(work, "valley_rotated.tif")
gdal.Translate(rotated, dem)
ds = gdal.Open(rotated, gdal.GA_Update)
ds.SetGeoTransform([500000.0, 4.33, 2.5, 4100500.0, 2.5, -4.33])
ds = None
result = subprocess.run([swe, "run", "--input", rotated, "--water-level", "25", "--t-end", "1"],
                        capture_output=True, text=True)
check(result.returncode != 0 and "is a rotated raster" in result.stderr,
      "a rotated raster is refused by swe run: %s" % result.stderr.strip()[-160:])
# A DEM in US survey feet (the valley placed on Long Island, EPSG:2263): its cells would run as
# metres, 3.3 times too long. Refused with the gdalwarp to its UTM zone (18N), in ParaView (from
# the reader's MAP_PROJECTION) and by swe run.
feet = os.path.join(work, "valley_feet.tif")
gdal.Translate(feet, os.path.join(os.environ["SWE_DATA"], "valley.asc"), outputSRS="EPSG:2263",
               outputBounds=[1000000, 201640, 1002624, 200000])
in_feet = ShallowWaterSolver(Input=GDALRasterReader(FileName=feet, CollateBands=0),
                             BedArray="Band 1", InitialWaterLevel=25.0)
with CapturedErrors() as errors:
    in_feet.UpdatePipeline(0.0)
result = subprocess.run([swe, "run", "--input", feet, "--water-level", "25", "--t-end", "1"],
                        capture_output=True, text=True)
expected = "counts in units of US survey foot (0.3048006096 m)"
check(expected in errors.text and "gdalwarp -t_srs EPSG:32618" in errors.text
      and expected in result.stderr and "gdalwarp -t_srs EPSG:32618 " + feet in result.stderr
      and result.returncode != 0,
      "a DEM in feet is refused, with the gdalwarp that fixes it: %s" % result.stderr.strip()[-300:])
# A GeoTIFF without a geotransform (GDAL gives it cells of 1 x 1, which would run as 1 m).
bare = os.path.join(work, "valley_bare.tif")
raster = gdal.Open(os.path.join(os.environ["SWE_DATA"], "valley.asc"))
copy = gdal.GetDriverByName("GTiff").Create(bare, raster.RasterXSize, raster.RasterYSize, 1,
                                            gdal.GDT_Float32)
copy.GetRasterBand(1).WriteArray(raster.GetRasterBand(1).ReadAsArray())
copy = None
result = subprocess.run([swe, "run", "--input", bare, "--water-level", "25", "--t-end", "1"],
                        capture_output=True, text=True)
check(result.returncode != 0 and "has no geotransform" in result.stderr,
      "a GeoTIFF without a geotransform is refused by swe run: %s" % result.stderr.strip()[-160:])
say("PASS")
