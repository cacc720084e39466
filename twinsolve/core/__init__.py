"""Contracts shared by every puzzle and back-end: errors, results, limits, registry."""

from .errors import InstanceError, UsageError
from .limits import Deadline, Limits
from .registry import Backend, Puzzle, puzzle, puzzle_of, puzzles
from .result import Result, Stats, Status, Stopwatch

__all__ = [
    "InstanceError", "UsageError", "Deadline", "Limits", "Backend", "Puzzle", "puzzle",
    "puzzle_of", "puzzles", "Result", "Stats", "Status", "Stopwatch",
]
