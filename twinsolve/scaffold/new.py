"""`twinsolve new puzzle NAME --out DIR`: write the plugin template as a package named NAME.

The template (`template/`, shipped with twinsolve as package data) is a
whole plugin for a real small puzzle, Star Battle with one star: its
`pyproject.toml` with the entry point, rules, a hand solver on twinsolve's
engine, a CP-SAT model and a SAT encoding, a generator, a picture, a
small-instance strategy, tests that run the contract kit, and a few puzzles.
It works from the first `pip install -e DIR`; the author then edits it into
their own puzzle (docs/writing-a-puzzle.md). A test writes and runs it on
every test run, so it cannot go stale (as Tatham's `nullgame.c`).

Rules.
- NAME is the puzzle's one word (the header of its files, the entry point's
  name): lowercase letters, digits and `_`, starting with a letter, and not a
  name twinsolve already knows (a puzzle, or a kind of file such as the
  game's levels). The package is `twinsolve_NAME`, the distribution
  `twinsolve-NAME`, as pytest's plugins are `pytest_x` / `pytest-x`.
- DIR does not exist or is an empty folder.
Each refusal is one line (`UsageError`) and writes nothing.

Writing. Template files end in `.tmpl` (so no tool takes them for code of
twinsolve's own); `{{name}}`, `{{package}}`, `{{distribution}}` and
`{{twinsolve_version}}` are filled in, and the folder `package/` becomes the
package. The files are written (through `files.atomic`) into a new hidden
folder beside DIR, which is then renamed to DIR in one step; into an empty
DIR that exists, they are written into a hidden folder inside it and moved
up (the folder stays the same one: it may be the shell's working folder).
A run that fails or is interrupted leaves no half-written package behind.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
from pathlib import Path

from .. import __version__
from ..core import registry
from ..core.errors import UsageError, quoted
from ..files.atomic import check_folder, write_text

__all__ = ["TEMPLATE", "plugin_names", "check_name", "rendered", "new_puzzle"]

TEMPLATE = Path(__file__).resolve().with_name("template")
SUFFIX = ".tmpl"
PACKAGE_FOLDER = "package"  # the template's folder that becomes the package
_WORD = re.compile(r"[a-z][a-z0-9_]*")
_MAX_NAME = 40
_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


def plugin_names(name: str) -> dict[str, str]:
    """What the template's placeholders become for puzzle `name`.

    >>> plugin_names("stars")["package"], plugin_names("stars")["distribution"]
    ('twinsolve_stars', 'twinsolve-stars')
    """
    return {"name": name, "package": f"twinsolve_{name}", "distribution": f"twinsolve-{name}",
            "twinsolve_version": __version__}


def check_name(name: str) -> None:
    """Refuse (one line) a NAME that is no puzzle name or that twinsolve already knows."""
    if not _WORD.fullmatch(name) or len(name) > _MAX_NAME:
        raise UsageError(f"new puzzle: {quoted(name)} is not a puzzle name: one lowercase word "
                         f"of at most {_MAX_NAME} letters, digits and _, starting with a letter "
                         f"(e.g. 'stars')")
    for entry in registry.puzzles():
        if entry.name == name:
            raise UsageError(f"new puzzle: the name {name!r} is taken by the puzzle "
                             f"{entry.title} ({entry.origin}); choose another")
    other = registry.other_formats().get(name)
    if other is not None:
        raise UsageError(f"new puzzle: the name {name!r} is taken: it is the header of "
                         f"{other.description}; choose another")


def _template_files() -> list[Path]:
    files = sorted(TEMPLATE.rglob(f"*{SUFFIX}"))
    if not files:  # an installation without its package data
        raise UsageError(f"new puzzle: twinsolve's template is missing ({TEMPLATE}): "
                         "reinstall twinsolve")
    return files


def rendered(name: str) -> dict[str, str]:
    """The plugin's files for puzzle `name`: relative path -> text (nothing is checked or
    written; `new_puzzle` does both)."""
    names = plugin_names(name)

    def fill(match: re.Match[str]) -> str:
        if match.group(1) not in names:
            raise RuntimeError(f"the template names an unknown placeholder {match.group(0)}")
        return names[match.group(1)]

    files = {}
    for path in _template_files():
        parts = list(path.relative_to(TEMPLATE).parts)
        if parts[0] == PACKAGE_FOLDER:
            parts[0] = names["package"]
        parts[-1] = parts[-1].removesuffix(SUFFIX)
        files["/".join(parts)] = _PLACEHOLDER.sub(fill, path.read_text(encoding="utf-8"))
    return files


def _check_out(out: str | os.PathLike[str]) -> Path:
    """The folder DIR names (symlinks followed), refused in one line unless it is new or
    empty and can be written."""
    check_folder(out)  # a file, a device, a read-only place: refused as every output is
    target = Path(os.path.realpath(out))
    if target.is_dir():
        try:
            full = any(target.iterdir())
        except OSError as exc:
            raise UsageError(f"new puzzle: cannot read the folder {out}: "
                             f"{exc.strerror or exc}") from None
        if full:
            raise UsageError(f"new puzzle: {out} is not empty; name a new or empty folder "
                             "for the plugin")
    return target


def _fill(staging: Path, target: Path) -> None:
    """Move what `staging` holds into the empty folder `target`; on any failure, take back
    what was moved, so `target` is left empty as it was."""
    moved: list[Path] = []
    try:
        for entry in sorted(staging.iterdir()):
            os.replace(entry, target / entry.name)
            moved.append(target / entry.name)
    except BaseException:
        for path in moved:
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)
        raise


def new_puzzle(name: str, out: str | os.PathLike[str]) -> list[Path]:
    """Write the plugin for puzzle `name` into the new or empty folder `out` (module
    docstring); the files written, as paths under `out`."""
    check_name(name)
    target = _check_out(out)
    files = rendered(name)
    existing = target.is_dir()
    # Why inside an existing folder: it stays the same folder (it may be the working
    # folder of the shell that runs us: `--out .`), so it is filled, never replaced.
    home = target if existing else target.parent
    staging = home / f".{target.name}.new-{secrets.token_hex(4)}"
    try:
        home.mkdir(parents=True, exist_ok=True)
        staging.mkdir()
        for relative, text in files.items():
            write_text(staging / relative, text)
        if existing:
            _fill(staging, target)
        else:  # DIR appears whole or not at all
            os.replace(staging, target)
    except OSError as exc:
        raise UsageError(f"new puzzle: cannot write {out}: {exc.strerror or exc}") from None
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return [Path(out) / relative for relative in files]
