"""Back-ends that are no puzzle's own, declared for the registry's `twinsolve.backends` group.

twinsolve registers these the way any package registers a back-end for
existing puzzles (`pyproject.toml`, `[project.entry-points."twinsolve.backends"]`):

- `CMD`: `cmd:PROGRAM`, any DIMACS SAT solver binary on a puzzle's CNF
  export (`cmd.py`), for every puzzle (it answers `unsupported` where the
  puzzle has no CNF export);
- `FAULTS`: misbehaving back-ends for testing the harness (`faults.py`),
  test only;

This module imports nothing heavy: declaring costs nothing until a back-end runs.
"""

from ..core.declaration import Backend, BackendFor

__all__ = ["CMD", "FAULTS"]

CMD = BackendFor(Backend("cmd", "twinsolve.backends.cmd:solve",
                         "a DIMACS SAT solver program on the sat encoding: cmd:PROGRAM",
                         supports_target="twinsolve.backends.cmd:supports",
                         bare_option="program", by_default=False,
                         options_target="twinsolve.backends.cmd:check_options"))

FAULTS = tuple(
    BackendFor(Backend(f"fault-{kind}", f"twinsolve.backends.faults:{kind}", f"test only: {what}",
                       test_only=True))
    for kind, what in (("crash", "dies of SIGSEGV"), ("abort", "dies of SIGABRT"),
                       ("hang", "ignores its time limit"), ("memory", "allocates without bound"),
                       ("burst", "needs 48 MB for a moment, then answers as hand"),
                       ("wrong", "answers what verify rejects"),
                       ("spin", "burns 0.5 s of CPU, then answers as hand"),
                       ("sleep", "sleeps 0.5 s, then answers as hand"),
                       ("hold", "holds 200 MB for 0.3 s, then answers as hand"),
                       ("litter", "leaves garbage whose freeing burns 0.5 s of CPU, then answers "
                                  "as hand"))
)
