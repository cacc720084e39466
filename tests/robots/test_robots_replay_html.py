"""The replay page (`twinsolve play --replay FILE --html OUT`): self-contained, its data
the replay's, the same bytes every time, safe against a hostile level name; and in
headless Chromium (when installed: `apt-get install -y chromium`) it runs without a
script error, draws, redraws when the slider moves, answers the keyboard, and every
algorithm layer changes the picture. The 64x64 level fits a laptop's window.

The replays are played here by the greedy scripted player on shipped levels, so the
turns where the player has moved and where a robot has a plan are found in the data.
"""

from __future__ import annotations

import copy
import html
import json
import re
from pathlib import Path

import pytest
from browser import CHROMIUM, ERROR_HOOK, NO_CHROMIUM, body_attributes, dump_dom
from conftest import ROOT

from twinsolve.cli import main
from twinsolve.robots import play, replay
from twinsolve.robots.replay_html import CELL_PIXELS, page, page_data

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason=NO_CHROMIUM)
LEVELS = ROOT / "instances" / "robots"
DATA = re.compile(r'<script type="application/json" id="replay-data">(.*?)</script>', re.S)
LAYERS = ("paths", "visited", "targets", "intents", "fog")


def greedy_replay(name: str, limit: int) -> dict:
    """The replay of the greedy player on shipped level `name`, at most `limit` turns."""
    path = LEVELS / name
    text = path.read_text()
    level = play.load(path)
    game = play.new_game(level, level.seed)
    records = list(play.turns(game, play.scripted(game, "greedy", limit)))
    return replay.build(level, text, f"instances/robots/{name}", level.seed, records)


@pytest.fixture(scope="module")
def crossfire():
    return greedy_replay("level-3.txt", 60)


@pytest.fixture(scope="module")
def crossfire_page(crossfire):
    return page(crossfire)


def embedded(text: str) -> dict:
    found = DATA.findall(text)
    assert len(found) == 1, "expected one embedded JSON element"
    return json.loads(found[0])


def turn_where_the_player_has_moved(frames: list[dict], cells: int = 5) -> int:
    start = frames[0]["player"]
    return next(k for k, frame in enumerate(frames)
                if abs(frame["player"][0] - start[0]) + abs(frame["player"][1] - start[1])
                >= cells)


def turn_with_plans(frames: list[dict]) -> int:
    """The first turn with a planned path of two cells or more, visited cells and a target."""
    return next(k for k, frame in enumerate(frames)
                if any(len(robot["path"]) >= 2 for robot in frame["robots"])
                and any(robot["visited"] for robot in frame["robots"])
                and any(robot["target"] for robot in frame["robots"]))


# ------------------------------------------------------------------ the page, in Python

def test_the_page_is_self_contained(crossfire_page):
    lowered = crossfire_page.lower()
    for reference in ("http://", "https://", "<link", " src=", "url(", "@import", "<iframe"):
        assert reference not in lowered, reference
    assert lowered.count("<script") == 2  # the data and the one inline script
    assert lowered.count('<script type="application/json"') == 1
    assert "<canvas" in lowered


def test_the_embedded_json_holds_the_start_and_every_turn(crossfire):
    data = embedded(page(crossfire))
    level = replay.level_of(crossfire)
    assert len(data["frames"]) == len(crossfire["turns"]) + 1
    assert data["frames"][1:] == crossfire["turns"]
    assert data["frames"][0] == play.start_record(play.new_game(level, crossfire["seed"]))
    assert data["frames"][0]["player"] == list(level.player)
    assert data["frames"][0]["action"] == "" and data["frames"][0]["events"] == []
    assert (data["rows"], data["cols"], data["exit"]) == (20, 26, list(level.exit))
    assert data["shards_total"] == 5  # level-3 has five '*'


def test_the_static_map_is_the_level_files_tiles(crossfire):
    # Oracle: the level file's map lines, every mark on floor (P, E, items, robots) read as '.'.
    lines = crossfire["level"]["text"].splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("robots ")) + 1
    expected = ["".join(char if char in "#.grD" else "." for char in line)
                for line in lines[first:first + 20]]
    assert embedded(page(crossfire))["map"] == expected


