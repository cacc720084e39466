"""How much memory this process has mapped, and how much its address-space limit leaves.

The benchmark harness caps each worker's address space (RLIMIT_AS) a little
above the `--memory` budget; a back-end that plans a large allocation (the
chess layer count) asks `address_space_left` first, so it can take a
cheaper road instead of dying of MemoryError. Linux: /proc/self/statm; where
that is missing, the mapped size reads as 0.
"""

from __future__ import annotations

import os
import resource

__all__ = ["mapped_bytes", "address_space_left"]


def mapped_bytes() -> int:
    """Bytes of address space this process has mapped now (0 when unknown)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


def address_space_left() -> int | None:
    """Bytes the soft RLIMIT_AS still allows, or None when there is no limit."""
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return None
    return max(0, soft - mapped_bytes())
