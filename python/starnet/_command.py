"""The ``starnet`` command of a pip-installed package (pyproject.toml's script): the executable
built into the package, run with the same arguments."""

import os
import sys

from ._engine import starnet_executable

__all__ = ["main"]


def main():
    executable = starnet_executable()
    os.execv(executable, [executable] + sys.argv[1:])
