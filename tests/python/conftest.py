"""Shared fixtures of the Python module's tests (tests/python; run by ctest, label python).

The tests fail — never skip — when the module or a Python dependency is missing: tools/bootstrap
installs them. STARNET_EXE is the command line the answers are compared with (set by ctest).
"""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

import starnet  # noqa: F401  (an ImportError here fails every test, as it should)

SOURCE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EXAMPLES = os.path.join(SOURCE_DIR, "docs", "examples", "schedules")
SHARED = os.path.join(SOURCE_DIR, "..", "shared")

# Fields that differ between two runs of the same input.
VOLATILE = {"wall_seconds", "seconds", "simulations_per_second", "longest_worker_silence_seconds"}


def starnet_exe():
    exe = os.environ.get("STARNET_EXE")
    if not exe:
        raise RuntimeError("STARNET_EXE is not set: run the Python tests through ctest (label python)")
    return exe


def run_cli(*args, check=True):
    """Runs the command line; returns (exit code, stdout, stderr)."""
    r = subprocess.run([starnet_exe(), *map(str, args)], capture_output=True, text=True, timeout=600)
    if check and r.returncode not in (0, 1):
        raise AssertionError(f"starnet {' '.join(map(str, args))} exited {r.returncode}: {r.stderr}")
    return r.returncode, r.stdout, r.stderr


def cli_json(*args):
    """The command line's JSON document for ``args`` (``--json`` added)."""
    code, out, err = run_cli(*args, "--json")
    return json.loads(out)


def stable(value):
    """A document without the fields that change from run to run."""
    if isinstance(value, dict):
        return {k: stable(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [stable(v) for v in value]
    return value


@pytest.fixture
def cli():
    return cli_json


def interrupt_child(script, wait=1.5):
    """Runs ``script`` in a child Python, which prints "ready", starts a long call and prints
    ``interrupted {time.time()}`` when KeyboardInterrupt reaches it; sends it SIGINT ``wait``
    seconds after "ready". Returns the child's output after "ready" and the seconds from the signal
    to the interrupt (wall clock, shared with this process), None when it was not interrupted."""
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=os.environ.copy())
    assert p.stdout.readline().strip() == "ready"
    time.sleep(wait)
    sent = time.time()
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=60)
    first = out.split("\n")[0]
    return out, float(first.split()[1]) - sent if first.startswith("interrupted") else None
