"""pvpython as client of pvserver on two MPI ranks (mpirun -n 2 pvserver): the Shallow Water
source splits its grid between the server's ranks, each writes its piece, and the pieces hold the
arrays of the same run in this process (the built-in connection), bit for bit. SWE_MPIEXEC names mpiexec, SWE_MPIEXEC_FLAGS
its extra flags; the plugin comes from PV_PLUGIN_PATH on both sides."""
import os
import shlex
import subprocess
import time

from paraview.simple import *

import compare_split_run
from swe_testing import check, fail, free_port, read_text, say

SERVER_LIFETIME_S = 180
SERVER_START_S = 60


def flood(where, path):
    """The radial dam break to t = 1, saved at path (the server writes it: .pvti there, one piece
    per rank)."""
    src = ShallowWater(Resolution=[61, 37], CellSize=0.4, EndTime=1.0, OutputInterval=0.5)
    src.Scenario = "Radial dam break"
    src.BoundaryEast = "Open"
    src.UpdatePipeline(1.0)
    cells = src.GetDataInformation().GetNumberOfCells()
    check(cells == 61 * 37, "%s: 61 x 37 cells in all (%d)" % (where, cells))
    SaveData(path, proxy=src)
    Delete(src)


if "ShallowWater" not in globals():
    fail("PV_PLUGIN_PATH=%r does not give the ShallowWater source" % os.environ.get("PV_PLUGIN_PATH"))
out_dir = os.environ.get("SWE_TEST_OUTPUT") or os.getcwd()
os.makedirs(out_dir, exist_ok=True)
one_path = os.path.join(out_dir, "client_server_mpi_one.vti")
split_path = os.path.join(out_dir, "client_server_mpi_split.pvti")
flood("built-in", one_path)
log_path = os.path.join(out_dir, "client_server_mpi_pvserver.log")


def server_log():
    return read_text(log_path)


port = free_port()
mpiexec = [os.environ.get("SWE_MPIEXEC", "mpiexec"), "-n", "2"] + shlex.split(
    os.environ.get("SWE_MPIEXEC_FLAGS", ""))
# (pvpython initialised MPI as a process of its own: its variables would make mpiexec think it
# runs inside another job.)
server_env = {k: v for k, v in os.environ.items() if not k.startswith(("OMPI_", "PMIX_", "PMI_"))}
with open(log_path, "w") as log:
    server = subprocess.Popen(["timeout", "-k", "5", str(SERVER_LIFETIME_S)] + mpiexec +
                              ["pvserver", "--server-port=%d" % port, "--force-offscreen-rendering"],
                              stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                              cwd=out_dir, env=server_env, process_group=0)
try:
    deadline = time.monotonic() + SERVER_START_S
    while "Accepting connection(s)" not in server_log():
        if time.monotonic() > deadline or server.poll() is not None:
            fail("pvserver on 2 ranks did not accept connections:\n%s" % server_log())
        time.sleep(0.2)
    connection = Connect("localhost", port, timeout=SERVER_START_S)
    check(connection is not None and connection.IsRemote(), "connected to pvserver on 2 ranks")
    flood("pvserver on 2 ranks", split_path)
    with open(split_path) as f:
        pieces = f.read().count("<Piece ")
    check(pieces == 2, "the server's ranks wrote a piece each (%d pieces)" % pieces)
    check(compare_split_run.main([one_path, split_path]) == 0,
          "the server's 2 ranks give the built-in run's arrays, bit for bit")
    say("PASS")
except SystemExit:
    say("pvserver's log (%s):\n%s" % (log_path, server_log()))
    raise
finally:
    if server.poll() is None:
        os.killpg(server.pid, 9)
        server.wait(10)
