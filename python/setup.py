"""The package's one description, shared by both ways of installing it:

- run as a script (pip install --no-build-isolation build/python): installs the package that the
  ozref build laid out beside this file (the Python files and the extension _ozref that CMake built);
- read by the repository's root setup.py (pip install --no-build-isolation .), which builds the
  extension through CMake first (docs/python.md).

Neither needs a build backend beyond Debian's setuptools."""

from setuptools import setup
from setuptools.dist import Distribution


class BinaryDistribution(Distribution):
    def has_ext_modules(self):  # a platform wheel: the package holds a compiled extension
        return True


EXTENSION = "_ozref*.so"
PACKAGE = dict(
    name="ozref",
    version="0.1.0",
    description="Bit-exact references for GEMM emulation on tensor cores",
    packages=["ozref"],
    package_data={"ozref": [EXTENSION, "*.pyi", "py.typed"]},
    install_requires=["numpy"],
    extras_require={"strategies": ["hypothesis"]},  # ozref.strategies
    python_requires=">=3.9",
    distclass=BinaryDistribution,
    zip_safe=False,
)

if __name__ == "__main__":
    setup(**PACKAGE)
