"""pip install . at the repository's root (docs/python.md): builds the extension ozref._ozref through
the project's CMake (the python target, _ozref), then packages it with the Python files of
python/ozref, as python/setup.py describes the package.

OZREF_BUILD_DIR names the CMake build folder to use (default: build/ here); an existing one is
reused as configured, a missing one is configured for a Release build. CMAKE_ARGS adds options to
that configuration, CMAKE_BUILD_PARALLEL_LEVEL bounds the build's jobs."""

import importlib.util
import os
import shlex
import shutil
import subprocess
from glob import glob

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = os.path.dirname(os.path.abspath(__file__))


def package_description():
    spec = importlib.util.spec_from_file_location("ozref_package", os.path.join(ROOT, "python", "setup.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.PACKAGE, module.EXTENSION


PACKAGE, EXTENSION = package_description()


def cmake_build_dir():
    build = os.path.abspath(os.environ.get("OZREF_BUILD_DIR") or os.path.join(ROOT, "build"))
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        subprocess.run(["cmake", "-S", ROOT, "-B", build, *generator, "-DCMAKE_BUILD_TYPE=Release",
                        *shlex.split(os.environ.get("CMAKE_ARGS", ""))], check=True)
    subprocess.run(["cmake", "--build", build, "--target", "_ozref"], check=True)
    return build


class BuildWithCMake(build_py):
    """The Python files as usual, and the extension CMake laid out in BUILD/python/ozref."""

    def run(self):
        built = glob(os.path.join(cmake_build_dir(), "python", "ozref", EXTENSION))
        if len(built) != 1:
            raise SystemExit(f"ozref: expected one {EXTENSION} in the CMake build's python/ozref, found {len(built)} "
                             "(is pybind11-dev installed? docs/python.md)")
        super().run()
        self.copy_file(built[0], os.path.join(self.build_lib, "ozref", os.path.basename(built[0])))


setup(**PACKAGE, package_dir={"ozref": "python/ozref"}, cmdclass={"build_py": BuildWithCMake},
      options={"build": {"build_base": "build/setuptools"}})
