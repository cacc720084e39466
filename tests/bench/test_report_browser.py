"""The HTML report's first screen and its controls, in headless Chromium (issue 25).

A reader opens the page on a laptop: the header (limits, host, load, date,
version) and the overview across all puzzles must be there without
scrolling at 1280x800, the contents collapsed; the per-task table's status
filters must change the rows shown, its column choice hide a back-end, and a
click on a cell open that task's runs; and the page's scripts must raise no
error. The database comes from the harness with planted outcomes (a
timeout, a flapping task, answers judged wrong), so how many rows each
filter keeps is known.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from browser import CHROMIUM, ERROR_HOOK, NO_CHROMIUM, body_attributes, dump_dom
from conftest import in_process

from twinsolve.bench.execute import record_of
from twinsolve.bench.gallery import task_pictures
from twinsolve.bench.html import page
from twinsolve.bench.plan import Budget
from twinsolve.bench.results import load
from twinsolve.bench.suite import SuiteConfig, run_suite
from twinsolve.core.result import Result, Status

ROOT = Path(__file__).resolve().parents[2]
BOARDS = {"a.txt": "lightsout 2 2\n11\n11\n", "b.txt": "lightsout 2 3\n011\n100\n",
          "c.txt": "lightsout 3 3\n010\n111\n010\n", "d.txt": "lightsout 3 3\n101\n000\n101\n",
          # no 2x2 grid needs 99 presses: every answer is judged wrong, alike
          "e.txt": "# expect-objective: 99\nlightsout 2 2\n10\n01\n"}
# Lights Out: 5 tasks; c a problem that differs (hand times out), d flapping (brute's
# second repeat times out), e a problem alike for both (wrong).
ROWS = {"all": 5, "problem": 3, "differ": 2}
# One shipped instance of each other puzzle, so the overview spans six (answers planted).
OTHERS = ("cave/unique-06x06-seed1.txt", "chess/knights-5x5-08.txt", "clock/day-24-hours.txt",
          "jugs/decant-10-7-3-exact-5-5-0.txt", "mirror/all-16x16.txt")


def planted(tasks, budget):
    """The in-process runs of Lights Out, with hand on c.txt a timeout and brute's repeat 1
    on d.txt; the other puzzles' answers planted as solved in 10 ms, without solving."""
    lights = [task for task in tasks if task.puzzle == "lightsout"]
    for task in tasks:
        if task.puzzle != "lightsout":
            yield task, record_of(task, Result(Status.SOLVED), 0.01, 0.01, budget.timeout)
    for task, record in in_process(lights, budget):
        if (task.task_path, task.backend, task.seed) in (("lightsout/c.txt", "hand", 0),
                                                         ("lightsout/c.txt", "hand", 1),
                                                         ("lightsout/d.txt", "brute", 1)):
            record = replace(record, status=Status.TIMEOUT, solution=None, objective=None,
                             verified=None, message="planted", wall_s=5.0)
        yield task, record


PROBE = """<script>
(function () {
  var body = document.body;
  function note(name, value) { body.setAttribute("data-" + name, String(value)); }
  function bottom(id) {
    return Math.round(document.getElementById(id).getBoundingClientRect().bottom + scrollY);
  }
  try {
    note("viewport", innerWidth);
    note("page-width", document.documentElement.scrollWidth);
    note("facts-bottom", bottom("facts"));
    note("overview-bottom", bottom("overview"));
    var overview = document.getElementById("overview-table");
    note("overview-overflow", overview.scrollWidth - overview.parentNode.clientWidth);
    note("facts", Array.prototype.map.call(document.querySelectorAll("#facts dt"),
      function (dt) { return dt.textContent; }).join(","));
    note("overview-rows", document.querySelectorAll("#overview-table tbody tr").length);
    note("contents-open", document.getElementById("contents").open);
    var table = document.getElementById("tasks-table-lightsout");
    var box = document.querySelector('.controls[data-for="tasks-table-lightsout"]');
    function shown() {
      return Array.prototype.filter.call(table.tBodies[0].rows,
        function (row) { return !row.hidden; }).length;
    }
    ["problem", "differ", "all"].forEach(function (name) {
      box.querySelector('input[data-filter="' + name + '"]').click();
      note("rows-" + name, shown());
    });
    note("count", box.querySelector(".count").textContent);
    box.querySelector('input[data-column="1"]').click();   // the first back-end: brute
    note("hidden-header", table.tHead.rows[0].cells[1].hidden);
    note("hidden-cells", Array.prototype.filter.call(table.tBodies[0].rows,
      function (row) { return row.cells[1].hidden; }).length);
    box.querySelector('input[data-measure="cpu"]').click();
    note("cpu-shown", table.classList.contains("show-cpu"));
    table.querySelector("td[data-run]").click();
    var dialog = document.getElementById("run-detail");
    note("dialog-open", dialog.open);
    note("dialog-text", dialog.textContent.replace(/\\s+/g, " "));
  } catch (error) {
    window.probeErrors.push("probe: " + error);
  }
  note("errors", window.probeErrors.join(" | "));
  note("probe-done", "yes");
})();
</script></body>"""


@pytest.fixture(scope="module")
def opened(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    if CHROMIUM is None:
        pytest.skip(NO_CHROMIUM)
    folder = tmp_path_factory.mktemp("browser")
    suite = folder / "suite"
    (suite / "lightsout").mkdir(parents=True)
    for name, text in BOARDS.items():
        (suite / "lightsout" / name).write_text(text)
    for other in OTHERS:
        (suite / other).parent.mkdir(exist_ok=True)
        (suite / other).write_text((ROOT / "instances" / other).read_text())
    db = folder / "r.sqlite"
    run_suite(SuiteConfig([suite], ["brute", "hand"], Budget(timeout=5), repeat=2, db=db),
              executor=planted)
    data = load(db)
    text = page(data, (), {}, task_pictures(data.records))
    path = folder / "page.html"
    path.write_text(text.replace("<head>", "<head>" + ERROR_HOOK, 1).replace("</body>", PROBE))
    found = body_attributes(dump_dom(path, folder, "1280,800"))
    assert found.get("probe-done") == "yes", found
    return found


def test_no_script_error(opened):
    assert opened["errors"] == ""


def test_the_header_and_the_overview_of_six_puzzles_fill_the_first_screen(opened):
    assert opened["viewport"] == "1280"
    assert opened["facts"] == "limits,host,load,date,version,runs"
    # the overview's bottom edge within the first 800 pixels, nothing wider than the window
    assert int(opened["facts-bottom"]) < int(opened["overview-bottom"]) <= 800
    assert int(opened["page-width"]) <= 1280 and int(opened["overview-overflow"]) <= 0
    assert opened["overview-rows"] == "3"   # brute, hand, the virtual best
    assert opened["contents-open"] == "false"


def test_the_status_filters_change_the_rows_shown(opened):
    assert {name: int(opened[f"rows-{name}"]) for name in ROWS} == ROWS
    assert opened["count"] == "5 of 5 shown"


def test_the_column_choice_hides_a_backend_and_a_cell_opens_its_runs(opened):
    assert opened["hidden-header"] == "true" and opened["hidden-cells"] == "5"
    assert opened["cpu-shown"] == "true"
    assert opened["dialog-open"] == "true"
    text = opened["dialog-text"]
    for part in ("seed", "CPU", "memory", "load", "stats", "answer",
                 "expected by the file's metadata", "picture"):
        assert part in text, part
