"""The pictures in the README and the sheets beside them (docs/pictures/) are what the one
documented command, `python scripts/pictures.py`, makes today, byte for byte: each of its
twinsolve commands is run again here into tmp_path and its files compared; the README names
the command and shows (or links) every file, and docs/pictures holds nothing else.

The render commands and one sheet run by default; the other sheets (a second or two each)
under `slow`."""

from __future__ import annotations

import pytest
from conftest import ROOT, sampled

from scripts.pictures import COMMANDS, PICTURES, command_line

README = ROOT / "README.md"
MADE = [name for _, names in COMMANDS for name in names]


def test_the_readme_names_the_command_and_every_picture_and_sheet():
    readme = README.read_text()
    assert "python scripts/pictures.py" in readme
    for name in MADE:
        assert f"docs/pictures/{name}" in readme, name
    assert sorted(p.name for p in PICTURES.iterdir()) == sorted(MADE)


def by_default(command: tuple[list[str], list[str]]) -> bool:
    args, names = command
    return args[0] == "render"


@pytest.mark.parametrize("args, names", sampled(COMMANDS, keep=by_default),
                         ids=[names[0] for _, names in COMMANDS])
def test_each_file_is_remade_byte_for_byte_by_its_command(args, names, tmp_path, cli):
    done = cli(*command_line(args, names, tmp_path), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    for name in names:
        assert (tmp_path / name).read_bytes() == (PICTURES / name).read_bytes(), \
            f"docs/pictures/{name} is stale: run python scripts/pictures.py"
