"""The HTML report, its plots and the Markdown / LaTeX exports, from known records.

The records are made by hand (no solver runs), so which run is fastest, which
back-ends pair in a scatter and the order a sorted column must take are
known exactly. The sort script is run in headless Chromium when it is
installed (`apt-get install -y chromium`).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from browser import CHROMIUM, NO_CHROMIUM, dump_dom
from conftest import in_process

from twinsolve.bench.exports import latex_text, markdown_text
from twinsolve.bench.html import page
from twinsolve.bench.plots import PAIRWISE_MAX, Plot, all_plots, render, same_nodes, scatter_plots
from twinsolve.bench.records import RunRecord
from twinsolve.bench.report import report
from twinsolve.bench.results import ReportData
from twinsolve.bench.scores import totals
from twinsolve.bench.suite import SuiteConfig, run_suite
from twinsolve.core.result import Status

ROOT = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"

# (path, backend, status, wall seconds, message); the fastest solved run per task:
# a: hand, b: sat, c: sat, d: cpsat, e: cpsat
RUNS = [
    ("a.txt", "hand", Status.OPTIMAL, 0.003, None), ("a.txt", "cpsat", Status.OPTIMAL, 0.05, None),
    ("a.txt", "sat", Status.OPTIMAL, 0.02, None),
    ("b.txt", "hand", Status.TIMEOUT, 10.0, None), ("b.txt", "cpsat", Status.OPTIMAL, 1.2, None),
    ("b.txt", "sat", Status.OPTIMAL, 0.5, None),
    ("c.txt", "hand", Status.OPTIMAL, 0.2, None), ("c.txt", "cpsat", Status.UNSUPPORTED, 0, None),
    ("c.txt", "sat", Status.OPTIMAL, 0.1, None),
    ("d.txt", "hand", Status.WRONG, 0.01, "optimal objective 5, expected 2"),
    ("d.txt", "cpsat", Status.OPTIMAL, 0.7, None),
    ("d.txt", "sat", Status.CRASH, 0.3, "worker killed by SIGSEGV"),
    ("e.txt", "hand", Status.OPTIMAL, 0.05, None), ("e.txt", "cpsat", Status.OPTIMAL, 0.04, None),
    ("e.txt", "sat", Status.TIMEOUT, 10.0, None),
]


def record(path, backend, status, wall_s, message=None, puzzle="lightsout", nodes=10):
    return RunRecord(f"instances/{puzzle}/{path}", puzzle, backend, status, wall_s=wall_s,
                     stats={"nodes": nodes}, message=message, instance_hash=f"h-{path}",
                     timeout_s=5.0)


def records() -> list[RunRecord]:
    return [record(*run, nodes=10 + i) for i, run in enumerate(RUNS)]


def data_of(runs: list[RunRecord], db: str = "results.sqlite") -> ReportData:
    return ReportData(db=Path(db), selection=f"the plan of session 1: {len(runs)} runs",
                      columns=("status",), rows=tuple({"status": r.status.value} for r in runs),
                      records=tuple(runs), sessions=(), totals=tuple(totals(runs)))


@pytest.fixture(scope="module")
def rendered() -> list[tuple[Plot, str]]:
    """Every plot of `records()` with its SVG, drawn once: the page's and the plots' tests'."""
    return [(plot, render(plot, "svg").decode()) for plot in all_plots(records())]


@pytest.fixture(scope="module")
def html_page(rendered) -> str:
    return page(data_of(records()), rendered)


def _tasks_table(text: str, puzzle: str = "lightsout") -> str:
    start = text.index(f'id="tasks-table-{puzzle}"')
    return text[start:text.index("</table>", start)]


# ------------------------------------------------------------------ plots

def test_time_scatters_pair_every_two_backends_up_to_four_else_face_the_virtual_best():
    four = [record("a.txt", f"b{i}", Status.OPTIMAL, 0.1 * (i + 1)) for i in range(4)]
    pairs = [p.stem for p in scatter_plots(four, "time")]
    assert len(pairs) == 6 == PAIRWISE_MAX * (PAIRWISE_MAX - 1) // 2
    five = [record("a.txt", f"b{i}", Status.OPTIMAL, 0.1 * (i + 1)) for i in range(5)]
    stems = [p.stem for p in scatter_plots(five, "time")]
    assert stems == [f"scatter-time-lightsout-b{i}-vs-virtual_best" for i in range(5)]


