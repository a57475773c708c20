"""``tablesight print map`` and ``tablesight print stickers``."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import tags
from ..layout import Layout
from .mapart import render_sheet
from .pdf import Document, marker_bits, png_with_dpi

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
TILE_MARGIN_MM = 10.0  # printers cannot print to the edge
TILE_OVERLAP_MM = 10.0  # glue strip: each tile repeats this much of its neighbour


@dataclass
class MapFiles:
    layout: Path
    png: Path
    sheet_pdf: Path
    tiled_pdf: Path
    tiles: int


def _markers(doc: Document, layout: Layout, dx: float, dy: float) -> None:
    """The layout's markers as vectors, the map's (0, 0) at (dx, dy) on the page."""
    for m in layout.markers:
        doc.marker(marker_bits(layout.dictionary, m.id),
                   [(x + dx, y + dy) for x, y in m.corners])


def print_map(layout: Layout, out_dir: Path, dpi: float = 150.0, paper: str = "a4") -> MapFiles:
    out_dir.mkdir(parents=True, exist_ok=True)
    s = dpi / 25.4
    w_mm, h_mm = layout.sheet
    stem = layout.name
    layout_path = out_dir / f"{stem}.layout.json"
    layout.save(layout_path)
    png_path = out_dir / f"{stem}-{int(dpi)}dpi.png"
    png_path.write_bytes(png_with_dpi(render_sheet(layout, s), dpi))
    # The PDFs: the art without markers, and the markers as vectors on top.
    art = render_sheet(layout, s, markers=False)
    sheet = Document(f"{stem}: the whole map on one sheet")
    sheet.page(w_mm, h_mm)
    sheet.image(art, 0, 0, w_mm, h_mm)
    _markers(sheet, layout, 0, 0)
    sheet_path = out_dir / f"{stem}-one-sheet.pdf"
    sheet_path.write_bytes(sheet.output())
    pw, ph = PAPERS[paper]
    cw, ch = pw - 2 * TILE_MARGIN_MM, ph - 2 * TILE_MARGIN_MM
    step_x, step_y = cw - TILE_OVERLAP_MM, ch - TILE_OVERLAP_MM
    cols = max(1, math.ceil((w_mm - TILE_OVERLAP_MM) / step_x))
    rows = max(1, math.ceil((h_mm - TILE_OVERLAP_MM) / step_y))
    tiled = Document(f"{stem}: tiled on {paper.upper()}")
    for r in range(rows):
        for c in range(cols):
            x0, y0 = c * step_x, r * step_y
            x1, y1 = min(w_mm, x0 + cw), min(h_mm, y0 + ch)
            crop = art[int(round(y0 * s)):int(round(y1 * s)), int(round(x0 * s)):int(round(x1 * s))]
            tiled.page(pw, ph)
            tiled.image(crop, TILE_MARGIN_MM, TILE_MARGIN_MM, x1 - x0, y1 - y0)
            with tiled.pdf.rect_clip(TILE_MARGIN_MM, TILE_MARGIN_MM, x1 - x0, y1 - y0):
                _markers(tiled, layout, TILE_MARGIN_MM - x0, TILE_MARGIN_MM - y0)
            # Alignment marks: short ticks where the neighbouring tile's content starts,
            # so tiles are overlapped until the ticks meet.
            for mx in ([TILE_MARGIN_MM + TILE_OVERLAP_MM] if c > 0 else []) + \
                      ([TILE_MARGIN_MM + step_x] if c < cols - 1 else []):
                for my in (TILE_MARGIN_MM - 6, TILE_MARGIN_MM + (y1 - y0) + 1):
                    tiled.line(mx, my, mx, my + 5, 0.25)
            for my in ([TILE_MARGIN_MM + TILE_OVERLAP_MM] if r > 0 else []) + \
                      ([TILE_MARGIN_MM + step_y] if r < rows - 1 else []):
                for mx in (TILE_MARGIN_MM - 6, TILE_MARGIN_MM + (x1 - x0) + 1):
                    tiled.line(mx, my, mx + 5, my, 0.25)
            tiled.text(TILE_MARGIN_MM, ph - 3, 7,
                       f"{stem}  tile row {r + 1}/{rows}, column {c + 1}/{cols}  "
                       f"(print at 100 %, no scaling; overlap {TILE_OVERLAP_MM:.0f} mm)")
            tiled.scale_bar(40, 6)  # in the top margin, clear of the alignment ticks
    tiled_path = out_dir / f"{stem}-tiled-{paper}.pdf"
    tiled_path.write_bytes(tiled.output())
    return MapFiles(layout_path, png_path, sheet_path, tiled_path, rows * cols)


def sticker_ids(player: str, count: int) -> list[int]:
    """Sticker ids of a player's force: p1 uses 0-15, p2 uses 16-31 (by index in the force)."""
    ids = tags.player_ids(0 if player == "p1" else 1)
    if count > len(ids):
        raise ValueError(f"at most {len(ids)} stickers per player")
    return list(ids[:count])


