"""The pictures in the README (docs/pictures/) are what `twinsolve render` draws today,
byte for byte: the README's own commands remake them, and the README shows each one."""

from __future__ import annotations

from conftest import ROOT

PICTURES = ROOT / "docs" / "pictures"
# the README's commands, each with the files it makes
COMMANDS = [
    (["render", "instances/cave/unique-10x10-seed4.txt", "instances/mirror/multi-20x20.txt",
      "--solution"], ["unique-10x10-seed4-solution.svg", "multi-20x20-solution.svg"]),
    (["render", "instances/robots/level-2.txt"], ["level-2.svg"]),
]


def test_the_readme_pictures_are_remade_byte_for_byte_by_its_commands(tmp_path, cli):
    readme = (ROOT / "README.md").read_text()
    for args, names in COMMANDS:
        assert f"twinsolve {' '.join(args)} --out docs/pictures" in readme
        done = cli(*args, "--out", tmp_path, cwd=ROOT)
        assert done.returncode == 0, done.stderr
        for name in names:
            assert f"docs/pictures/{name}" in readme
            assert (tmp_path / name).read_bytes() == (PICTURES / name).read_bytes(), \
                f"docs/pictures/{name} is stale: run the README's render commands again"
    assert sorted(p.name for p in PICTURES.iterdir()) == sorted(n for _, ns in COMMANDS
                                                                for n in ns)
