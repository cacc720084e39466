"""The HTML report's pictures (`twinsolve.bench.gallery`): per puzzle a few solved
instances with the answer the run returned, and each back-end's slowest solved one, as
inline SVG; an instance file that changed since the run is not drawn, and says so."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET

import pytest
from conftest import ROOT

INSTANCES = ROOT / "instances"



def figures(page: str) -> list[tuple[str, str]]:
    """(caption, body) of each picture on the page."""
    return re.findall(r'<figure class="picture">(.*?)<figcaption>(.*?)</figcaption></figure>',
                      page, re.S)


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_the_report_draws_solved_instances_and_each_backends_slowest(tmp_path, cli,
                                                                     pool_in_process):
    # the pictures are the point, not the pool: bench's runs are made in process
    suite = tmp_path / "suite"
    (suite / "lightsout").mkdir(parents=True)
    for name in ("all-on-03x03.txt", "all-on-04x04.txt", "all-on-05x05.txt",
                 "all-on-06x06.txt"):
        shutil.copy(INSTANCES / "lightsout" / name, suite / "lightsout" / name)
    done = cli("bench", "suite", "--backends", "hand,sat", "--quick", "--quiet",
               "--db", "r.sqlite", "--jobs", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    # the 3x3 file changes after the run: its picture would not be of the run's instance
    changed = suite / "lightsout" / "all-on-03x03.txt"
    changed.write_text(changed.read_text().replace("111", "110", 1))
    done = cli("report", "r.sqlite", "--html", "r.html")
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "r.html").read_text()
    shown = figures(page)
    captions = [caption for _, caption in shown]
    # three examples (the first paths), then hand's and sat's slowest solved run
    assert captions[:3] == ["all-on-03x03.txt (hand)", "all-on-04x04.txt (hand)",
                            "all-on-05x05.txt (hand)"]
    assert [c.split(":")[0] for c in captions[3:]] == ["hand", "sat"]
    assert all("slowest solved" in c for c in captions[3:])
    first_body = shown[0][0]
    assert "changed since the run: not drawn" in first_body and "<svg" not in first_body
    for body, _ in shown[1:3]:
        svg = ET.fromstring(body)  # well-formed, inline, no XML prolog
        assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    assert 'id="pictures-lightsout"' in page
    assert not re.search(r'(src|href)="https?:|<link|@import', page)  # self-contained
