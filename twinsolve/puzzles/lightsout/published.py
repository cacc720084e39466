"""Published figures of the all-on Lights Out board, to check the solvers against.

`FEWEST_ALL_ON[n]` is the fewest presses that turn off every light of the
all-on n x n board (press: the cell and its four neighbours), OEIS A075464,
as its data line lists them: n = 1..54. (The sequence's b-file goes to
n = 78, computed in C by Max Alekseyev and Zhao Hui Du; n = 79, nullity 64,
is open.) Read by the generator (the shipped all-on boards carry the
figure), the tests and `benchmarks/lightsout_perf.py`.
"""

from __future__ import annotations

__all__ = ["FEWEST_ALL_ON"]

FEWEST_ALL_ON: dict[int, int] = dict(enumerate((
    1, 4, 5, 4, 15, 28, 33, 40, 25, 44, 55, 72, 105, 56, 117, 104, 147, 188, 141, 224, 245,
    276, 231, 270, 353, 356, 405, 416, 345, 376, 553, 428, 469, 520, 563, 600, 761, 772, 561,
    696, 891, 940, 953, 772, 1069, 1188, 971, 1096, 1165, 1220, 1317, 1256, 1487, 1400), start=1))
