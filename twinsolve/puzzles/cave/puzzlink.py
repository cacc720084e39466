"""puzz.link URLs for Cave: `https://puzz.link/p?cave/COLS/ROWS/BODY`.

The URL names the type (`cave`, or its alias `bag`), then the size with
COLUMNS FIRST, then a body read row by row, cell by cell (pzprjs'
"number16" encoding, `files.puzzlink`):

- `0`-`9`, `a`-`f`: one hex digit, a clue 0..15;
- `-` and 2 hex digits: a clue 16..255; `+` and 3 hex digits: 256..4095;
- `.`: a `?` clue (inside, no count);
- `g`..`z`: skip 1..20 empty cells.

The encoder writes the shortest form, with a final skip for trailing empty
cells, so a canonical URL round-trips character for character. Like pzprjs,
the decoder treats cells after a short body as empty; a body that runs past
the last cell is an error. Hosts `puzz.link`, `pzv.jp` and `pzprxs.vercel.app`
are read; the encoder writes `puzz.link`. Clue numbers are then checked by the
Cave rules (a clue must be 1..ROWS+COLS-1).
"""

from __future__ import annotations

from ...files.puzzlink import NUMBER16, UrlFormat, is_puzzlink_url
from . import rules as cave

__all__ = ["decode_url", "encode_url", "is_puzzlink_url", "is_url", "TYPE_NAMES"]

TYPE_NAMES = ("cave", "bag")

_FORMAT = UrlFormat(TYPE_NAMES, "Cave", cave.MAX_SIDE)


def is_url(text: str) -> bool:
    """True if `text` is a puzz.link / pzv.jp URL of a Cave (the registry asks each puzzle's
    reader in turn, so a reader claims only its own puzzle types).

    >>> is_url("https://puzz.link/p?cave/6/6/k3h6j2l7g3g2h3n"), is_url("puzz.link/p?slither/1/1/1")
    (True, False)
    """
    return _FORMAT.is_url(text)


def decode_url(url: str, source: str | None = None, line: int | None = 1) -> cave.Instance:
    """A Cave instance from a puzz.link URL; any problem is an `InstanceError` at `line`
    and, where it points at a character, the 1-based column in `url`.

    The instance keeps the URL as `# source:` metadata.

    >>> decode_url("https://puzz.link/p?cave/3/2/h3i").clues[0][2].number
    3
    """
    return _FORMAT.decode_cells(url, source, line, cave.clue_problem, cave.build_instance,
                                NUMBER16)


def encode_url(instance: cave.Instance) -> str:
    """The canonical puzz.link URL of `instance` (runs of empty cells as g..z).

    >>> encode_url(decode_url("https://puzz.link/p?cave/3/2/h3i"))
    'https://puzz.link/p?cave/3/2/h3i'
    """
    return _FORMAT.encode_cells(instance, NUMBER16)
