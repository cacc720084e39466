"""`twinsolve import`: instances from elsewhere, written as twinsolve instance files.

A puzz.link URL becomes one file named after its puzzle, size and a short
hash of the URL (`NAME-10x10-1a2b3c4d.txt`, the URL kept as `# source:`);
a puzzlekit dataset (`*.json`) becomes one file per entry (`KEY.txt`), with
its known solution kept as `# expect-solution:` metadata. Files are written
atomically and deterministically: the same source gives the same bytes. The
source is read whole before the output folder is made, so a source that fails
to read leaves nothing behind, not even an empty folder.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..core import registry
from ..core.errors import UsageError
from ..core.instance_file import read_text
from ..core.json_text import parse_json
from .atomic import check_folder, output_folder
from .writing import write_instance

__all__ = ["import_source"]


def import_source(source: str, out: str | Path) -> list[Path]:
    """The files written for `source` (a URL or a dataset file) under `out`.

    The puzzle whose reader claims the source reads it (`registry.url_reader`,
    `registry.dataset_reader`); anything else is a `UsageError`.
    """
    check_folder(out)  # a file in the way is refused before anything is read
    url = source.strip()
    reader = registry.url_reader(url)
    if reader is not None:
        instance = reader.decode_url(url, source="puzz.link URL")
        digest = hashlib.sha1(url.encode("utf-8")).hexdigest()[:8]
        entry = registry.puzzle_of(instance)
        name = f"{entry.name}-{instance.rows}x{instance.cols}-{digest}.txt"
        return [write_instance(output_folder(out) / name, instance)]
    path = Path(source)
    if path.suffix.lower() == ".json" and path.is_file():
        text = read_text(path)
        dataset = registry.dataset_reader(parse_json(text, str(path)))
        if dataset is None:
            dataset = registry.dataset_readers()[0]  # its own error names what the file lacks
        entries = dataset.read_dataset(text, str(path))
        return dataset.write_instances(entries, output_folder(out))
    raise UsageError(f"{source}: not a puzz.link URL nor a puzzlekit dataset (.json) file")
