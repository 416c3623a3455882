"""`cmake --install` puts the module into the Debian layout, importable from there."""

import os
import subprocess
import sys

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
