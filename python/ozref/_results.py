"""The results of scheme runs, trace verifications and lockstep runs: the report the command prints
with ``--json`` (``RunResult.report``, a dict), the result C, and typed views of the stage reports."""

from dataclasses import dataclass, field
from typing import List, Optional

import numpy as np


@dataclass(frozen=True)
class StageReport:
    """One named stage: whether its contract was checked and held, its violations, and (for
    verify_trace and lockstep) its comparison with the CPU's recomputation."""

    name: str
    checked: bool
    verified: Optional[bool]            # None where the stage has no contract to check (scale)
    violations: int
    first_violation: str
    notes: List[str]
    seconds: float
    verify_seconds: float
    present: Optional[bool] = None      # the subject (trace, GPU) supplied the stage
    compared: Optional[bool] = None     # compared bit for bit with the CPU
    identical: Optional[bool] = None
    differing_elements: Optional[int] = None
    first_difference: Optional[str] = None
    unwritten_elements: Optional[int] = None  # differing elements the subject never wrote (still the canary)
    first_unwritten: Optional[str] = None
    reproducer: Optional[str] = None
    reproducer_error: Optional[str] = None  # why the reproducer could not be written (a read-only trace)

    @classmethod
    def from_report(cls, stage: dict) -> "StageReport":
        return cls(**{k: stage[k] for k in cls.__dataclass_fields__ if k in stage})


@dataclass(frozen=True)
class RunResult:
    """A scheme run: `report` is exactly the command's --json object; `c` the result (complex
    for a complex run); `exit_code` the command's (0: every checked stage verified and every
    compared stage identical)."""

    report: dict
    c: np.ndarray
    exit_code: int
    stages: List[StageReport] = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "stages", [StageReport.from_report(s) for s in self.report["stages"]])

    @property
    def passed(self) -> bool:
        return self.exit_code == 0

    @property
    def exact(self) -> bool:
        """Every stage verified and the scheme's exactness condition held."""
        return bool(self.report["exact"])

    @property
    def accuracy(self) -> dict:
        """The result against the exact product, as ozref.check reports it."""
        return self.report["accuracy"]

    def stage(self, name: str) -> StageReport:
        for s in self.stages:
            if s.name == name:
                return s
        raise KeyError(f"no stage {name!r} (stages: {', '.join(s.name for s in self.stages)})")

    def __repr__(self) -> str:
        failed = [s.name for s in self.stages if s.checked and not s.verified]
        return (f"RunResult({self.report.get('scheme')}, {self.c.shape[0]}x{self.c.shape[1]}, exit_code={self.exit_code}, "
                f"exact={self.exact}, failed_stages={failed})")
