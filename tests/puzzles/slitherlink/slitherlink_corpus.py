"""The janko.at Slitherlink corpus for the tests, read once per process, or only the
entries a test names (reading all 583 verifies every published solution: a second)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

from twinsolve.puzzles.slitherlink import puzzlekit as dataset


@functools.cache
def _everything(path: Path) -> tuple:
    return tuple(dataset.read_dataset(path))


def janko(corpus, keys=None) -> list:
    """(key, instance) pairs of the corpus (`corpus` is the conftest fixture), all of
    them, or those of `keys` in the corpus's order."""
    path = corpus("slitherlink", "janko-dev.json")
    if keys is None:
        return list(_everything(path))
    document = json.loads(path.read_text(encoding="utf-8"))
    chosen = {key: entry for key, entry in document["data"].items() if key in keys}
    assert len(chosen) == len(keys), f"not in the corpus: {set(keys) - set(chosen)}"
    return dataset.read_dataset(json.dumps({**document, "data": chosen}), str(path))


def known(instance) -> dict:
    """The published solution an instance carries as `expect-solution`."""
    return json.loads(dict(instance.meta)["expect-solution"])
