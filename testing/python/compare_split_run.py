"""Compares a run split among ranks (.pvti files joining each rank's piece) with the same run on
one rank (.vti files): every cell array the same bits. Usage: pvpython compare_split_run.py
ONE_RANK_DIR SPLIT_DIR, for swe run's series (swe.pvd in each: the same output times too), or
pvpython compare_split_run.py [--field-data=RANKS] ONE.vti SPLIT.pvti [ONE.vti SPLIT.pvti ...]
(see main). Prints PASS or FAIL lines."""
import sys
import xml.etree.ElementTree as ET

import numpy as np
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkIOXML import vtkXMLImageDataReader, vtkXMLPImageDataReader


def series(directory):
    root = ET.parse(directory + "/swe.pvd").getroot()
    return [(float(d.get("timestep")), directory + "/" + d.get("file")) for d in root.iter("DataSet")]


def field_data(path):
    reader = vtkXMLPImageDataReader() if path.endswith(".pvti") else vtkXMLImageDataReader()
    reader.SetFileName(path)
    reader.Update()
    fields = reader.GetOutput().GetFieldData()
    return fields.GetArray("Mass").GetValue(0), fields.GetAbstractArray("Device").GetValue(0)


# For display alone, not the run's state: each rank shades its piece's relief from its own bed
# (one-sided at the piece's edges), with an exaggeration the ranks agree on, from the slopes of
# their pieces rather than of the whole grid.
DISPLAY_ONLY = {"ReliefNormals"}


def cell_arrays(path):
    reader = vtkXMLPImageDataReader() if path.endswith(".pvti") else vtkXMLImageDataReader()
    reader.SetFileName(path)
    reader.Update()
    image = reader.GetOutput()
    cells = image.GetCellData()
    arrays = {cells.GetArrayName(a): vtk_to_numpy(cells.GetArray(a)) for a in range(cells.GetNumberOfArrays())}
    return image.GetExtent(), arrays


def main(paths, field_data_of_ranks=0):
    """field_data_of_ranks > 0: the split files' field data must describe the whole run too: the
    one-rank run's Mass (to 1e-12) and a Device naming each of that many ranks."""
    if len(paths) == 2 and not paths[0].endswith(".vti"):
        one, split = series(paths[0]), series(paths[1])
    else:
        one = [(k, p) for k, p in enumerate(paths[0::2])]
        split = [(k, p) for k, p in enumerate(paths[1::2])]
    failures = []
    if [t for t, _ in one] != [t for t, _ in split]:
        failures.append("output times differ: %s vs %s" % ([t for t, _ in one], [t for t, _ in split]))
    for (t, one_file), (_, split_file) in zip(one, split):
        extent_one, arrays_one = cell_arrays(one_file)
        extent_split, arrays_split = cell_arrays(split_file)
        if extent_one != extent_split:
            failures.append("t = %g: extent %s vs %s" % (t, extent_one, extent_split))
        if sorted(arrays_one) != sorted(arrays_split) or not arrays_one:
            failures.append("t = %g: arrays %s vs %s" % (t, sorted(arrays_one), sorted(arrays_split)))
            continue
        for name, values in arrays_one.items():
            if name in DISPLAY_ONLY:
                continue
            other = arrays_split[name]
            if values.dtype != other.dtype or values.shape != other.shape:
                failures.append("t = %g: %s is %s %s vs %s %s" % (t, name, values.dtype, values.shape,
                                                                  other.dtype, other.shape))
            elif values.tobytes() != other.tobytes():
                differing = np.count_nonzero(values.view(np.uint8).reshape(len(values), -1)
                                             != other.view(np.uint8).reshape(len(other), -1))
                failures.append("t = %g: %s differs in %d bytes" % (t, name, differing))
        if field_data_of_ranks:
            (mass_one, _), (mass_split, devices) = field_data(one_file), field_data(split_file)
            if abs(mass_split - mass_one) > 1e-12 * abs(mass_one):
                failures.append("t = %g: Mass %.17g, one rank's %.17g" % (t, mass_split, mass_one))
            if not all("rank %d: " % r in devices for r in range(field_data_of_ranks)):
                failures.append("t = %g: Device %r does not name every rank's" % (t, devices))
    for f in failures:
        print("FAIL " + f)
    if not failures:
        print("PASS %d outputs, every cell array the same bits" % len(one))
    return 1 if failures else 0


if __name__ == "__main__":
    if sys.argv[1].startswith("--field-data="):
        sys.exit(main(sys.argv[2:], int(sys.argv[1].split("=")[1])))
    sys.exit(main(sys.argv[1:]))
