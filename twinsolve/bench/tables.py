"""Tables of result rows for the terminal, Markdown and LaTeX, from one column list.

A table is a list of `Column`s (twinsolve.bench.columns) over rows that are
dicts (the totals rows of twinsolve.bench.scores, the comparison rows of
twinsolve.bench.comparison). Each column names its row key, its full header,
and how to show a value, so every output shows the same text for the same
value.

The terminal must fit the console without cutting a cell (rich would
otherwise shorten cells to `…`). `fit` decides the columns a terminal table
shows, in this order, until the table's natural width fits:
1. with `wide`, every column, full headers (the caller prints it uncropped);
2. otherwise short headers (their meanings go in a legend), and columns
   that say nothing here are left out (`Column.quiet`: a count that is 0 on
   every row says only "none"; a CPU time close to the wall time repeats it),
   each reason said under the table;
3. two spaces between columns, or one if that is what it takes to keep every
   column (numbers are right-aligned under headers at least as wide, so one
   space still reads);
4. then, while still too wide, the columns with the highest `drop` rank go
   first; a column with rank 0 always stays;
5. what is still too wide breaks over lines in a column that may fold
   (`Column.fold`: an instance's path), never cut.
The width is measured by rich itself, so what `fit` accepts is what rich
draws.

Markdown and LaTeX always hold every column with full headers: they are for
papers and READMEs, where nothing is cut. LaTeX uses booktabs rules
(`\\usepackage{booktabs}`); both escape their special characters.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from rich import box
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from .columns import Column, Row, groups

__all__ = ["Layout", "Blocks", "fit", "blocks", "rich_table", "natural_width", "legend",
           "markdown", "latex"]


def rich_table(columns: Sequence[Column], rows: Sequence[Row], *, wide: bool = True,
               gap: int = 2, title: str | None = None,
               italic: Callable[[Row], bool] = lambda row: False) -> Table:
    """The rows as a rich table (cells never wrap; markup in values is escaped).

    A narrow table (not `wide`) has no vertical rules, a rule under the header
    and `gap` (1 or 2) spaces between columns.
    """
    if wide:
        table = Table(title=title)
    else:
        # The box's blank separator is one space; a right pad cell makes it two.
        table = Table(title=title, box=box.SIMPLE_HEAD, show_edge=False,
                      padding=(0, gap - 1, 0, 0), pad_edge=False)
    for column in columns:
        table.add_column(column.label(wide), justify="right" if column.numeric else "left",
                         no_wrap=not column.fold, overflow="fold" if column.fold else "ellipsis")
    for row in rows:
        cells = []
        for column in columns:
            text = escape(column.text(row))
            cells.append(f"[bold red]{text}[/]" if column.alarm and row.get(column.key)
                         else text)
        table.add_row(*cells, style="italic" if italic(row) else None)
    return table


_MEASURE = Console(width=100_000, file=None, color_system=None, legacy_windows=False)


def natural_width(table: Table) -> int:
    """The width the table takes when nothing is shortened."""
    return Measurement.get(_MEASURE, _MEASURE.options, table).maximum


@dataclass(frozen=True)
class Layout:
    """What a terminal table shows: its columns and the spaces between them."""

    columns: list[Column]
    gap: int = 2


def fit(columns: Sequence[Column], rows: Sequence[Row], width: int | None) -> Layout:
    """The layout of a narrow terminal table of `rows` within `width` (see the module doc)."""
    shown = [c for c in columns if not c.quiet(rows)]
    if width is None:
        return Layout(shown)

    def fits(gap: int) -> bool:
        return natural_width(rich_table(shown, rows, wide=False, gap=gap)) <= width

    if fits(2):
        return Layout(shown)
    by_rank = sorted((c for c in shown if c.drop), key=lambda c: -c.drop)
    while not fits(1) and by_rank:
        shown.remove(by_rank.pop(0))
    return Layout(shown, 1)


def legend(columns: Sequence[Column]) -> str:
    """`short = meaning` for every shown column with a short header, joined by ` · `."""
    return " · ".join(f"{c.short} = {c.meaning}" for c in columns if c.short and c.meaning)


@dataclass(frozen=True)
class Blocks:
    """Rows drawn for the terminal, and the notes on what is shown and left out."""

    parts: tuple[RenderableType, ...]
    footer: tuple[str, ...]


def blocks(columns: Sequence[Column], rows: Sequence[Row], width: int | None, *,
           wide: bool = False, notes: Mapping[str, str] | None = None,
           italic: Callable[[Row], bool] = lambda row: False) -> Blocks:
    """One block per puzzle (its name, its note, a table that fits), or one wide table.

    The narrow footer is the legend of the short headers shown and what was
    left out; a wide table shows every column, so it needs neither.
    """
    notes = notes or {}
    if wide:
        table = rich_table(columns, rows, italic=italic)
        table.width = natural_width(table)   # never squeezed to the console
        return Blocks((table, *(Text(f"{name}: {note}", style="dim")
                                for name, note in notes.items())), ())
    body = [c for c in columns if c.key != "puzzle"]
    parts: list[RenderableType] = []
    shown: set[str] = set()
    left_out: dict[str, None] = {}   # why blocks left columns out, in column order
    for puzzle, block in groups(rows):
        layout = fit(body, block, width)
        shown |= {c.key for c in layout.columns}
        left_out.update((c.why_left_out if c.quiet(block) else _NARROW, None) for c in body
                        if c not in layout.columns)
        heading = Text.assemble((puzzle, "bold"), (f"  {notes.get(puzzle, '')}".rstrip(), "dim"))
        parts += [Text(""), heading, rich_table(layout.columns, block, wide=False,
                                                 gap=layout.gap, italic=italic)]
    footer = [legend([c for c in body if c.key in shown]),
              *sorted(why for why in left_out if why != _NARROW),
              _NARROW if _NARROW in left_out else ""]
    return Blocks(tuple(parts), tuple(line for line in footer if line))


_NARROW = "some columns did not fit: --wide shows every one"


# ------------------------------------------------------------------ Markdown and LaTeX

def _markdown_cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def markdown(columns: Sequence[Column], rows: Sequence[Row],
             emphasis: Callable[[Row], bool] = lambda row: False) -> str:
    """A GitHub-flavoured Markdown pipe table, numbers right-aligned."""
    lines = ["| " + " | ".join(_markdown_cell(c.header) for c in columns) + " |",
             "|" + "|".join("---:" if c.numeric else ":---" for c in columns) + "|"]
    for row in rows:
        cells = [_markdown_cell(c.text(row)) for c in columns]
        if emphasis(row):
            cells = [f"*{cell}*" if cell.strip() else cell for cell in cells]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


_LATEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
          "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
          "^": r"\textasciicircum{}"}


def _latex_cell(text: str) -> str:
    return "".join(_LATEX.get(ch, ch) for ch in text)


def latex(columns: Sequence[Column], rows: Sequence[Row], *, comment: str = "",
          rule_before: Callable[[Row, Row], bool] = lambda previous, row: False,
          emphasis: Callable[[Row], bool] = lambda row: False) -> str:
    """A booktabs `tabular`; `rule_before` puts a \\midrule between two rows (new puzzle)."""
    spec = "".join("r" if c.numeric else "l" for c in columns)
    lines = [f"% {line}" for line in comment.splitlines()]
    lines += [f"\\begin{{tabular}}{{{spec}}}", r"\toprule",
              " & ".join(_latex_cell(c.header) for c in columns) + r" \\", r"\midrule"]
    previous: Row | None = None
    for row in rows:
        if previous is not None and rule_before(previous, row):
            lines.append(r"\midrule")
        cells = [_latex_cell(c.text(row)) for c in columns]
        if emphasis(row):
            cells = [f"\\textit{{{cell}}}" for cell in cells]
        lines.append(" & ".join(cells) + r" \\")
        previous = row
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"