def print_stickers(layout: Layout, player: str, names: list[str], out_dir: Path,
                   base_mm: float = 25.0, paper: str = "a4", dpi: float = 300.0,
                   rings_only: bool = False,
                   joining: list[str] | None = None) -> tuple[Path, Path]:
    """A sheet of tags for one force and the sticker -> piece mapping; ``joining``:
    labels of pieces that may join the force during play (summoned minions), which get
    the next numbers (the game numbers them so: ``GameSystem.joining_pieces``)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    pw, ph = PAPERS[paper]
    s = dpi / 25.4
    spare = list(joining or [])
    force = len(names)
    names = [*names, *spare]
    ids = sticker_ids(player, len(names))
    pitch_x, pitch_y = base_mm + 60, base_mm + 8
    per_col = int((ph - 30) // pitch_y)
    doc = Document(f"tablesight stickers: {player}")
    doc.page(pw, ph)
    doc.text(15, 15, 10, f"tablesight stickers: {player}, {force} miniatures"
                         + (f" and {len(spare)} for pieces that join in play" if spare else "")
                         + f", {base_mm:.0f} mm bases. Print at 100 %.")
    doc.scale_bar(15, ph - 8)
    color = layout.player_bgr(player)
    mapping = []
    for k, (tag_id, name) in enumerate(zip(ids, names, strict=True)):
        col, row = divmod(k, per_col)
        x, y = 15 + col * pitch_x, 25 + row * pitch_y
        size = int(round(base_mm * s)) + 4
        img = np.full((size, size, 3), 255, np.uint8)
        tags.draw_tag(img, (size / 2, size / 2), base_mm * s / 2,
                      None if rings_only else tag_id, color)
        doc.image(img, x, y, size / s, size / s)
        doc.text(x + base_mm + 4, y + base_mm / 2 + 1, 8,
                 f"{player}#{k}  {name}" + ("" if rings_only else f"  (sticker {tag_id})"))
        mapping.append({"sticker": None if rings_only else tag_id, "piece": f"{player}#{k}",
                        "name": name, **({"joins_in_play": True} if k >= force else {})})
    pdf_path = out_dir / f"stickers-{player}.pdf"
    pdf_path.write_bytes(doc.output())
    map_path = out_dir / f"stickers-{player}.json"
    map_path.write_text(json.dumps({"format": "tablesight-stickers/1", "player": player,
                                    "color": layout.players[player], "base_mm": base_mm,
                                    "tag_family": layout.tag_family, "stickers": mapping},
                                   indent=1) + "\n")
    return pdf_path, map_path


def print_ruler(out_dir: Path, length_in: float = 12.0, paper: str = "a4",
                bands: Sequence[tuple[str, float]] = (), name: str = "") -> Path:
    """A range ruler in inches (ticks each quarter inch, numbers each inch) as strips
    that fit the paper's length, to cut out and join end to end (each strip says where
    it starts); the centimetre scale along its other edge checks the print's scale.
    ``bands``: a game's range bands (name, where each ends, mm from the ruler's start):
    a heavy line across the ruler where each ends and its name inside it, the ruler as
    long as the last."""
    out_dir.mkdir(parents=True, exist_ok=True)
    if bands:
        length_in = math.ceil(bands[-1][1] / 25.4 * 4) / 4
    if not 1 <= length_in <= 72:
        raise ValueError(f"a ruler of 1 to 72 inches, not {length_in}")
    pw, ph = PAPERS[paper]
    usable = ph - 2 * TILE_MARGIN_MM - 10  # strips run along the page's long side
    per_strip = math.floor(usable / 25.4)  # whole inches per strip
    strip_w, gap = 30.0, 8.0
    per_page = int((pw - 2 * TILE_MARGIN_MM + gap) // (strip_w + gap))
    doc = Document(f"tablesight ruler, {length_in:g} inches")
    starts = [float(k) for k in range(0, math.ceil(length_in), per_strip)]
    for i, start in enumerate(starts):
        if i % per_page == 0:
            doc.page(pw, ph)
            doc.text(TILE_MARGIN_MM, ph - 4, 7, f"tablesight ruler, {length_in:g} inches: "
                     "print at 100 %, cut along the outlines, join the strips in order")
        end = min(length_in, start + per_strip)
        x = TILE_MARGIN_MM + (i % per_page) * (strip_w + gap)
        y0 = TILE_MARGIN_MM + 5  # the strip's 0 (its start) at the top
        length = (end - start) * 25.4
        for a, b in (((x, y0), (x + strip_w, y0)), ((x + strip_w, y0), (x + strip_w, y0 + length)),
                     ((x + strip_w, y0 + length), (x, y0 + length)), ((x, y0 + length), (x, y0))):
            doc.line(*a, *b, 0.15)  # the outline to cut along
        quarters = round((end - start) * 4)
        for q in range(quarters + 1):
            yy = y0 + q * 25.4 / 4
            tick = 12.0 if q % 4 == 0 else 7.0 if q % 2 == 0 else 4.0
            doc.line(x, yy, x + tick, yy, 0.25)
            if q % 4 == 0 and 0 < q < quarters:
                # Below a band's heavy line when one ends at this inch, not struck by it.
                on_band = any(abs((start * 25.4 + q * 25.4 / 4) - stop) < 1.5
                              for _, stop in bands)
                doc.text(x + 13, yy + (4.8 if on_band else 1.3), 9, f"{start + q // 4:g}\"")
        for cm in range(int(length // 10) + 1):
            yy = y0 + cm * 10
            doc.line(x + strip_w - (4 if cm % 5 else 7), yy, x + strip_w, yy, 0.2)
        doc.text(x + 2, y0 + length - 2, 6, f"{start:g}-{end:g} in")
        begin = 0.0
        for band, stop in bands:
            # Where the band ends, across the whole strip; its name halfway along it.
            for at, draw in ((stop, True), ((begin + stop) / 2, False)):
                yy = y0 + at - start * 25.4
                if y0 <= yy <= y0 + length:
                    if draw:
                        doc.line(x, yy, x + strip_w, yy, 0.8)
                    else:
                        doc.text(x + 13, yy + 1.5, 9, band.upper())
            begin = stop
    label = f"-{name}" if name else ""
    path = out_dir / f"ruler{label}-{length_in:g}in-{paper}.pdf"
    path.write_bytes(doc.output())
    return path

