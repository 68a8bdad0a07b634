"""What the MPI verb tests share (mpi_verbs.py, mpi_verify_trace.py): their arguments (OZREF RANKS
WORKDIR [SEED]), ozref run under mpirun or as one process, and the count of checks and failures
in the line .ci/run collects."""
import atexit
import json
import os
import shutil
import subprocess
import tempfile


class Harness:
    def __init__(self, name, argv, timeout):
        self.name, self.timeout = name, timeout
        self.ozref, self.ranks, self.work = argv[1], int(argv[2]), argv[3]
        self.seed = int(argv[4]) if len(argv) > 4 else 15
        self.launcher = ["mpirun", "--oversubscribe"] + (["--allow-run-as-root"] if os.geteuid() == 0 else [])
        self.failures, self.cases = [], 0
        # Each test's mpirun gets its own session folder: Open MPI removes /tmp/ompi.HOST.UID when
        # its last job there ends, under the feet of a job that ctest starts in parallel. A short
        # path under /tmp, as PMIx's sockets have a length limit; every launch below inherits it.
        session = tempfile.mkdtemp(prefix="ozref-mpi-", dir="/tmp")
        atexit.register(shutil.rmtree, session, ignore_errors=True)
        os.environ.update(TMPDIR=session, OMPI_MCA_orte_tmpdir_base=session)

    def run(self, args, ranks=True):
        """ozref with args on every rank (or as one process): its exit code, stdout and stderr."""
        env = dict(os.environ, OMP_NUM_THREADS="1")
        command = (self.launcher + ["-n", str(self.ranks)] if ranks else []) + [self.ozref] + args
        r = subprocess.run(command, capture_output=True, text=True, env=env, timeout=self.timeout)
        return r.returncode, r.stdout, r.stderr

    def expect(self, condition, what):
        self.cases += 1
        if not condition:
            self.failures.append(what)
            print("FAIL:", what)

    def path(self, *names):
        return os.path.join(self.work, *names)

    def summary(self):
        """Prints the count line and returns the exit code."""
        print(f"  {self.name}: {self.ranks} ranks: {self.cases} cases (seed {self.seed}), {len(self.failures)} failed")
        return 1 if self.failures else 0


def untimed_json(report):
    """A --json report without its times (every key naming seconds), to compare runs."""
    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if "seconds" not in k}
        return [strip(v) for v in x] if isinstance(x, list) else x
    return strip(json.loads(report))