def test_the_title_names_the_level_and_says_twinsolve_replay(crossfire_page):
    assert "<title>Crossfire - twinsolve replay</title>" in crossfire_page
    assert "<h1>Crossfire <small>twinsolve replay</small></h1>" in crossfire_page


def test_the_same_replay_gives_the_same_bytes_whatever_its_key_order(crossfire, crossfire_page):
    reordered = json.loads(json.dumps(crossfire),
                           object_pairs_hook=lambda pairs: dict(reversed(pairs)))
    assert list(reordered) != list(crossfire)
    assert page(copy.deepcopy(crossfire)) == crossfire_page
    assert page(reordered) == crossfire_page


def test_a_level_name_with_a_closing_script_tag_stays_inside_the_data(crossfire):
    hostile = copy.deepcopy(crossfire)
    name = 'Trap</script><script>document.title="pwned"</script><!--'
    hostile["level"]["name"] = name
    text = page(hostile)
    assert text.count("</script>") == 2  # the data element's end and the script's
    assert "<!--" not in text
    assert embedded(text)["name"] == name  # the escapes decode back to the name
    assert f"<title>{html.escape(name)} - twinsolve replay</title>" in text


def test_a_replay_without_a_name_takes_the_level_files(crossfire):
    nameless = copy.deepcopy(crossfire)
    nameless["level"]["name"] = ""
    assert page_data(nameless)["name"] == "Crossfire"  # the file's '# name:'
    nameless["level"]["text"] = "robots 1 3\nP.E\n"
    nameless.update(turns=[], moves="")
    assert page_data(nameless)["name"] == "level-3.txt"  # its file name, at last


def test_the_command_line_writes_the_page(crossfire, tmp_path, capsys):
    recorded, written = tmp_path / "crossfire.json", tmp_path / "crossfire.html"
    replay.write(recorded, crossfire)
    assert main(["play", "--replay", str(recorded), "--html", str(written)]) == 0
    assert f"wrote {written}" in capsys.readouterr().out
    assert written.read_text(encoding="utf-8") == page(replay.read(recorded))


# ------------------------------------------------------------------ the page, in Chromium

