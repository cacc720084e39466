"""What a measured run starts from (twinsolve.system.memory): no earlier run's leftovers.

`collect_leftovers` runs the garbage collector and has the C allocator settle what
was freed, so neither cost lands inside the next run: the cycles another run left
are gone, and memory freed in the middle of the heap goes back to the system (with
glibc; elsewhere the allocator keeps it, and the test says so).
"""

from __future__ import annotations

import gc

import pytest

from twinsolve.system.memory import allocator_trim, collect_leftovers, resident_bytes


class _Cycle:
    freed = 0

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        _Cycle.freed += 1


def test_the_cycles_earlier_work_left_are_freed():
    gc.disable()  # no collection of the collector's own choosing in between
    try:
        before = _Cycle.freed
        for _ in range(3):
            _Cycle()
        assert _Cycle.freed == before  # unreachable, but only a collection frees them
        collect_leftovers()
        assert _Cycle.freed == before + 3
    finally:
        gc.enable()


def test_memory_freed_in_the_middle_of_the_heap_goes_back_to_the_system():
    if allocator_trim() is None:
        pytest.skip("this C library has no malloc_trim: freed memory stays with the process")
    # 200 MB in blocks of 1 KB (past Python's small-object allocator, so the C library's),
    # every 50th kept: the free runs between them are too short for free() to give back.
    blocks = [bytearray(1000) for _ in range(200_000)]
    kept = blocks[::50]
    held = resident_bytes()
    del blocks
    collect_leftovers()
    assert len(kept) == 4000
    assert held - resident_bytes() > 100 << 20, (held >> 20, resident_bytes() >> 20)
