"""Pictures of puzzles, solutions and stealth-game levels, and printable puzzle sheets.

`draw` finds what to draw and how: a puzzle instance is drawn by its own
folder's `picture.draw` (through the registry), a stealth-game level by
`twinsolve.robots.picture`; the solution comes from the file's
`expect-solution` or, when asked, from the `hand` back-end (every solution
through `verify`, as everywhere). `sheet` lays puzzles out on A4 pages, the
solutions on the last pages. Everything is drawn on `twinsolve.graphics.canvas`,
so one drawing serves SVG, PNG and PDF.
"""