PROBE = """<script>
(function () {
  var body = document.body, canvas = document.getElementById("board");
  var slider = document.getElementById("timeline");
  function note(name, value) { body.setAttribute("data-" + name, String(value)); }
  function pixels() {
    return canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  }
  function hash() {
    var d = pixels(), h = 2166136261;
    for (var i = 0; i < d.length; i++) { h = Math.imul(h ^ d[i], 16777619) >>> 0; }
    return h.toString(16);
  }
  function inked() {
    var d = pixels(), n = 0;
    for (var i = 3; i < d.length; i += 4) { if (d[i] !== 0) { n++; } }
    return n;
  }
  function colours() {
    var d = pixels(), seen = {}, n = 0;
    for (var i = 0; i < d.length; i += 4) {
      var key = d[i] + "," + d[i + 1] + "," + d[i + 2];
      if (!seen[key]) { seen[key] = true; n++; }
    }
    return n;
  }
  function brightness() {
    var d = pixels(), sum = 0;
    for (var i = 0; i < d.length; i += 4) { sum += d[i] + d[i + 1] + d[i + 2]; }
    return Math.round(sum / (d.length / 4));
  }
  // Table cells holding one word ("search") that the layout broke over two lines, in
  // every frame: a word is never cut.
  function brokenWords() {
    var broken = [];
    for (var k = 0; k <= Number(slider.max); k++) {
      slide(k);
      document.querySelectorAll("#robots td").forEach(function (td) {
        Array.prototype.forEach.call(td.childNodes, function (node) {
          var text = node.textContent, range = document.createRange();
          if (node.nodeType !== 3 || !text || text.indexOf(" ") >= 0) { return; }
          range.selectNodeContents(node);  // the word's own boxes: one line, one box
          if (range.getClientRects().length > 1) { broken.push(k + ":" + text); }
        });
      });
    }
    return broken.join(" ");
  }
  function slide(turn) { slider.value = String(turn); slider.dispatchEvent(new Event("input")); }
  function key(name) {
    document.dispatchEvent(new KeyboardEvent("keydown", {key: name, bubbles: true}));
  }
  function text(id) { return document.getElementById(id).textContent; }
  function toggled(layer) {
    var before = hash(), box = document.getElementById("layer-" + layer);
    box.click();
    var after = hash();
    box.click();
    return before !== after && hash() === before;
  }
  try {
    var board = canvas.getBoundingClientRect();
    note("canvas", [canvas.width, canvas.height, Math.round(board.right),
                    Math.round(board.bottom), window.innerWidth, window.innerHeight].join(","));
    note("inked", inked());
    note("colours", colours());
    note("hash-start", hash());
    slide(MOVED);
    note("hash-moved", hash());
    note("label-moved", text("turn-label"));
    note("action-moved", text("fact-action"));
    slide(0);
    note("hash-start-again", hash());
    slide(PLANNED);
    note("hash-paths-on", hash());
    document.getElementById("layer-paths").click();
    note("hash-paths-off", hash());
    document.getElementById("layer-paths").click();
    note("hash-paths-back", hash());
    note("layers-that-redraw", LAYERS.filter(toggled).join(","));
    note("brightness-clear", brightness());
    document.getElementById("layer-fog").click();
    note("brightness-fog", brightness());
    document.getElementById("layer-fog").click();
    note("robot-rows", document.querySelectorAll("#robots tbody tr").length);
    note("broken-words", brokenWords());
    note("logged-turns", document.querySelectorAll("#event-log button").length);
    slide(0);
    key("ArrowRight"); key("ArrowRight");
    note("after-right", slider.value);
    key("ArrowLeft");
    note("after-left", slider.value + " " + text("turn-label"));
    key(" ");
    note("button-playing", text("play"));
    key(" ");
    note("button-paused", text("play"));
  } catch (error) {
    window.probeErrors.push("probe: " + error);
  }
  note("errors", window.probeErrors.join(" | "));
  note("probe-done", "yes");
})();
</script></body>"""


def run_in_chromium(text: str, frames: list[dict], folder: Path, window: str = "1280,900"
                    ) -> dict[str, str]:
    """Open the page with the error hook and the probe in headless Chromium; the data-*
    attributes the probe left on <body>."""
    probe = (PROBE.replace("MOVED", str(turn_where_the_player_has_moved(frames)))
             .replace("PLANNED", str(turn_with_plans(frames)))
             .replace("LAYERS", json.dumps(list(LAYERS))))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "page.html"
    path.write_text(text.replace("<head>", "<head>" + ERROR_HOOK, 1).replace("</body>", probe),
                    encoding="utf-8")
    found = body_attributes(dump_dom(path, folder, window))
    assert found.get("probe-done") == "yes", found
    return found


@pytest.fixture(scope="module")
def browser(crossfire, crossfire_page, tmp_path_factory):
    if CHROMIUM is None:
        pytest.skip(NO_CHROMIUM)
    frames = embedded(crossfire_page)["frames"]
    return run_in_chromium(crossfire_page, frames, tmp_path_factory.mktemp("crossfire"))


@needs_chromium
def test_the_page_runs_without_script_errors_and_draws(browser):
    assert browser["errors"] == ""
    width, height = (int(n) for n in browser["canvas"].split(",")[:2])
    assert width >= 26 * CELL_PIXELS[0] and height >= 20 * CELL_PIXELS[0]
    assert int(browser["inked"]) > 0.9 * width * height  # cells cover the whole board
    assert int(browser["colours"]) >= 8  # walls, floor, cover, items, robots, player...


