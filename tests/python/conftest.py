"""Shared fixtures of the Python module's tests (tests/python; run by ctest, label python).

The tests fail — never skip — when the module or a Python dependency is missing: tools/bootstrap
installs them. STARNET_EXE is the command line the answers are compared with (set by ctest).
"""

import json
import os
import subprocess

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
