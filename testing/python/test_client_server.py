"""pvpython: the README's client-server recipe, run as written against a pvserver on localhost,
and the time handling the user guide documents for scripts.

The plugin comes from PV_PLUGIN_PATH on both sides, as in the recipe: no LoadPlugin (ParaView
5.11 refuses to load a plugin again on a server that already has it, "Problem loading plugin").
pvserver is given two PoCL CPU devices where this machine has one, so that its device list
differs from the client's and the Device property can be seen to list the server's devices.
"""
import os
import subprocess
import time

from paraview.simple import *

from swe_testing import cell_array, check, fail, fetch, field_value, free_port, read_text, say

# Limits that keep the test from hanging: pvserver runs under timeout(1) and is killed in the
# finally clause; each wait below has its own limit.
SERVER_LIFETIME_S = 180
SERVER_START_S = 30
SERVER_EXIT_S = 30

if "ShallowWater" not in globals():
    fail("PV_PLUGIN_PATH=%r does not give the ShallowWater source"
         % os.environ.get("PV_PLUGIN_PATH"))


def check_time_handling(src, where):
    """What docs/USER_GUIDE.md says about TimestepValues and times between outputs."""
    times = list(src.TimestepValues)
    check(times == [0.0, 0.5, 1.0, 1.5, 2.0], "%s: TimestepValues 0..2 by 0.5: %s" % (where, times))
    src.EndTime = 4.0
    src.OutputInterval = 1.0
    src.UpdatePipeline(1.0)
    check(list(src.TimestepValues) == times,
          "%s: new EndTime/OutputInterval: TimestepValues keeps the old times, even after "
          "UpdatePipeline(t)" % where)
    src.UpdatePipelineInformation()
    times = list(src.TimestepValues)
    check(times == [0.0, 1.0, 2.0, 3.0, 4.0],
          "%s: UpdatePipelineInformation() gives the new times: %s" % (where, times))
    # The data's time as the pipeline reports it: a fetched copy has no DATA_TIME_STEP in
    # client-server mode (Fetch leaves it out), so ask the data information.
    for asked, given in [(2.5, 2.0), (3.999, 3.0), (5.0, 4.0)]:
        data = fetch(src, asked)
        data_time = src.GetDataInformation().DataInformation.GetTime()
        check(field_value(data, "SimulationTime") == given and data_time == given,
              "%s: t = %g gives the %g s output (data time %g)" % (where, asked, given, data_time))


# In this process first (the built-in connection), as a pvpython script uses the plugin.
src = ShallowWater(Resolution=[50, 40], EndTime=2.0)
local_devices = list(src.GetProperty("Device").Available)
check(local_devices[0] == "auto" and len(local_devices) >= 2,
      "built-in connection: devices %s" % local_devices)
check_time_handling(src, "built-in")
Delete(src)
del src

# Two PoCL CPU devices for the server where this process has one (a second one of the same
# kind: the kernels and the launch-shape cache are the same).
pocl_cpus = [d for d in local_devices if "pthread" in d]
server_env = dict(os.environ)
doubled = len(pocl_cpus) == 1 and "POCL_DEVICES" not in os.environ
if doubled:
    server_env["POCL_DEVICES"] = "pthread pthread"

out_dir = os.environ.get("SWE_TEST_OUTPUT") or os.getcwd()
os.makedirs(out_dir, exist_ok=True)
log_path = os.path.join(out_dir, "client_server_pvserver.log")


def server_log():
    return read_text(log_path)


def start_server():
    """Starts pvserver on a free port; returns (process, port) once it accepts connections."""
    for _ in range(3):
        port = free_port()
        log = open(log_path, "w")
        server = subprocess.Popen(
            ["timeout", "-k", "5", str(SERVER_LIFETIME_S), "pvserver",
             "--server-port=%d" % port, "--force-offscreen-rendering"],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=server_env,
            cwd=out_dir, process_group=0)
        log.close()
        deadline = time.monotonic() + SERVER_START_S
        while time.monotonic() < deadline and server.poll() is None:
            if "Accepting connection(s)" in server_log():
                return server, port
            time.sleep(0.2)
        if server.poll() is None:
            stop(server)
            fail("pvserver did not accept connections within %d s:\n%s"
                 % (SERVER_START_S, server_log()))
        say("pvserver on port %d exited (%d) before accepting connections; another port"
            % (port, server.returncode))
    fail("pvserver did not start:\n%s" % server_log())


def stop(server):
    if server.poll() is None:
        os.killpg(server.pid, 9)
        server.wait(10)


server = None
try:
    server, port = start_server()
    # The recipe: Connect, then the source by its name, no LoadPlugin.
    connection = Connect("localhost", port, timeout=SERVER_START_S)
    check(connection is not None and connection.IsRemote(),
          "connected to pvserver on localhost:%d" % port)

    src = ShallowWater(Resolution=[50, 40], EndTime=2.0)
    devices = list(src.GetProperty("Device").Available)
    if doubled:
        check(len(devices) == len(local_devices) + 1
              and len([d for d in devices if "pthread" in d]) == 2,
              "Device lists the server's devices (two PoCL CPUs there, one here): %s" % devices)
    else:
        check(devices[0] == "auto" and len(devices) >= 2,
              "Device lists the server's devices: %s" % devices)
    # The last device exists only on the server where its list was doubled.
    src.Device = devices[-1]

    data = fetch(src, 1.0)
    check(data.GetDimensions() == (51, 41, 1), "50 x 40 cells from the server")
    check(field_value(data, "SimulationTime") == 1.0, "SimulationTime 1 at t = 1")
    depth = cell_array(data, "Depth")
    check(depth.size == 50 * 40 and depth.min() > 0, "depth > 0 everywhere (min %g)" % depth.min())
    device = field_value(data, "Device")
    check(device in devices[-1], "ran on the server's device %s (%s)" % (devices[-1], device))
    check_time_handling(ShallowWater(Resolution=[50, 40], EndTime=2.0), "client-server")

    # Disconnect() alone leaves the socket open while Python refers to the connection: the
    # proxies and the connection object here, servermanager's proxy namespaces until the next
    # Connect.
    del src, connection
    Disconnect()
    Connect()
    try:
        status = server.wait(SERVER_EXIT_S)
    except subprocess.TimeoutExpired:
        fail("pvserver still runs %d s after the client disconnected" % SERVER_EXIT_S)
    check(status == 0, "pvserver exits after the client disconnects (status %d)" % status)
    say("PASS")
except SystemExit:
    say("pvserver's log (%s):\n%s" % (log_path, server_log()))
    raise
except Exception as error:
    say("pvserver's log (%s):\n%s" % (log_path, server_log()))
    fail("%s: %s" % (type(error).__name__, error))
finally:
    if server is not None:
        stop(server)