@needs_chromium
def test_moving_the_slider_redraws_and_the_first_turn_comes_back(browser, crossfire):
    moved = turn_where_the_player_has_moved(embedded(page(crossfire))["frames"])
    assert browser["hash-moved"] != browser["hash-start"]
    assert browser["hash-start-again"] == browser["hash-start"]
    assert browser["label-moved"] == f"turn {moved} / {len(crossfire['turns'])}"
    action = crossfire["turns"][moved - 1]["action"]  # frame k is the state after turn k
    assert browser["action-moved"].startswith(f"{action} (")


@needs_chromium
def test_the_paths_layer_draws_the_planned_paths(browser):
    assert browser["hash-paths-off"] != browser["hash-paths-on"]
    assert browser["hash-paths-back"] == browser["hash-paths-on"]


@needs_chromium
def test_every_layer_changes_the_picture_and_fog_darkens_it(browser):
    assert browser["layers-that-redraw"].split(",") == list(LAYERS)
    assert int(browser["brightness-fog"]) < int(browser["brightness-clear"])


@needs_chromium
def test_the_panel_lists_the_robots_and_the_turns_with_events(browser, crossfire):
    data = embedded(page(crossfire))
    planned = turn_with_plans(data["frames"])
    assert int(browser["robot-rows"]) == len(data["frames"][planned]["robots"]) == 3
    assert int(browser["logged-turns"]) == sum(1 for frame in data["frames"] if frame["events"])
    assert int(browser["logged-turns"]) >= 1  # level-3's greedy run sounds an alarm


@pytest.fixture(scope="module")
def black_site():
    """120 turns of the winning line on level 4: every robot state and intent shows."""
    lines = json.loads((Path(__file__).parent / "winning_lines.json").read_text())
    line, path = lines["level-4"], LEVELS / "level-4.txt"
    level = play.load(path)
    records = list(play.turns(play.new_game(level, line["seed"]), line["moves"][:120]))
    return replay.build(level, path.read_text(), "instances/robots/level-4.txt", line["seed"],
                        records)


@needs_chromium
@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_no_word_of_the_robots_table_is_broken_over_two_lines(black_site, tmp_path):
    states = {robot["state"] for turn in black_site["turns"] for robot in turn["robots"]}
    assert {"patrol", "alert", "chase", "search"} <= states
    text = page(black_site)
    found = run_in_chromium(text, embedded(text)["frames"], tmp_path)
    assert found["errors"] == "" and found["broken-words"] == ""


def test_the_page_names_the_level_not_the_recording_machines_folders(crossfire):
    recorded = copy.deepcopy(crossfire)
    recorded["level"]["source"] = "/home/ann/secret-project/levels/level-3.txt"
    text = page(recorded)
    assert "/home/ann" not in text and "secret-project" not in text
    assert "level file level-3.txt" in text and "<h1>Crossfire " in text
    recorded["level"]["source"] = "C:\\Users\\ann\\level-3.txt"
    assert "Users" not in page(recorded)


@needs_chromium
def test_the_arrow_keys_step_and_space_plays_and_pauses(browser, crossfire):
    assert browser["after-right"] == "2"
    assert browser["after-left"] == f"1 turn 1 / {len(crossfire['turns'])}"
    assert "Pause" in browser["button-playing"]
    assert "Play" in browser["button-paused"]


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
@needs_chromium
def test_the_64x64_level_fits_a_laptop_window(tmp_path):
    # Headless Chromium's viewport is the window less its frame: 1280x1100 gives about
    # 1280x960, a 1920x1080 laptop's browser viewport.
    stress = greedy_replay("stress-64x64.txt", 30)
    text = page(stress)
    found = run_in_chromium(text, embedded(text)["frames"], tmp_path, window="1280,1100")
    assert found["errors"] == ""
    width, _height, right, bottom, inner_width, inner_height = (
        int(n) for n in found["canvas"].split(","))
    assert width >= 64 * CELL_PIXELS[0]  # cells no smaller than the readable minimum
    assert right <= inner_width and bottom <= inner_height, found["canvas"]
