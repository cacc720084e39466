"""The corpus's Cave puzzles given as puzz.link URLs, for the tests."""

from __future__ import annotations


def puzzlink_cases(corpus) -> list[tuple[str, dict]]:
    """(url, solution) pairs of the corpus's puzzlink-urls.txt (`corpus` is the conftest
    fixture): 'url U' lines, each followed by its 'outside' rows ('#' outside, '.' inside)."""
    cases: list[tuple[str, list[str]]] = []
    for line in corpus("cave", "puzzlink-urls.txt").read_text().splitlines():
        if line.startswith("url "):
            cases.append((line[4:].strip(), []))
        elif line.startswith("outside "):
            cases[-1][1].append("".join("0" if ch == "#" else "1" for ch in line[8:].strip()))
    return [(url, {"inside": rows}) for url, rows in cases]
