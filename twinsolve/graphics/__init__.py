"""The drawing layer of every picture: `canvas` (shapes in millimetres, SVG written directly
and byte for byte repeatable, PNG and PDF through matplotlib, multi-page PDFs) and `layout`
(the generic layout every picture shares: fitting a grid to the page, strips of small
drawings wrapped into rows, text widths, the summary of what is too large to draw)."""
