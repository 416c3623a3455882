"""Builds the extension starnet._core and the starnet command with CMake for the Python running
pip (pyproject.toml; docs/python.md, "Installing with pip"). Compiles through ccache where it is
installed, in build-pip/ (beside the CMake build in build/, which it does not touch)."""

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
# The CMake build of the package and setuptools' own folders: at the depth of build/, so that ccache
# (paths relative to the build folder) reuses what the CMake build compiled.
BUILD_BASE = Path("build-pip")
# The command worker processes run, inside the package (starnet/_engine.py looks there first).
COMMAND_IN_PACKAGE = Path("bin") / "starnet"


def version():
    match = re.search(r"project\(starnet VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text())
    if match is None:
        raise RuntimeError("CMakeLists.txt: no `project(starnet VERSION x.y.z)` line")
    return match.group(1)


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = ROOT / BUILD_BASE
        # The release preset's compiler flags, so that ccache finds what build/ compiled.
        configure = ["cmake", "--preset", "release", "-S", str(ROOT), "-B", str(build),
                     f"-DPython_EXECUTABLE={sys.executable}", "-DSTARNET_BENCHMARKS=OFF"]
        try:  # pybind11 from the package registry (an isolated build); else Debian's pybind11-dev
            import pybind11

            configure.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
        except ImportError:
            pass
        subprocess.run(configure, check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "--build", str(build), "--target", "starnet_python", "starnet", "-j", jobs],
                       check=True)
        built = build / "python" / "starnet" / ("_core" + sysconfig.get_config_var("EXT_SUFFIX"))
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, target)
        command = target.parent / COMMAND_IN_PACKAGE
        command.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(build / "bin" / "starnet", command)


(ROOT / BUILD_BASE).mkdir(parents=True, exist_ok=True)
setup(
    version=version(),
    ext_modules=[CMakeExtension("starnet._core")],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": str(BUILD_BASE / "setuptools")}, "egg_info": {"egg_base": str(BUILD_BASE)}},
)
