/* twinsolve studio: the page's one script.
 *
 * Everything a puzzle is comes from the server: a board is an SVG picture in
 * millimetres with targets (boxes to click, named by item) and the moves possible
 * now (each made by clicking or dragging its path of targets, a right click, or a
 * button). This script knows no puzzle: it draws what it is sent, turns clicks,
 * drags and keys into moves, and keeps the list of moves made (undo and redo are
 * that list). The current board is an instance's text; every tab works on it.
 */
(function () {
  "use strict";

  var TOKEN = document.querySelector('meta[name="twinsolve-token"]').content;
  var SVGNS = "http://www.w3.org/2000/svg";
  var info = null;                 // /api/info: puzzles, folders, levels, databases
  var current = null;              // {text, label, puzzle}
  var activeTab = "library";

  // ------------------------------------------------------------------ helpers
  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function api(path, body) {
    return fetch(path, {method: "POST", credentials: "same-origin",
                        headers: {"Content-Type": "application/json", "X-Twinsolve-Token": TOKEN},
                        body: JSON.stringify(body || {})}).then(answer);
  }
  function getJson(path) {
    return fetch(path, {credentials: "same-origin"}).then(answer);
  }
  function answer(response) {
    var type = response.headers.get("content-type") || "";
    if (!response.ok) {
      return (type.indexOf("json") >= 0 ? response.json() : response.text()).then(function (body) {
        throw new Error(body && body.error ? body.error : "HTTP " + response.status);
      });
    }
    return type.indexOf("json") >= 0 ? response.json() : response.blob();
  }
  var messageTimer = null;
  function say(text, isError) {
    var box = $("message");
    box.textContent = text;
    box.className = "shown" + (isError ? " error" : "");
    clearTimeout(messageTimer);
    messageTimer = setTimeout(function () { box.className = ""; }, isError ? 6000 : 2500);
  }
  function failed(error) { say(error.message || String(error), true); }
  function puzzleInfo(name) {
    return (info.puzzles || []).filter(function (p) { return p.name === name; })[0] || null;
  }
  function fillSelect(select, values, labels, keep) {
    var before = select.value;
    while (select.firstChild) { select.removeChild(select.firstChild); }
    values.forEach(function (value, i) {
      select.appendChild(el("option", {value: value}, labels ? labels[i] : value));
    });
    if (keep && values.indexOf(before) >= 0) { select.value = before; }
  }
  function typing(event) {
    var tag = event.target && event.target.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT";
  }

  // ------------------------------------------------------------------ boards
  // Draw `board` (the server's JSON) into `holder`, with a target box per item on top.
  function drawBoard(holder, board, options) {
    options = options || {};
    holder.innerHTML = board.svg;
    var svg = holder.querySelector("svg");
    var room = options.width || Math.max(280, Math.min(760, (holder.parentNode.clientWidth || 600) - 20));
    var scale = Math.min(options.maxScale || 11, room / board.width);
    svg.setAttribute("width", String(Math.round(board.width * scale)));
    svg.setAttribute("height", String(Math.round(board.height * scale)));
    var layer = document.createElementNS(SVGNS, "g");
    layer.setAttribute("class", "targets");
    board.targets.forEach(function (target, index) {
      var box = document.createElementNS(SVGNS, "rect");
      box.setAttribute("x", target.box[0]);
      box.setAttribute("y", target.box[1]);
      box.setAttribute("width", target.box[2]);
      box.setAttribute("height", target.box[3]);
      box.setAttribute("class", "target");
      box.setAttribute("data-item", target.item);
      box.setAttribute("data-state", target.state);
      box.setAttribute("data-index", String(index));
      var title = document.createElementNS(SVGNS, "title");
      title.textContent = target.item + (target.state ? ": " + target.state : "");
      box.appendChild(title);
      layer.appendChild(box);
    });
    svg.appendChild(layer);
    return svg;
  }
  function targetRect(holder, item) {
    return holder.querySelector('rect.target[data-item="' + CSS.escape(item) + '"]');
  }
  function mark(holder, items, cls) {
    holder.querySelectorAll("rect.target." + cls).forEach(function (r) { r.classList.remove(cls); });
    (items || []).forEach(function (item) {
      var rect = targetRect(holder, item);
      if (rect) { rect.classList.add(cls); }
    });
  }
  // Clicks, right clicks and drags on targets, and a keyboard cursor over them.
  function attachPointer(holder, handlers) {
    var pressed = null;
    holder.addEventListener("mousedown", function (event) {
      var rect = event.target.closest && event.target.closest("rect.target");
      if (!rect || event.button !== 0) { return; }
      pressed = rect.getAttribute("data-item");
      event.preventDefault();
    });
    holder.addEventListener("mouseup", function (event) {
      var rect = event.target.closest && event.target.closest("rect.target");
      if (event.button !== 0) { return; }
      var item = rect ? rect.getAttribute("data-item") : null;
      var from = pressed;
      pressed = null;
      if (!item || !from) { return; }
      holder.focus({preventScroll: true});
      if (from === item) { handlers.click(item, false); } else { handlers.drag(from, item); }
    });
    holder.addEventListener("contextmenu", function (event) {
      var rect = event.target.closest && event.target.closest("rect.target");
      if (!rect) { return; }
      event.preventDefault();
      handlers.click(rect.getAttribute("data-item"), true);
    });
  }
  // The target nearest `from` in a direction (dx, dy), by the boxes' centres.
  function nearest(board, from, dx, dy) {
    var a = board.targets[from];
    if (!a) { return 0; }
    var ax = a.box[0] + a.box[2] / 2, ay = a.box[1] + a.box[3] / 2, best = from, bestScore = Infinity;
    board.targets.forEach(function (b, index) {
      var bx = b.box[0] + b.box[2] / 2 - ax, by = b.box[1] + b.box[3] / 2 - ay;
      var along = bx * dx + by * dy, across = Math.abs(bx * dy - by * dx);
      if (along <= 0.01) { return; }
      var score = along + 3 * across;
      if (score < bestScore) { bestScore = score; best = index; }
    });
    return best;
  }
  var ARROWS = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]};

  // ------------------------------------------------------------------ the current board
  function setCurrent(text, label) {
    return api("/api/parse", {text: text}).then(function (parsed) {
      current = {text: parsed.text, label: label || "untitled", puzzle: parsed.puzzle};
      $("current").textContent = "board: " + current.label + " (" + current.puzzle + ")";
      resetPlay();
      resetSolve();
      return current;
    });
  }
  function needBoard() {
    if (!current) { say("pick a board first: open one in the Library, or generate one", true); }
    return current !== null;
  }

  // ------------------------------------------------------------------ tabs
  function showTab(name) {
    activeTab = name;
    document.querySelectorAll(".tab").forEach(function (tab) {
      tab.classList.toggle("active", tab.id === "tab-" + name);
    });
    document.querySelectorAll("#tabs button").forEach(function (button) {
      button.classList.toggle("active", button.getAttribute("data-tab") === name);
    });
    if (window.location.hash !== "#" + name) { history.replaceState(null, "", "#" + name); }
    if (name === "play" && current) { refreshPlay(); }
    if (name === "solve" && current) { fillBackends(); }
    if (name === "author") { fillAuthorPuzzles(); }
  }

  // ------------------------------------------------------------------ library
  var library = {entries: []};
  function loadLibrary(listing) {
    library.entries = listing.entries;
    $("lib-folders").textContent = listing.folders.join(", ");
    var puzzles = [], sizes = [], levels = [];
    listing.entries.forEach(function (e) {
      if (puzzles.indexOf(e.puzzle) < 0) { puzzles.push(e.puzzle); }
      if (sizes.indexOf(e.size) < 0) { sizes.push(e.size); }
      if (e.level && levels.indexOf(e.level) < 0) { levels.push(e.level); }
    });
    fillSelect($("lib-puzzle"), [""].concat(puzzles), ["all"].concat(puzzles), true);
    fillSelect($("lib-size"), [""].concat(sizes), ["all"].concat(sizes), true);
    fillSelect($("lib-level"), [""].concat(levels), ["all"].concat(levels), true);
    var problems = $("lib-problems");
    while (problems.firstChild) { problems.removeChild(problems.firstChild); }
    listing.problems.forEach(function (line) { problems.appendChild(el("li", {}, line)); });
    $("lib-problems-box").hidden = listing.problems.length === 0;
    showCards();
  }
  function showCards() {
    var puzzle = $("lib-puzzle").value, size = $("lib-size").value, level = $("lib-level").value;
    var name = $("lib-name").value.toLowerCase();
    var cards = $("lib-cards");
    while (cards.firstChild) { cards.removeChild(cards.firstChild); }
    var shown = library.entries.filter(function (e) {
      return (!puzzle || e.puzzle === puzzle) && (!size || e.size === size) &&
             (!level || e.level === level) && (!name || e.path.toLowerCase().indexOf(name) >= 0);
    });
    shown.slice(0, 400).forEach(function (entry) { cards.appendChild(card(entry)); });
    $("lib-count").textContent = shown.length + " of " + library.entries.length + " instances" +
      (shown.length > 400 ? " (the first 400 shown: filter to see others)" : "");
  }
  function card(entry) {
    var box = el("div", {"class": "card", "data-id": String(entry.id), "data-path": entry.path});
    var about = puzzleInfo(entry.puzzle);
    if (about && about.picture) {
      box.appendChild(el("img", {src: "/api/thumbnail?id=" + entry.id, loading: "lazy", alt: entry.path}));
    }
    box.appendChild(el("div", {"class": "name"}, entry.path));
    box.appendChild(el("div", {"class": "facts"},
                       entry.puzzle + " · " + entry.size + (entry.level ? " · " + entry.level : "")));
    var buttons = el("div", {"class": "buttons"});
    [["Play", "play"], ["Solve", "solve"], ["Author", "author"]].forEach(function (pair) {
      var button = el("button", {type: "button", "data-go": pair[1]}, pair[0]);
      buttons.appendChild(button);
    });
    box.appendChild(buttons);
    box.addEventListener("click", function (event) {
      var go = event.target.getAttribute && event.target.getAttribute("data-go");
      openEntry(entry, go || "play");
    });
    return box;
  }
  function openEntry(entry, tab) {
    api("/api/open", {id: entry.id}).then(function (opened) {
      return setCurrent(opened.text, opened.label);
    }).then(function () {
      if (tab === "author") { authorFromCurrent(); }
      showTab(tab);
    }).catch(failed);
  }

  // ------------------------------------------------------------------ play
  var play = {moves: [], undone: [], board: null, selected: null, cursor: 0, hint: null, checked: null};
  function resetPlay() {
    play.moves = []; play.undone = []; play.selected = null; play.cursor = 0; play.hint = null;
    play.checked = null;
    $("play-verdict").textContent = "";
    $("play-verdict").className = "verdict";
    $("play-apply").hidden = true;
  }
  function refreshPlay() {
    if (!current) { return Promise.resolve(); }
    return api("/api/board", {text: current.text, moves: play.moves}).then(function (board) {
      play.board = board;
      var holder = $("play-board");
      drawBoard(holder, board);
      $("play-title").textContent = board.title + ": " + current.label;
      var about = puzzleInfo(board.puzzle);
      $("play-rules").textContent = about && about.rules ? about.rules : "";
      $("play-status").textContent = board.status;
      $("play-count").textContent = String(play.moves.length);
      $("play-undo").disabled = play.moves.length === 0;
      $("play-redo").disabled = play.undone.length === 0;
      listMoves(board);
      showCursor();
      if (play.hint) { mark(holder, play.hint.items, play.hint.kind === "mistake" ? "mistake" : "hint"); }
      if (play.selected) { mark(holder, [play.selected], "selected"); markReachable(); }
      if (board.complete && play.checked !== play.moves.length) { check(true); }
    }).catch(failed);
  }
  function listMoves(board) {
    var list = $("play-moves");
    while (list.firstChild) { list.removeChild(list.firstChild); }
    board.moves.filter(function (m) { return m.listed; }).forEach(function (move, i) {
      var button = el("button", {type: "button", "data-move": move.move});
      if (i < 9) { button.appendChild(el("kbd", {}, String(i + 1))); }
      button.appendChild(document.createTextNode(move.label));
      button.addEventListener("click", function () { makeMove(move.move); });
      list.appendChild(button);
    });
  }
  function makeMove(move) {
    play.moves.push(move);
    play.undone = [];
    play.hint = null;
    play.selected = null;
    $("play-apply").hidden = true;
    $("play-verdict").textContent = "";
    $("play-verdict").className = "verdict";
    return refreshPlay();
  }
  function clickTarget(item, alt) {
    var moves = play.board ? play.board.moves : [];
    if (!alt && play.selected && play.selected !== item) {
      var pair = moves.filter(function (m) { return m.path.length === 2 && m.path[0] === play.selected && m.path[1] === item; })[0];
      if (pair) { makeMove(pair.move); return; }
    }
    var single = moves.filter(function (m) { return m.path.length === 1 && m.path[0] === item && !!m.alt === !!alt; })[0];
    if (single) { makeMove(single.move); return; }
    if (!alt && moves.some(function (m) { return m.path.length === 2 && m.path[0] === item; })) {
      play.selected = play.selected === item ? null : item;
      mark($("play-board"), play.selected ? [play.selected] : [], "selected");
      markReachable();
      return;
    }
    play.selected = null;
    mark($("play-board"), [], "selected");
    markReachable();
    say("no move there");
  }
  function markReachable() {
    var moves = play.board ? play.board.moves : [];
    var reach = play.selected ? moves.filter(function (m) { return m.path[0] === play.selected && m.path.length === 2; })
                                     .map(function (m) { return m.path[1]; }) : [];
    mark($("play-board"), reach, "reachable");
  }
  function dragTarget(from, to) {
    var move = play.board.moves.filter(function (m) { return m.path.length === 2 && m.path[0] === from && m.path[1] === to; })[0];
    if (move) { makeMove(move.move); } else { say("no move from " + from + " to " + to); }
  }
  function showCursor() {
    var holder = $("play-board");
    holder.querySelectorAll("rect.target.cursor").forEach(function (r) { r.classList.remove("cursor"); });
    var rect = holder.querySelector('rect.target[data-index="' + play.cursor + '"]');
    if (rect && play.keyboard && document.activeElement === holder) { rect.classList.add("cursor"); }
  }
  function undo() {
    if (!play.moves.length) { return; }
    play.undone.push(play.moves.pop());
    play.hint = null; play.selected = null; play.checked = null;
    refreshPlay();
  }
  function redo() {
    if (!play.undone.length) { return; }
    play.moves.push(play.undone.pop());
    refreshPlay();
  }
  function verdict(text, cls) {
    var box = $("play-verdict");
    box.textContent = text;
    box.className = "verdict " + (cls || "");
  }
  function check(automatic) {
    if (!needBoard()) { return; }
    play.checked = play.moves.length;
    api("/api/check", {text: current.text, moves: play.moves}).then(function (found) {
      verdict(found.verdict === "solved" ? "✓ " + found.message : found.message, found.verdict);
      play.hint = found.items.length ? {kind: "mistake", items: found.items} : null;
      mark($("play-board"), found.items, "mistake");
    }).catch(automatic ? function () {} : failed);
  }
  function hint() {
    if (!needBoard()) { return; }
    api("/api/hint", {text: current.text, moves: play.moves}).then(function (found) {
      verdict((found.technique ? found.technique + ": " : "") + found.message,
              found.kind === "mistake" ? "mistake" : "step");
      play.hint = {kind: found.kind, items: found.items, moves: found.moves};
      mark($("play-board"), [], "mistake");
      mark($("play-board"), found.items, found.kind === "mistake" ? "mistake" : "hint");
      $("play-apply").hidden = !(found.moves && found.moves.length);
    }).catch(failed);
  }
  function applyHint() {
    if (!play.hint || !play.hint.moves || !play.hint.moves.length) { return; }
    play.moves = play.moves.concat(play.hint.moves);
    play.undone = [];
    play.hint = null;
    $("play-apply").hidden = true;
    refreshPlay();
  }
  function reveal() {
    if (!needBoard()) { return; }
    verdict("solving…");
    api("/api/reveal", {text: current.text}).then(function (found) {
      play.moves = found.moves;
      play.undone = [];
      play.hint = null;
      verdict("a solution (" + found.status + "): " + found.moves.length + " moves");
      return refreshPlay();
    }).catch(failed);
  }
  function playKey(event) {
    var key = event.key, board = play.board;
    if (!board) { return false; }
    if ((event.ctrlKey || event.metaKey) && (key === "z" || key === "Z")) { if (event.shiftKey) { redo(); } else { undo(); } return true; }
    if ((event.ctrlKey || event.metaKey) && (key === "y" || key === "Y")) { redo(); return true; }
    if (event.ctrlKey || event.metaKey || event.altKey) { return false; }
    if (ARROWS[key] && board.targets.length) {
      if (play.keyboard) { play.cursor = nearest(board, play.cursor, ARROWS[key][0], ARROWS[key][1]); }
      play.keyboard = true;
      $("play-board").focus({preventScroll: true});
      showCursor();
      return true;
    }
    var target = board.targets[play.cursor];
    if ((key === " " || key === "Enter") && target) { clickTarget(target.item, false); return true; }
    if ((key === "x" || key === "X") && target) { clickTarget(target.item, true); return true; }
    if (/^[1-9]$/.test(key)) {
      var listed = board.moves.filter(function (m) { return m.listed; })[Number(key) - 1];
      if (listed) { makeMove(listed.move); }
      return true;
    }
    var actions = {u: undo, U: redo, c: check, h: hint, a: applyHint};
    if (actions[key]) { actions[key](); return true; }
    return false;
  }

  // ------------------------------------------------------------------ solve and watch
  var solveAnswer = null;
  function resetSolve() {
    var body = document.querySelector("#solve-runs tbody");
    while (body.firstChild) { body.removeChild(body.firstChild); }
    $("solve-board").innerHTML = "";
    $("solve-picture").innerHTML = "";
    $("solve-to-play").hidden = true;
    $("watch").hidden = true;
    stopWatch();
    solveAnswer = null;
  }
  function fillBackends() {
    var about = current && puzzleInfo(current.puzzle);
    if (!about) { return; }
    fillSelect($("solve-backend"), about.backends, null, true);
    $("watch-steps").disabled = !about.explanation;
    $("watch-frontier").disabled = !(about.play && about.play.plan);
  }
  function runSolve() {
    if (!needBoard()) { return; }
    var spec = $("solve-backend").value + ($("solve-options").value.trim() ? ":" + $("solve-options").value.trim() : "");
    $("solve-busy").textContent = "running " + spec + "…";
    $("solve-run").disabled = true;
    api("/api/solve", {text: current.text, backend: spec, seconds: Number($("solve-seconds").value) || 30,
                       unique: $("solve-unique").checked}).then(function (found) {
      addRun(found);
      solveAnswer = found;
      $("solve-picture").innerHTML = found.picture || "";
      if (found.moves) {
        return api("/api/board", {text: current.text, moves: found.moves}).then(function (board) {
          drawBoard($("solve-board"), board, {maxScale: 6});
          $("solve-to-play").hidden = false;
        });
      }
      $("solve-board").innerHTML = "";
      $("solve-to-play").hidden = true;
    }).catch(failed).then(function () {
      $("solve-busy").textContent = "";
      $("solve-run").disabled = false;
    });
  }
  function addRun(found) {
    var row = document.querySelector("#solve-runs tbody").insertRow(0);
    var good = ["optimal", "solved", "feasible", "unsat"].indexOf(found.status) >= 0;
    var cells = [found.backend, found.status, found.objective === null ? "" : found.objective,
                 found.unique === null ? "" : found.unique, found.verified === null ? "" : found.verified,
                 found.wall_s.toFixed(3) + " s", found.stats.nodes, found.message || ""];
    cells.forEach(function (value, i) {
      var cell = row.insertCell();
      cell.textContent = String(value);
      if (i === 1) { cell.className = good ? "status-ok" : "status-bad"; }
    });
  }
  var watch = {kind: null, frames: [], index: 0, timer: null, cache: {}, shown: 0};
  function startWatch(kind) {
    if (!needBoard()) { return; }
    stopWatch();
    $("solve-busy").textContent = kind === "steps" ? "explaining…" : "searching…";
    api("/api/watch", {text: current.text, kind: kind}).then(function (found) {
      watch.kind = kind;
      watch.cache = {};
      watch.found = found;
      watch.frames = kind === "steps" ? stepFrames(found) : found.layers;
      $("watch").hidden = false;
      $("watch-slider").max = String(watch.frames.length - 1);
      listWatch(found);
      goWatch(0);
    }).catch(failed).then(function () { $("solve-busy").textContent = ""; });
  }
  function stepFrames(found) {
    var frames = [{label: "the start", moves: []}], moves = [];
    found.steps.forEach(function (step) {
      moves = moves.concat(step.moves);
      frames.push({label: "step " + step.number + " (" + step.technique + "): " + step.reason,
                   moves: moves, items: Object.keys(step.decided)});
    });
    return frames;
  }
  function listWatch(found) {
    var list = $("watch-list");
    while (list.firstChild) { list.removeChild(list.firstChild); }
    if (watch.kind === "steps") {
      found.steps.forEach(function (step, i) {
        var item = el("li", {"class": step.kind}, step.technique + ": " + step.reason);
        item.addEventListener("click", function () { stopWatch(); goWatch(i + 1); });
        list.appendChild(item);
      });
      (found.summary || []).forEach(function (line) { list.appendChild(el("li", {"class": "summary"}, line)); });
    } else {
      found.layers.forEach(function (layer, i) {
        var item = el("li", {}, "depth " + layer.depth + ": " + layer.size + " position" + (layer.size === 1 ? "" : "s"));
        item.addEventListener("click", function () { stopWatch(); goWatch(i); });
        list.appendChild(item);
      });
    }
  }
  function goWatch(index) {
    watch.index = Math.max(0, Math.min(watch.frames.length - 1, index));
    $("watch-slider").value = String(watch.index);
    document.querySelectorAll("#watch-list li").forEach(function (li, i) {
      li.classList.toggle("current", watch.kind === "steps" ? i === watch.index - 1 : i === watch.index);
    });
    if (watch.kind === "steps") { showStep(watch.frames[watch.index]); } else { showLayer(watch.index); }
  }
  function boardFor(moves) {
    var key = JSON.stringify(moves);
    if (!watch.cache[key]) { watch.cache[key] = api("/api/board", {text: current.text, moves: moves}); }
    return watch.cache[key];
  }
  function showStep(frame) {
    $("watch-label").textContent = frame.label;
    // Why the token: boards come back in any order, and an earlier frame's board that
    // arrives late must not replace the frame shown since.
    var token = watch.shown += 1;
    boardFor(frame.moves).then(function (board) {
      if (token !== watch.shown) { return; }
      var view = $("watch-view");
      view.innerHTML = "";
      var holder = el("div", {"class": "board"});
      view.appendChild(holder);
      drawBoard(holder, board, {width: 360});
      mark(holder, frame.items || [], "hint");
    }).catch(failed);
  }
  function showLayer(index) {
    watch.shown += 1;  // a step's board still on its way is stale now
    var found = watch.found, layer = found.layers[index];
    var last = index === found.layers.length - 1;
    var words = "depth " + layer.depth + ": " + layer.size + " new position" + (layer.size === 1 ? "" : "s");
    if (last && found.goal) { words += " — the goal is reached in " + found.goal.length + " moves: " + found.goal.join(", "); }
    if (last && found.stopped) { words += " — stopped after " + found.expanded + " positions"; }
    if (last && found.exhausted) { words += " — every reachable position seen: the goal cannot be reached"; }
    $("watch-label").textContent = words;
    var view = $("watch-view");
    view.innerHTML = "";
    view.appendChild(bars(found.layers, index, found.goal));
    var samples = el("div", {"class": "samples"});
    view.appendChild(samples);
    var shown = last && found.goal ? [found.goal] : layer.samples;
    shown.forEach(function (moves) {
      var holder = el("div", {"class": "board", title: moves.join(", ") || "the start"});
      samples.appendChild(holder);
      boardFor(moves).then(function (board) { drawBoard(holder, board, {width: 150}); }).catch(failed);
    });
  }
  function bars(layers, index, goal) {
    var width = 360, height = 90, most = Math.max.apply(null, layers.map(function (l) { return l.size; }));
    var svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("class", "bars");
    svg.setAttribute("width", String(width));
    svg.setAttribute("height", String(height + 14));
    var step = width / Math.max(layers.length, 1);
    layers.forEach(function (layer, i) {
      if (i > index) { return; }
      var h = Math.max(1, height * Math.log(1 + layer.size) / Math.log(1 + most));
      var rect = document.createElementNS(SVGNS, "rect");
      rect.setAttribute("x", String(i * step + 1));
      rect.setAttribute("y", String(height - h));
      rect.setAttribute("width", String(Math.max(1, step - 2)));
      rect.setAttribute("height", String(h));
      var goalHere = goal && i === layers.length - 1;
      rect.setAttribute("class", "bar" + (i === index ? " now" : "") + (goalHere ? " goal" : ""));
      svg.appendChild(rect);
    });
    var text = document.createElementNS(SVGNS, "text");
    text.setAttribute("x", "0");
    text.setAttribute("y", String(height + 11));
    text.textContent = "positions per depth (log scale), depth 0 to " + (layers.length - 1);
    svg.appendChild(text);
    return svg;
  }
  function stopWatch() {
    if (watch.timer !== null) { clearInterval(watch.timer); watch.timer = null; }
    $("watch-play").innerHTML = "&#9654; Play";
  }
  function toggleWatch() {
    if (watch.timer !== null) { stopWatch(); return; }
    if (watch.index >= watch.frames.length - 1) { goWatch(0); }
    watch.timer = setInterval(function () {
      if (watch.index >= watch.frames.length - 1) { stopWatch(); return; }
      goWatch(watch.index + 1);
    }, 1000 / Number($("watch-speed").value));
    $("watch-play").innerHTML = "&#10074;&#10074; Pause";
  }

  // ------------------------------------------------------------------ generate
  var generated = null;
  function fillGenerate() {
    var makers = info.puzzles.filter(function (p) { return p.generator; });
    fillSelect($("gen-puzzle"), makers.map(function (p) { return p.name; }),
               makers.map(function (p) { return p.title; }), true);
    generateForm();
  }
  function generateForm() {
    var about = puzzleInfo($("gen-puzzle").value);
    if (!about) { return; }
    var gen = about.generator;
    fillSelect($("gen-level"), gen.levels, null, true);
    $("gen-size").value = gen.size || "";
    $("gen-size").disabled = !gen.size;
    var box = $("gen-options");
    while (box.firstChild) { box.removeChild(box.firstChild); }
    gen.options.forEach(function (option) {
      var label = el("label", {title: option.help}, option.name + " ");
      var input;
      if (option.kind === "flag") {
        input = el("input", {type: "checkbox"});
      } else if (option.choices.length) {
        input = el("select", {});
        fillSelect(input, [""].concat(option.choices), ["-"].concat(option.choices));
      } else {
        input = el("input", {type: option.kind === "whole" ? "number" : "text", size: "5"});
      }
      input.setAttribute("data-option", option.name);
      label.appendChild(input);
      box.appendChild(label);
    });
  }
  function runGenerate() {
    var options = {};
    document.querySelectorAll("#gen-options [data-option]").forEach(function (input) {
      var value = input.type === "checkbox" ? input.checked : input.value;
      if (value !== "" && value !== false) { options[input.getAttribute("data-option")] = value; }
    });
    var request = {puzzle: $("gen-puzzle").value, level: $("gen-level").value, size: $("gen-size").disabled ? null : $("gen-size").value,
                   seed: Number($("gen-seed").value) || 0, options: options, seconds: Number($("gen-seconds").value) || 60};
    $("gen-busy").textContent = "generating…";
    $("gen-run").disabled = true;
    api("/api/generate", request).then(function (found) {
      generated = found.text;
      $("gen-text").textContent = found.text;
      $("gen-actions").hidden = false;
      var label = request.puzzle + " " + request.level + " seed " + request.seed;
      return setCurrent(found.text, label).then(function () {
        return api("/api/board", {text: found.text, moves: []});
      }).then(function (board) { drawBoard($("gen-board"), board); });
    }).catch(failed).then(function () {
      $("gen-busy").textContent = "";
      $("gen-run").disabled = false;
    });
  }
  function printSheet(text) {
    say("making the sheet…");
    api("/api/sheet", {text: text}).then(function (blob) {
      var url = URL.createObjectURL(blob);
      var link = el("a", {href: url, download: "twinsolve-sheet.pdf"});
      document.body.appendChild(link);
      link.click();
      link.remove();
      say("sheet ready: twinsolve-sheet.pdf");
    }).catch(failed);
  }
  function saveForm(holder, textOf) {
    while (holder.firstChild) { holder.removeChild(holder.firstChild); }
    var folder = el("select", {"aria-label": "folder"});
    fillSelect(folder, info.folders.map(function (f, i) { return String(i); }), info.folders);
    var name = el("input", {placeholder: "name.txt or sub/name.txt", size: "22", "aria-label": "file name"});
    var replace = el("input", {type: "checkbox"});
    var button = el("button", {type: "button"}, "Save");
    button.addEventListener("click", function () {
      api("/api/save", {text: textOf(), folder: Number(folder.value), path: name.value, replace: replace.checked})
        .then(function (saved) {
          say("saved " + saved.saved);
          return getJson("/api/library").then(loadLibrary);
        }).catch(failed);
    });
    var replaceLabel = el("label", {}, " replace ");
    replaceLabel.appendChild(replace);
    holder.appendChild(el("h3", {}, "Save as an instance file"));
    [folder, name, replaceLabel, button].forEach(function (node) { holder.appendChild(node); });
  }

  // ------------------------------------------------------------------ author
  var author = {text: null, board: null, selected: null, version: 0};
  function fillAuthorPuzzles() {
    var editable = info.puzzles.filter(function (p) { return p.play && p.play.tokens.length; });
    fillSelect($("author-puzzle"), editable.map(function (p) { return p.name; }),
               editable.map(function (p) { return p.title; }), true);
  }
  function authorFromCurrent() {
    if (!needBoard()) { return; }
    authorSet(current.text);
  }
  function authorBlank() {
    api("/api/blank", {puzzle: $("author-puzzle").value, rows: Number($("author-rows").value),
                       cols: Number($("author-cols").value)}).then(function (found) {
      authorSet(found.text);
    }).catch(failed);
  }
  // Each text the author makes is a version; the page says which one it shows and which
  // one its count is of (data-version on the board and on the count).
  function authorSet(text) {
    var version = ++author.version;
    author.text = text;
    $("author-text").value = text;
    return api("/api/board", {text: text, moves: []}).then(function (board) {
      if (version !== author.version) { return; }
      author.board = board;
      drawBoard($("author-board"), board, {maxScale: 8});
      if (author.selected) { mark($("author-board"), [author.selected], "selected"); }
      palette(board.puzzle);
      var about = puzzleInfo(board.puzzle);
      $("author-url").hidden = !(about && about.url);
      $("author-board").setAttribute("data-version", String(version));
      study(version);
    }).catch(failed);
  }
  function palette(puzzle) {
    var box = $("author-palette"), about = puzzleInfo(puzzle);
    while (box.firstChild) { box.removeChild(box.firstChild); }
    var tokens = about && about.play ? about.play.tokens : [];
    tokens.forEach(function (token) {
      var button = el("button", {type: "button", "data-token": token}, token);
      button.addEventListener("click", function () { authorEdit(token); });
      box.appendChild(button);
    });
    var input = el("input", {id: "author-value", size: "4", placeholder: "value", "aria-label": "value"});
    var set = el("button", {type: "button", id: "author-set"}, "Set");
    set.addEventListener("click", function () { authorEdit(input.value); });
    input.addEventListener("keydown", function (event) { if (event.key === "Enter") { authorEdit(input.value); } });
    box.appendChild(input);
    box.appendChild(set);
    if (!tokens.length) { box.appendChild(el("span", {"class": "note"}, "this puzzle is authored as text (on the right)")); }
  }
  function authorEdit(token) {
    if (!author.selected) { say("click a cell first", true); return; }
    api("/api/edit", {text: author.text, item: author.selected, token: String(token)}).then(function (found) {
      $("author-value") && ($("author-value").value = "");
      return authorSet(found.text);
    }).catch(failed);
  }
  function study(version) {
    $("author-count").textContent = "…";
    api("/api/study", {text: author.text}).then(function (found) {
      if (version !== author.version) { return; }
      $("author-count").setAttribute("data-version", String(version));
      var words = {none: "no solution", one: "one solution", many: "many solutions", unknown: "unknown"};
      $("author-count").textContent = words[found.solutions] || found.solutions;
      $("author-count").setAttribute("data-solutions", found.solutions);
      $("author-grade").textContent = found.level || (found.why || "-");
      $("author-hardest").textContent = found.hardest ? "step " + found.hardest.number + " of " + found.hardest.of + " (" + found.hardest.technique + "): " + found.hardest.reason : "-";
      $("author-message").textContent = found.solutions === "unknown" ? (found.message || "") : (found.why_no_second || "");
      $("author-first").innerHTML = found.first_picture || "";
      $("author-second").innerHTML = found.second_picture || "";
    }).catch(function (error) {
      if (version === author.version) { $("author-count").textContent = "-"; failed(error); }
    });
  }
  function authorKey(event) {
    if (!author.board || !author.board.targets.length) { return false; }
    var key = event.key;
    var index = author.selected ? author.board.targets.map(function (t) { return t.item; }).indexOf(author.selected) : 0;
    if (ARROWS[key]) {
      author.selected = author.board.targets[nearest(author.board, Math.max(index, 0), ARROWS[key][0], ARROWS[key][1])].item;
      mark($("author-board"), [author.selected], "selected");
      return true;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) { return false; }
    var about = puzzleInfo(author.board.puzzle), tokens = about.play.tokens;
    if (key === "Delete" || key === "Backspace") { authorEdit(tokens[0]); return true; }
    if (/^[0-9]$/.test(key) && tokens.indexOf(key) < 0) {
      $("author-value").value += key;
      return true;
    }
    if (key === "Enter" && $("author-value").value) { authorEdit($("author-value").value); return true; }
    var token = tokens.filter(function (t) { return t === key || t === key.toUpperCase(); })[0];
    if (token !== undefined) { authorEdit(token); return true; }
    return false;
  }

  // ------------------------------------------------------------------ the game
  var game = {id: null, facts: null, view: false, asking: false, queue: Promise.resolve()};
  var GAME_KEYS = {ArrowRight: "R", ArrowDown: "D", ArrowLeft: "L", ArrowUp: "U",
                   d: "R", s: "D", a: "L", w: "U", " ": "W", e: "X", u: "Z", Backspace: "Z"};
  // The algorithm view (V): the robots' plans shown and the fog lifted, as in the terminal.
  var VIEW_LAYERS = ["paths", "targets", "intents", "visited"];
  function fillLevels() {
    fillSelect($("game-level"), info.levels.map(function (l) { return String(l.number); }),
               info.levels.map(function (l) { return l.number + ": " + l.name + " (" + l.size + ")"; }), true);
  }
  function startGame() {
    var seed = $("game-seed").value;
    var request = {level: Number($("game-level").value)};
    if (seed !== "") { request.seed = Number(seed); }
    api("/api/game/new", request).then(function (found) {
      game.id = found.game;
      game.asking = false;
      $("game-ask").hidden = true;
      $("game-hud").hidden = false;
      $("game-replay").hidden = false;
      $("game-replay").href = "/api/game/replay?game=" + encodeURIComponent(game.id);
      showGame(found);
    }).catch(failed);
  }
  function showGame(facts) {
    game.facts = facts;
    var record = facts.record;
    $("hud-turn").textContent = String(facts.turns);
    $("hud-limit").textContent = String(facts.turn_limit);
    $("hud-shards").textContent = record.shards_left + " of " + facts.shards_total;
    $("hud-emp").textContent = String(record.emp);
    $("hud-shield").textContent = String(record.shield);
    $("hud-undos").textContent = String(record.undos_left);
    $("hud-view").textContent = game.view ? "on" : "off";
    $("hud-events").textContent = record.events.length ? record.events.join(", ") : "none";
    $("hud-outcome").textContent = record.outcome;
    $("game-frame").src = "/game/view?game=" + encodeURIComponent(game.id) + "&turn=" + facts.turns + "#turn=" + facts.turns;
    var over = $("game-over");
    if (record.outcome === "playing") { over.hidden = true; return; }
    over.hidden = false;
    over.className = "overlay " + (record.outcome === "won" ? "won" : "lost");
    var titles = {won: "You got out!", captured: "Caught!", timeout: "Out of time"};
    $("game-over-title").textContent = titles[record.outcome] || record.outcome;
    var words = "turn " + facts.turns + ", shards " + (facts.shards_total - record.shards_left) + " of " + facts.shards_total +
                ", undos left " + record.undos_left + ".";
    if (facts.accepts.Z) { words += " U undoes the last turn;"; }
    $("game-over-text").textContent = words + " R plays again; the replay is below the level choice.";
  }
  // One turn at a time, in the order the keys were pressed.
  function gameAction(action) {
    if (!game.id) { return; }
    var id = game.id;
    game.queue = game.queue.then(function () {
      if (id !== game.id) { return null; }
      if (!game.facts.accepts[action]) {
        say(action === "Z" ? "no undo now" : "the game is over: U undoes a capture, R plays again");
        return null;
      }
      return api("/api/game/turn", {game: id, action: action}).then(showGame);
    }).catch(failed);
  }
  function gameView(frame) {
    var doc = frame.contentDocument;
    if (!doc) { return; }
    VIEW_LAYERS.concat(["fog"]).forEach(function (name) {
      var box = doc.getElementById("layer-" + name);
      if (!box) { return; }
      var wanted = name === "fog" ? !game.view : game.view;
      if (box.checked !== wanted) { box.checked = wanted; box.dispatchEvent(new Event("change")); }
    });
  }
  function gameKey(event) {
    var key = event.key;
    if (game.asking) {
      if (key === "y" || key === "Y") { game.asking = false; $("game-ask").hidden = true; startGame(); }
      if (key === "n" || key === "N" || key === "Escape") { game.asking = false; $("game-ask").hidden = true; }
      return true;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) { return false; }
    if (key === "r" || key === "R") {
      if (!game.id) { startGame(); return true; }
      game.asking = true;
      $("game-ask").hidden = false;
      return true;
    }
    if (key === "v" || key === "V") {
      game.view = !game.view;
      $("hud-view").textContent = game.view ? "on" : "off";
      gameView($("game-frame"));
      return true;
    }
    var action = GAME_KEYS[key] || GAME_KEYS[key.toLowerCase()];
    if (action && game.id) { gameAction(action); return true; }
    return false;
  }

  // ------------------------------------------------------------------ benchmarks
  function fillBench() {
    var list = $("bench-list");
    while (list.firstChild) { list.removeChild(list.firstChild); }
    if (!info.databases.length) {
      list.appendChild(el("li", {}, "none found: run 'twinsolve bench PATH --db FOLDER/results.sqlite' with a folder the studio shows"));
    }
    info.databases.forEach(function (db) {
      var button = el("button", {type: "button"}, info.folders[db.folder] + "/" + db.path);
      button.addEventListener("click", function () {
        var url = "/report?folder=" + db.folder + "&path=" + encodeURIComponent(db.path);
        $("bench-frame").hidden = false;
        $("bench-frame").src = url;
        $("bench-open").hidden = false;
        $("bench-open").href = url;
      });
      var item = el("li", {});
      item.appendChild(button);
      list.appendChild(item);
    });
  }

  // ------------------------------------------------------------------ wiring
  function on(id, event, handler) { $(id).addEventListener(event, handler); }
  function wire() {
    document.querySelectorAll("#tabs button").forEach(function (button) {
      button.addEventListener("click", function () { showTab(button.getAttribute("data-tab")); });
    });
    ["lib-puzzle", "lib-size", "lib-level"].forEach(function (id) { on(id, "change", showCards); });
    on("lib-name", "input", showCards);
    on("lib-rescan", "click", function () { api("/api/rescan", {}).then(loadLibrary).catch(failed); });
    attachPointer($("play-board"), {click: clickTarget, drag: dragTarget});
    on("play-undo", "click", undo);
    on("play-redo", "click", redo);
    on("play-check", "click", function () { check(false); });
    on("play-hint", "click", hint);
    on("play-apply", "click", applyHint);
    on("play-reveal", "click", reveal);
    on("play-restart", "click", function () { resetPlay(); refreshPlay(); });
    on("play-board", "focus", showCursor);
    on("solve-run", "click", runSolve);
    on("solve-to-play", "click", function () {
      if (solveAnswer && solveAnswer.moves) { play.moves = solveAnswer.moves.slice(); play.undone = []; showTab("play"); }
    });
    on("watch-steps", "click", function () { startWatch("steps"); });
    on("watch-frontier", "click", function () { startWatch("frontier"); });
    on("watch-play", "click", toggleWatch);
    on("watch-back", "click", function () { stopWatch(); goWatch(watch.index - 1); });
    on("watch-forward", "click", function () { stopWatch(); goWatch(watch.index + 1); });
    on("watch-slider", "input", function () { stopWatch(); goWatch(Number($("watch-slider").value)); });
    on("watch-speed", "change", function () { if (watch.timer !== null) { stopWatch(); toggleWatch(); } });
    on("gen-puzzle", "change", generateForm);
    on("gen-run", "click", runGenerate);
    on("gen-play", "click", function () { showTab("play"); });
    on("gen-author", "click", function () { authorFromCurrent(); showTab("author"); });
    on("gen-print", "click", function () { if (generated) { printSheet(generated); } });
    attachPointer($("author-board"), {
      click: function (item) { author.selected = item; mark($("author-board"), [item], "selected"); $("author-board").focus({preventScroll: true}); },
      drag: function (from, to) { author.selected = to; mark($("author-board"), [to], "selected"); }
    });
    on("author-blank", "click", authorBlank);
    on("author-current", "click", authorFromCurrent);
    on("author-apply", "click", function () {
      api("/api/parse", {text: $("author-text").value}).then(function (parsed) { authorSet(parsed.text); }).catch(failed);
    });
    on("author-play", "click", function () {
      if (author.text) { setCurrent(author.text, "authored").then(function () { showTab("play"); }).catch(failed); }
    });
    on("author-print", "click", function () { if (author.text) { printSheet(author.text); } });
    on("author-url", "click", function () {
      api("/api/url", {text: author.text}).then(function (found) {
        var box = $("author-url-text");
        box.hidden = false;
        box.value = found.url;
        box.select();
        if (navigator.clipboard) { navigator.clipboard.writeText(found.url).then(function () { say("URL copied"); }, function () { say("select the URL and copy it"); }); }
      }).catch(failed);
    });
    on("game-start", "click", startGame);
    $("game-frame").addEventListener("load", function () {
      var frame = $("game-frame"), doc = frame.contentDocument;
      if (!doc || !game.id) { return; }
      gameView(frame);
      // Keys pressed while the board has the focus are the game's, not the replay's.
      doc.addEventListener("keydown", function (event) {
        if (gameKey(event)) { event.preventDefault(); event.stopImmediatePropagation(); }
      }, true);
      frame.blur();
      window.focus();
    });
    window.addEventListener("hashchange", function () {
      var asked = window.location.hash.replace("#", "");
      if (info && $("tab-" + asked) && asked !== activeTab) { showTab(asked); }
    });
    document.addEventListener("keydown", function (event) {
      if (typing(event) && event.key !== "Escape") { return; }
      var handled = false;
      if (activeTab === "play") { handled = playKey(event); }
      else if (activeTab === "game") { handled = gameKey(event); }
      else if (activeTab === "author") { handled = authorKey(event); }
      if (handled) { event.preventDefault(); }
    });
  }

  function start() {
    wire();
    getJson("/api/info").then(function (found) {
      info = found;
      saveForm($("gen-save"), function () { return generated; });
      saveForm($("author-save"), function () { return author.text; });
      fillGenerate();
      fillAuthorPuzzles();
      fillLevels();
      fillBench();
      return getJson("/api/library");
    }).then(loadLibrary).then(function () {
      var asked = window.location.hash.replace("#", "");
      showTab($("tab-" + asked) ? asked : "library");
    }).catch(failed);
  }
  start();
})();
