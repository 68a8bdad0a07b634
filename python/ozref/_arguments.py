"""The scalar arguments of the package's functions checked before they reach the extension, so that
a wrong type or size gives InputError with a short message naming the argument (never pybind11's
TypeError listing every argument's value, whole arrays included)."""

import os

import numpy as np

from ._ozref import InputError

_INT32 = (-2**31, 2**31 - 1)


def _shown(value):
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_integer(value):
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def text(value, name, optional=True):
    """A string option: str, or None (empty: the default) when optional."""
    if value is None and optional:
        return ""
    if not isinstance(value, str):
        raise InputError(f"{name}: expected a string, got {type(value).__name__} {_shown(value)}")
    return value


def threads(value):
    """The thread count as the extension takes it (an int); its range is the library's to check."""
    if not _is_integer(value) or not _INT32[0] <= value <= _INT32[1]:
        raise InputError(f"threads: {_shown(value)} is not an integer in [0, 1024] (0: every core)")
    return int(value)


def count(value, name):
    """A count option: None (the scheme's default) or a positive integer."""
    if value is None:
        return 0
    if not _is_integer(value) or value < 1 or value > 2**63 - 1:
        raise InputError(f"{name}: {_shown(value)} is not a positive integer")
    return int(value)


def seed(value):
    """A 64-bit seed: an integer in [0, 2^64)."""
    if not _is_integer(value) or not 0 <= value < 2**64:
        raise InputError(f"seed: {_shown(value)} is not an integer in [0, 2^64)")
    return int(value)


def path(value, name, optional=True, instead=""):
    """A file or folder name: str, bytes (decoded as the file system encodes names) or os.PathLike;
    None (empty) when optional. `instead`: what to use in place of a value of another type."""
    if value is None and optional:
        return ""
    try:
        decoded = os.fsdecode(os.fspath(value))
    except TypeError:
        raise InputError(f"{name}: expected a path (str, bytes or os.PathLike), got {type(value).__name__} {_shown(value)}"
                         + (f" ({instead})" if instead else "")) from None
    if not decoded or "\0" in decoded:
        raise InputError(f"{name}: {_shown(decoded)} is not a path" + (" (empty)" if not decoded else " (it holds a NUL)"))
    return decoded
