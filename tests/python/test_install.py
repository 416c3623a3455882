"""`cmake --install` puts the module into the Debian layout, importable from there."""

import os
import subprocess
import sys

import pytest

import starnet

BUILD = os.environ.get("STARNET_BUILD_DIR")


def test_installed_module_imports_and_runs(tmp_path):
    assert BUILD, "STARNET_BUILD_DIR is not set: run the Python tests through ctest"
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", BUILD, "--prefix", str(prefix), "--component", "starnet_Python"], check=True,
                   capture_output=True)
    site = prefix / "lib" / "python3" / "dist-packages"
    assert (site / "starnet" / "__init__.py").exists()
    env = dict(os.environ, PYTHONPATH=str(site))
    out = subprocess.run([sys.executable, "-c", "import starnet; print(starnet.__file__); "
                          "print(starnet.allreduce('star:4').verified)"],
                         env=env, capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0].startswith(str(site)), out
    assert out[1] == "True"


def test_an_interpreter_without_numpy_is_told_which_package_to_install(tmp_path):
    # A bare venv of Debian's python3 (no system site packages) has no numpy: the error says so,
    # and how to install it, instead of the extension's "initialization failed".
    venv = tmp_path / "bare"
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True)
    package_dir = os.path.dirname(os.path.dirname(os.path.abspath(starnet.__file__)))
    r = subprocess.run([str(venv / "bin" / "python"), "-c", "import starnet"], env=dict(os.environ, PYTHONPATH=package_dir),
                       capture_output=True, text=True)
    assert r.returncode == 1
    assert "ImportError: starnet needs numpy, which this Python lacks" in r.stderr, r.stderr
    assert "-m pip install numpy" in r.stderr and "python3-numpy" in r.stderr


def test_a_missing_optional_package_is_named_with_the_extra_that_brings_it(monkeypatch):
    from starnet import _dependencies

    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm now raises ImportError
    with pytest.raises(ImportError, match=r"starnet needs tqdm for progress bars.*starnet\[progress\]"):
        _dependencies.optional("tqdm")