def test_node_scatters_only_between_backends_that_count_nodes_alike():
    specs = ["cpsat", "hand", "hand:probe=false", "sat", "sat:glucose4"]
    runs = [record("a.txt", s, Status.OPTIMAL, 0.1) for s in specs]
    stems = [p.stem for p in scatter_plots(runs, "nodes")]
    assert stems == ["scatter-nodes-lightsout-hand-vs-hand_probe_false",
                     "scatter-nodes-lightsout-sat-vs-sat_glucose4"]
    assert same_nodes("hand [10s]", "hand:probe=false [10s]") and not same_nodes("hand", "cpsat")


def test_each_point_of_an_svg_names_its_task(rendered):
    svg = next(svg for plot, svg in rendered
               if plot.kind == "scatter-time" and plot.stem.endswith("hand-vs-sat"))
    tips = [t.text for t in ET.fromstring(svg).iter(f"{SVG}title")]
    assert len(tips) == 5  # one per task both ran
    a = next(t for t in tips if t.startswith("instances/lightsout/a.txt"))
    assert a.splitlines() == ["instances/lightsout/a.txt", "hand: optimal in 3.0 ms, 10 nodes",
                              "sat: optimal in 20.0 ms, 12 nodes"]
    assert "twinsolve-tip" not in svg  # our link targets became the tooltips


def test_a_log_axis_says_how_it_draws_a_zero():
    runs = [record("a.txt", "hand", Status.OPTIMAL, 0.0, nodes=0),   # no measurable time
            record("a.txt", "hand:probe=false", Status.OPTIMAL, 0.002, nodes=4),
            record("b.txt", "hand", Status.OPTIMAL, 0.01, nodes=3),
            record("b.txt", "hand:probe=false", Status.OPTIMAL, 0.02, nodes=6)]
    labels = {p.kind: (p.figure.axes[0].get_xlabel(), p.figure.axes[0].get_ylabel())
              for p in all_plots(runs)}
    assert labels["cactus"][0] == "time limit t (s, wall); 0 to 0.1 ms drawn at 0.1 ms"
    assert labels["scatter-time"] == ("hand: wall time (s); 0 to 0.1 ms drawn at 0.1 ms",
                                      "hand:probe=false: wall time (s)")
    assert labels["scatter-nodes"] == ("hand: nodes; 0 drawn at 1", "hand:probe=false: nodes")
    assert labels["nodes-time"][1] == "nodes (each back-end counts its own); 0 drawn at 1"
    without = {p.kind: p.figure.axes[0].get_xlabel() for p in all_plots(runs[2:])}
    assert "drawn at" not in without["cactus"] and "drawn at" not in without["scatter-time"]


def test_plot_titles_say_what_they_show(rendered):
    titles = {plot.kind: plot.title for plot, _ in rendered}
    assert titles["cactus"] == "lightsout: tasks solved within time t, per back-end (5 tasks)"
    assert titles["scatter-time"].startswith("lightsout: wall time per task\n")
    assert "(x) against" in titles["scatter-time"]
    assert titles["nodes-time"].startswith("lightsout: search nodes against wall time")


# ------------------------------------------------------------------ the page

def test_per_task_table_has_one_row_per_instance_and_marks_the_fastest(html_page):
    table = _tasks_table(html_page)
    assert re.findall(r"<th>([^<]*)</th>", table) == ["instance", "cpsat", "hand", "sat"]
    rows = re.findall(r"<tr data-[^>]*>(.*?)</tr>", table)
    assert [re.search(r'class="path">([^<]*)<', r).group(1) for r in rows] == [
        f"instances/lightsout/{n}.txt" for n in "abcde"]
    best = [re.findall(r'<td class="run [a-z]+ best"[^>]*><span class="st">([^<]*)</span>'
                       r'<span class="m m-wall">([^<]*)<', r) for r in rows]
    assert best == [[("optimal", " 3.0 ms")], [("optimal", " 500.0 ms")],
                    [("optimal", " 100.0 ms")], [("optimal", " 700.0 ms")],
                    [("optimal", " 40.0 ms")]]
    assert 'title="optimal objective 5, expected 2"' in table  # why the wrong run is wrong


def test_page_has_contents_every_link_resolves_and_one_inline_script(html_page):
    targets = re.findall(r'href="#([^"]+)"', html_page)
    ids = set(re.findall(r'\bid="([^"]+)"', html_page))
    assert "tasks-lightsout" in targets and "problems" in targets
    assert [t for t in targets if t not in ids] == []
    assert html_page.count("<script>") == 1 and "src=" not in html_page
    assert "wall time per task, cpsat (x) against hand (y)" in html_page  # a plot in the contents


