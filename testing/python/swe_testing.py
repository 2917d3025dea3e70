"""Helpers shared by the plugin's pvpython/pvbatch tests."""
import os
import sys

from paraview import servermanager
from paraview.simple import LoadPlugin
from vtkmodules.vtkCommonCore import vtkOutputWindow, vtkStringOutputWindow

PLUGIN = os.environ.get("SWE_PLUGIN", "")


def load_plugin(namespace):
    """Loads the plugin named by $SWE_PLUGIN into namespace (usually globals())."""
    if not os.path.isfile(PLUGIN):
        fail("SWE_PLUGIN does not name the plugin library: %r" % PLUGIN)
    LoadPlugin(PLUGIN, remote=False, ns=namespace)


def say(text):
    """Prints to the real stdout: pvpython routes print() through vtkOutputWindow, which
    CapturedErrors replaces."""
    stream = sys.__stdout__ or sys.stdout
    stream.write(text + "\n")
    stream.flush()


def fail(message):
    say("FAIL: " + message)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)
    say("ok: " + message)


class CapturedErrors:
    """Collects what VTK and ParaView print as errors or warnings while active."""

    def __enter__(self):
        self.window = vtkStringOutputWindow()
        self.previous = vtkOutputWindow.GetInstance()
        vtkOutputWindow.SetInstance(self.window)
        return self

    def __exit__(self, *args):
        vtkOutputWindow.SetInstance(self.previous)
        return False

    @property
    def text(self):
        return self.window.GetOutput()


def fetch(proxy, time):
    """Updates proxy at time and returns a local copy of its output."""
    proxy.UpdatePipeline(time)
    return servermanager.Fetch(proxy)


def cell_array(data, name):
    from vtkmodules.util.numpy_support import vtk_to_numpy

    array = data.GetCellData().GetArray(name)
    if array is None:
        fail("output has no cell array %s" % name)
    return vtk_to_numpy(array)


def field_value(data, name):
    array = data.GetFieldData().GetAbstractArray(name)
    if array is None:
        fail("output has no field data %s" % name)
    return array.GetVariantValue(0).ToString() if array.IsA("vtkStringArray") else array.GetTuple1(0)


def read_text(path):
    """The file's text, or "" where it cannot be read (a log not written yet)."""
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def free_port():
    """A TCP port on localhost that nothing listens on now."""
    import socket

    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]
