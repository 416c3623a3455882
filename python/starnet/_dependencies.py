"""What the package needs of other Python packages, said by name when this Python lacks one
(pyproject.toml declares the same): numpy, pandas and networkx always; matplotlib for pictures
and tqdm for progress bars, when they are asked for."""

import importlib
import importlib.util
import sys

__all__ = ["require_packages", "optional"]

# The packages every call may use: the extension converts to numpy and pandas, topologies come
# from networkx graphs.
REQUIRED = ("numpy", "pandas", "networkx")
# (package, the extra of `pip install starnet[...]` that brings it, what it is for).
OPTIONAL = {"matplotlib": ("plots", "pictures"), "tqdm": ("progress", "progress bars")}


def _how(name):
    return (f"install it into this Python ({sys.executable}) with `{sys.executable} -m pip install {name}`, or use "
            f"Debian's /usr/bin/python3 with python3-{name} (apt install python3-{name}); `pip install .` from a "
            f"starnet clone installs what starnet needs")


def require_packages():
    """Raises ImportError naming the first required package this Python lacks, and how to get it."""
    for name in REQUIRED:
        if importlib.util.find_spec(name) is None:
            raise ImportError(f"starnet needs {name}, which this Python lacks: {_how(name)}", name=name)


def optional(name):
    """Imports the optional package @p name, or raises ImportError naming it and how to get it."""
    try:
        return importlib.import_module(name)
    except ImportError as e:
        extra, purpose = OPTIONAL[name]
        raise ImportError(f"starnet needs {name} for {purpose}, which this Python lacks: {_how(name)} "
                          f"(pip install 'starnet[{extra}]')", name=name) from e