def test_page_says_over_which_tasks_par2_is_taken(html_page):
    assert "5 tasks; PAR-2 over 4 (1 left out for every back-end: unsupported by cpsat)" \
        in html_page
    assert "left out for every back-end alike" in html_page


@pytest.mark.skipif(CHROMIUM is None,
                    reason=NO_CHROMIUM)
@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_clicking_a_header_sorts_the_table_in_a_browser(tmp_path, html_page):
    # Click the hand column twice and the totals' PAR-2 once, writing the orders down.
    probe = """<script>
    function order(id, col) {
      return Array.prototype.map.call(document.getElementById(id).tBodies[0].rows,
        function (r) { return r.cells[col].textContent; }).join(",");
    }
    var hand = document.querySelector("#tasks-table-lightsout thead th:nth-child(3)");
    hand.click();
    document.body.setAttribute("data-up", order("tasks-table-lightsout", 0));
    hand.click();
    document.body.setAttribute("data-down", order("tasks-table-lightsout", 0));
    var par2 = Array.prototype.find.call(
      document.querySelectorAll("#totals-table-lightsout thead th"),
      function (th) { return th.textContent === "PAR-2"; });
    par2.click();
    document.body.setAttribute("data-par2", order("totals-table-lightsout", 0));
    </script></body>"""
    path = tmp_path / "page.html"
    path.write_text(html_page.replace("</body>", probe))
    dom = dump_dom(path, tmp_path)
    def attribute(name: str) -> list[str]:
        found = re.search(rf'{name}="([^"]*)"', dom)
        assert found, dom[:500]
        return [p.removeprefix("instances/lightsout/") for p in found.group(1).split(",")]

    # hand: solved runs fastest first (a 3 ms, e 50 ms, c 200 ms), then timeout, then wrong
    assert attribute("data-up") == ["a.txt", "e.txt", "c.txt", "b.txt", "d.txt"]
    assert attribute("data-down") == ["d.txt", "b.txt", "c.txt", "e.txt", "a.txt"]
    rows = {r["backend"]: r["par2"] for r in totals(records())}
    assert attribute("data-par2") == sorted(rows, key=rows.get)


# ------------------------------------------------------------------ Markdown and LaTeX

def test_markdown_export_holds_every_column_and_the_par2_note():
    text = markdown_text(data_of(records()))
    lines = text.splitlines()
    assert lines[0].startswith("| puzzle | back-end | runs | solved | wins | only solver |")
    assert lines[1].startswith("|:---|:---|---:|")
    hand = next(line for line in lines if line.startswith("| lightsout | hand |"))
    assert "| 3 | 1 |" in hand  # solved 3 (a, c, e), one win (a)
    assert "*virtual best*" in text
    assert "- lightsout: 5 tasks; PAR-2 over 4 (1 left out for every back-end: unsupported " \
           "by cpsat)" in text


def test_latex_export_escapes_and_uses_booktabs():
    runs = [*records(), record("a.txt", "cmd:my_solver", Status.OPTIMAL, 0.5, puzzle="jugs")]
    text = latex_text(data_of(runs))
    assert "\\begin{tabular}{ll" + "r" * 18 + "}" in text and "\\toprule" in text
    assert "jugs & cmd:my\\_solver & 1 & 1 &" in text
    assert text.count("\\midrule") == 2  # under the header, and between the two puzzles
    assert "\\textit{virtual best}" in text
    assert text.rstrip().endswith("\\end{tabular}")


def test_cli_writes_markdown_and_latex_atomically(tmp_path, cli):
    folder = tmp_path / "instances"
    folder.mkdir()
    (folder / "x.txt").write_text("lightsout 2 2\n11\n11\n")
    db = tmp_path / "r.sqlite"
    run_suite(SuiteConfig(paths=[folder], backends=["brute"], db=db), executor=in_process)
    done = cli("report", db, "--markdown", tmp_path / "out" / "s.md", "--latex",
               tmp_path / "s.tex", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-2:] == [f"wrote {tmp_path / 'out' / 's.md'}",
                                             f"wrote {tmp_path / 's.tex'}"]
    assert "| lightsout | brute | 1 | 1 |" in (tmp_path / "out" / "s.md").read_text()
    assert "lightsout & brute & 1 & 1 &" in (tmp_path / "s.tex").read_text()
    assert sorted(p.name for p in tmp_path.rglob("*") if p.name.startswith(".")) == []
    result = report(db, markdown_path=tmp_path / "again.md")
    assert result.written == (tmp_path / "again.md",)
