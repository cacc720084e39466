"""Slitherlink's formats: puzz.link `slither` URLs and puzzlekit dataset JSON.

- URLs: pzprjs' 4Cell body read and written (clues taking the empty cells after
  them, skips), canonical URLs round-trip, any instance survives a round
  trip, every problem is an `InstanceError` at its column; the reader claims
  only Slitherlink URLs.
- Datasets: the corpus reads with its solutions as metadata; the reader
  claims only a Slitherlink dataset; broken entries are refused by key; the
  files written read back.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from slitherlink_corpus import janko

from twinsolve.core.errors import InstanceError
from twinsolve.puzzles.slitherlink import puzzlekit as dataset
from twinsolve.puzzles.slitherlink import puzzlink, rules, strategies

# pzprjs' own example (the puzzlekit solver's metadata links it): 10 x 10.
EXAMPLE = "https://puzz.link/p?slither/10/10/ic5137bg7bchbgdccb7dgddg7ddabdgdhc7bg7316dbg"


# ---------------------------------------------------------------- puzz.link

def test_the_4cell_body_reads_clues_and_the_empty_cells_they_take():
    instance = puzzlink.decode_url("https://puzz.link/p?slither/4/2/5a0")
    # 5: a 0 and one empty cell; a: a 0 and two; then a 0 (and empty cells to the end).
    assert instance.clues == ((0, None, 0, None), (None, 0, None, None))
    assert dict(instance.meta)["source"] == "https://puzz.link/p?slither/4/2/5a0"
    assert puzzlink.encode_url(instance) == "https://puzz.link/p?slither/4/2/5aa"


def test_a_published_url_round_trips_character_for_character():
    instance = puzzlink.decode_url(EXAMPLE)
    assert (instance.rows, instance.cols) == (10, 10)
    assert puzzlink.encode_url(instance) == EXAMPLE


@settings(max_examples=30, deadline=None)
@given(strategies.grids(max_rows=4, max_cols=4))
def test_every_instance_survives_a_round_trip(instance):
    assert puzzlink.decode_url(puzzlink.encode_url(instance)).clues == instance.clues


@pytest.mark.parametrize("url,column,words", [
    ("https://puzz.link/p?slither/2/1/0f", 34, "unexpected character 'f'"),
    ("https://puzz.link/p?slither/2/1/000", 35, "too many cells"),
    ("https://puzz.link/p?slither/2/1/i", 33, "runs past the last of 2 cells"),
    ("https://puzz.link/p?slither/0/1/", 29, "COLS must be a whole number 1..200"),
    ("https://puzz.link/p?cave/2/1/00", 21, "is not Slitherlink"),
    ("https://puzz.link/p?slither/2", 30, "missing size"),
])
def test_bad_urls_are_refused_at_their_column(url, column, words):
    with pytest.raises(InstanceError) as caught:
        puzzlink.decode_url(url, "urls.txt", 3)
    assert (caught.value.source, caught.value.line, caught.value.column) == ("urls.txt", 3,
                                                                             column)
    assert words in caught.value.message


def test_the_reader_claims_only_slitherlink_urls():
    assert puzzlink.is_url(EXAMPLE) and puzzlink.is_url(" pzv.jp/p.html?slitherlink/1/1/1 ")
    assert not puzzlink.is_url("https://puzz.link/p?cave/6/6/k3h6j2l7g3g2h3n")
    assert not puzzlink.is_url("https://example.com/p?slither/1/1/1")
    assert not puzzlink.is_url(None)


# ---------------------------------------------------------------- datasets

def entry(problem="2 2\n3 -\n- -", solution="2 2\nx x\n- -", **extra):
    return {"problem": problem, "solution": solution, **extra}


def document(*entries, name="Slitherlink"):
    return json.dumps({"name": name, "data": {f"k{i}": e for i, e in enumerate(entries)}})


@pytest.mark.slow  # reading all 583 verifies every published solution: a second
def test_the_corpus_reads_with_its_solutions(corpus):
    pairs = janko(corpus)
    assert len(pairs) == 583
    key, instance = pairs[0]
    meta = dict(instance.meta)
    assert key == "1006_10x18" and (instance.rows, instance.cols) == (10, 18)
    assert meta["expect-unique"] == "true"
    assert rules.verify(instance, json.loads(meta["expect-solution"])) == []


def test_the_reader_claims_only_a_slitherlink_dataset():
    assert dataset.is_dataset(json.loads(document(entry())))
    assert dataset.is_dataset(json.loads(document(entry(), name=" slither ")))
    assert not dataset.is_dataset(json.loads(document(entry(), name="Cave")))
    assert not dataset.is_dataset({"data": {}}) and not dataset.is_dataset([])


@pytest.mark.parametrize("bad,words", [
    (entry(problem="2 2\n5 -\n- -"), "entry 'k0', problem line 2: clue '5' is impossible"),
    (entry(solution="2 2\nx -\n- -"), "entry 'k0', solution: breaks the rules: clue 3"),
    (entry(solution="2 2\nx -"), "entry 'k0', solution: has 1 rows, expected 2"),
    (entry(problem=7), "entry 'k0': 'problem' must be a string"),
    (entry(source="\ud800"), "lone surrogate"),
    ("not an object", "entry 'k0' must be an object"),
])
def test_broken_entries_are_refused_by_key(bad, words):
    with pytest.raises(InstanceError, match=words.replace("(", r"\(")):
        dataset.read_dataset(document(bad), "set.json")


def test_written_files_read_back_with_safe_distinct_names(tmp_path):
    pairs = dataset.read_dataset(document(entry(), entry(source="https://x")), "set.json")
    pairs = [("../a b", pairs[0][1]), ("a_b", pairs[1][1])]
    paths = dataset.write_instances(pairs, tmp_path / "out")
    assert [p.name for p in paths] == ["a_b.txt", "a_b-2.txt"]
    assert rules.parse(paths[1].read_text()) == pairs[1][1]
