"""The engine choice every emulating call takes (docs/emulator.md, "Engines")."""

import os
import shutil

from . import _core

__all__ = ["engine_choice", "starnet_executable"]


def starnet_executable():
    """The ``starnet`` command worker processes run: $STARNET_EXECUTABLE, the one inside this package
    (``pip install``), the build tree's or the installed one beside this package, or the first on
    PATH."""
    if os.environ.get("STARNET_EXECUTABLE"):
        return os.environ["STARNET_EXECUTABLE"]
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(here, "bin", "starnet"),  # pip install: inside the package (setup.py)
                      os.path.join(here, "..", "..", "bin", "starnet"),  # build/python/starnet → build/bin
                      os.path.join(here, "..", "..", "..", "..", "bin", "starnet")):  # PREFIX/lib/python3/dist-packages
        if os.access(candidate, os.X_OK):
            return os.path.normpath(candidate)
    found = shutil.which("starnet")
    if found is None:
        raise _core.InputError("processes=True: worker processes run the starnet command, and none was found "
                               "(set STARNET_EXECUTABLE)")
    return found


def engine_choice(engine="local", workers=None, processes=False, address=None, port=None, listen=None, key_file=None,
                  peer_timeout=None, timeout=None, force=False, threads=None):
    """The extension's engine choice; refuses what does not apply (InputError naming the keyword)."""
    executable = starnet_executable() if (processes or listen) else ""
    return _core.engine(engine, workers, processes, address or "", port, listen or "", key_file or "", peer_timeout,
                        timeout, force, executable, threads)
