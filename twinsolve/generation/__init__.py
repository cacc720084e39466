"""Making and grading puzzles: `twinsolve generate` (driver) and `twinsolve grade` (grade).

Like the harness, this layer sees puzzles only through the registry: each
puzzle's generator module follows the contract of `twinsolve.core.generation`.
"""
