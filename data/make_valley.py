"""Generates the synthetic valley DEM kept beside it (run with pvpython, which has numpy and VTK):

    pvpython data/make_valley.py data

- valley.tif: a GeoTIFF for ParaView's GDAL Raster Reader: band 1 the terrain (read as
  "Elevation"), band 2 the initial water depth of a reservoir held by a dam across the upper
  valley (water at 42 m behind it, dry below; read as "Band 2"). Written only where GDAL's Python
  bindings are installed (Debian: python3-gdal);
- valley.asc: an ESRI ASCII grid of the terrain alone;
- valley.vti: the same terrain as cell data "Bed", plus "FreeSurface": the reservoir's surface.

The valley: 160 x 100 cells of 5 m (800 m x 500 m); the floor falls from 40 m to 20 m along x,
the sides rise 12 m over 250 m, a 3 m deep meandering channel runs along the floor, and a low
hill stands on the flood plain."""
import os
import sys

import numpy as np
from vtkmodules.util.numpy_support import numpy_to_vtk
from vtkmodules.vtkCommonDataModel import vtkImageData
from vtkmodules.vtkIOXML import vtkXMLImageDataWriter

out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
nx, ny, dx = 160, 100, 5.0
x = (np.arange(nx) + 0.5) * dx
y = (np.arange(ny) + 0.5) * dx
X, Y = np.meshgrid(x, y)  # rows along y, x fastest: VTK's cell order

floor = 40.0 - 20.0 * X / (nx * dx)
centre = 250.0 + 40.0 * np.sin(2 * np.pi * X / 400.0)  # the channel meanders
across = np.abs(Y - centre)
sides = 12.0 * np.clip((across - 30.0) / 220.0, 0, None) ** 1.5
channel = -3.0 * np.exp(-((across / 12.0) ** 2))
hill = 4.0 * np.exp(-(((X - 520.0) / 40.0) ** 2 + ((Y - 330.0) / 30.0) ** 2))
bed = floor + sides + channel + hill

# A reservoir behind a dam at x = 150 m: its water stands at 42 m.
surface = np.where(X < 150.0, np.maximum(42.0, bed), bed)

image = vtkImageData()
image.SetDimensions(nx + 1, ny + 1, 1)
image.SetSpacing(dx, dx, dx)
for name, values in (("Bed", bed), ("FreeSurface", surface)):
    array = numpy_to_vtk(values.ravel().astype(np.float64), deep=True)
    array.SetName(name)
    image.GetCellData().AddArray(array)
writer = vtkXMLImageDataWriter()
writer.SetFileName(os.path.join(out, "valley.vti"))
writer.SetInputData(image)
writer.SetDataModeToBinary()  # inline: see docs/USER_GUIDE.md on appended data
writer.SetCompressorTypeToZLib()
writer.Write()

with open(os.path.join(out, "valley.asc"), "w") as f:
    f.write("ncols %d\nnrows %d\nxllcorner 0\nyllcorner 0\ncellsize %g\nNODATA_value -9999\n"
            % (nx, ny, dx))
    for row in bed[::-1]:  # ESRI grids list the northern row first
        f.write(" ".join("%.3f" % v for v in row) + "\n")
written = ["valley.vti", "valley.asc"]
try:
    from osgeo import gdal
except ImportError:
    gdal = None
if gdal:
    tif = gdal.GetDriverByName("GTiff").Create(
        os.path.join(out, "valley.tif"), nx, ny, 2, gdal.GDT_Float32, ["COMPRESS=DEFLATE"])
    tif.SetGeoTransform((0.0, dx, 0.0, ny * dx, 0.0, -dx))  # north-up, origin at (0, 0)
    for index, (name, values) in enumerate((("Bed", bed), ("Depth", surface - bed)), start=1):
        band = tif.GetRasterBand(index)
        band.SetDescription(name)
        band.WriteArray(values[::-1].astype(np.float32))  # GeoTIFF rows run north to south
    # Band 1 grey: the reader's default Collate Bands reads it as the array "Elevation".
    tif.GetRasterBand(1).SetColorInterpretation(gdal.GCI_GrayIndex)
    tif.FlushCache()
    tif = None
    written.append("valley.tif")
print("wrote", ", ".join(written), "in", out)
