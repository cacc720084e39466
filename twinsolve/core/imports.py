"""`twinsolve import`: instances from elsewhere, written as twinsolve instance files.

A puzz.link URL becomes one file named after its puzzle, size and a short
hash of the URL (`cave-10x10-1a2b3c4d.txt`, the URL kept as `# source:`);
a puzzlekit dataset (`*.json`) becomes one file per entry (`KEY.txt`), with
its known solution kept as `# expect-solution:` metadata. Files are written
atomically and deterministically: the same source gives the same bytes.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from .atomic import output_folder
from .errors import UsageError
from .registry import puzzle_of
from .writing import write_instance

__all__ = ["import_source"]


def import_source(source: str, out: str | Path) -> list[Path]:
    from ..puzzles.cave import puzzlekit as puzzlekit_json
    from ..puzzles.cave import puzzlink

    folder = output_folder(out)
    if puzzlink.is_puzzlink_url(source.strip()):
        url = source.strip()
        instance = puzzlink.decode_url(url, source="puzz.link URL")
        digest = hashlib.sha1(url.encode("utf-8")).hexdigest()[:8]
        entry = puzzle_of(instance)
        path = folder / f"{entry.name}-{instance.rows}x{instance.cols}-{digest}.txt"
        return [write_instance(path, instance)]
    path = Path(source)
    if path.suffix.lower() == ".json" and path.is_file():
        return puzzlekit_json.write_instances(puzzlekit_json.read_dataset(path, str(path)), folder)
    raise UsageError(f"{source}: not a puzz.link URL nor a puzzlekit dataset (.json) file")
