"""Installs the package that the ozref build laid out beside this file (build/python): the Python
files and the extension _ozref that CMake built. It builds nothing itself, so it needs no build
backend beyond Debian's setuptools: pip install --no-build-isolation build/python (docs/python.md)."""

from setuptools import setup
from setuptools.dist import Distribution


class BinaryDistribution(Distribution):
    def has_ext_modules(self):  # a platform wheel: the package holds a compiled extension
        return True


setup(
    name="ozref",
    version="0.1.0",
    description="Bit-exact references for GEMM emulation on tensor cores",
    packages=["ozref"],
    package_data={"ozref": ["_ozref*.so", "*.pyi", "py.typed"]},
    install_requires=["numpy"],
    python_requires=">=3.9",
    distclass=BinaryDistribution,
    zip_safe=False,
)
