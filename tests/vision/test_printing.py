import json
import re
import struct
import subprocess
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import tags
from vision.printing.sheets import print_map, print_stickers


def poppler(tool: str, *args: str) -> str:
    """Debian's poppler-utils: a PDF reader the project did not write."""
    return subprocess.run([tool, *args], capture_output=True, text=True, check=True).stdout


def rasterise(pdf: Path, dpi: int, page: int = 1) -> np.ndarray:
    out = pdf.with_suffix("")
    poppler("pdftoppm", "-r", str(dpi), "-f", str(page), "-l", str(page), "-png",
            "-singlefile", str(pdf), str(out))
    return cv2.imread(str(out) + ".png")


def markers_mm(img: np.ndarray, dpi: int, dictionary: str) -> dict[int, np.ndarray]:
    """Each marker found in a rasterised page: its corners in millimetres."""
    aruco = cv2.aruco
    params = aruco.DetectorParameters()
    params.cornerRefinementMethod = aruco.CORNER_REFINE_SUBPIX
    det = aruco.ArucoDetector(aruco.getPredefinedDictionary(getattr(aruco, dictionary)),
                              params)
    corners, ids, _ = det.detectMarkers(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
    assert ids is not None
    # OpenCV puts pixel centres on whole numbers; a page's pixel k spans k to k + 1.
    return {int(i): (c.reshape(4, 2) + 0.5) * 25.4 / dpi
            for i, c in zip(ids.ravel(), corners, strict=True)}


def test_print_map_writes_true_scale_files(layout, tmp_path):
    files = print_map(layout, tmp_path, dpi=50, paper="a4")
    assert json.loads(files.layout.read_text())["format"] == "tablesight-layout/1"
    png = files.png.read_bytes()
    i = png.index(b"pHYs")
    ppm_x, ppm_y, unit = struct.unpack(">IIB", png[i + 4:i + 13])
    assert unit == 1 and abs(ppm_x / 39.3701 - 50) < 0.1 and ppm_x == ppm_y
    crc = struct.unpack(">I", png[i + 13:i + 17])[0]
    assert crc == zlib.crc32(png[i:i + 13])
    img = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    assert abs(img.shape[1] / 50 * 25.4 - layout.sheet[0]) < 1.0  # true scale
    # The PDFs as poppler reads them: exact page sizes, pages, an embedded font.
    info = poppler("pdfinfo", str(files.sheet_pdf))
    w_pt, h_pt = (float(v) for v in re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts",
                                               info).groups())
    assert abs(w_pt - layout.sheet[0] * 72 / 25.4) < 0.01
    assert abs(h_pt - layout.sheet[1] * 72 / 25.4) < 0.01
    tiled = poppler("pdfinfo", str(files.tiled_pdf))
    assert re.search(r"Pages:\s+(\d+)", tiled).group(1) == str(files.tiles)
    assert files.tiles >= 9
    assert "595.28 x 841.89 pts (A4)" in tiled
    fonts = poppler("pdffonts", str(files.tiled_pdf))
    assert "DejaVuSans" in fonts and re.search(r"DejaVuSans.*\byes\b", fonts), fonts
    assert "tile row 1/" in poppler("pdftotext", str(files.tiled_pdf), "-")
    letter = print_map(layout, tmp_path / "letter", dpi=50, paper="letter")
    assert "612 x 792 pts (letter)" in poppler("pdfinfo", str(letter.tiled_pdf))


def test_the_printed_scale_measured_from_the_pdf_itself(layout, tmp_path):
    """The one-sheet PDF rasterised by poppler at 100 dpi: every marker is 50 mm wide
    and the markers stand where the layout puts them, within 0.15 mm over
    the whole 70 cm sheet; the tiled PDF's first page likewise, shifted by its margin.
    And the detector finds the map in what poppler drew."""
    from vision.detect import Detector

    files = print_map(layout, tmp_path, dpi=100)
    want = {m.id: np.array(m.corners, float) for m in layout.markers}
    page = rasterise(files.sheet_pdf, 100)
    found = markers_mm(page, 100, layout.dictionary)
    assert set(found) == set(want)
    errors = [np.abs(found[i] - want[i]).max() for i in want]
    # a pixel at 100 dpi is 0.25 mm; the corner fit is sub-pixel (measured: at most 0.10)
    assert max(errors) < 0.15, errors
    sides = [np.linalg.norm(found[i][1] - found[i][0]) for i in want]
    assert abs(float(np.median(sides)) - 50.0) < 0.1, sides
    det = Detector(layout).detect(cv2.resize(page, None, fx=0.4, fy=0.4,
                                             interpolation=cv2.INTER_AREA))
    assert det.fix.found and det.fix.reprojection_px < 1.0
    assert det.bases == [] and det.occluded == set()
    first = markers_mm(rasterise(files.tiled_pdf, 100, page=1), 100, layout.dictionary)
    assert first  # the first tile holds the top-left markers whole
    for i, corners in first.items():
        shifted = want[i] + 10.0  # the tile margin
        assert np.abs(corners - shifted).max() < 0.2, (i, corners, shifted)


def test_printed_map_is_found_by_the_detector(layout, tmp_path):
    from vision.detect import Detector

    files = print_map(layout, tmp_path, dpi=40)
    img = cv2.imread(str(files.png))
    det = Detector(layout).detect(img)
    assert det.fix.found and len(det.fix.markers_seen) == len(layout.markers)
    assert det.fix.reprojection_px < 1.0
    assert det.bases == [] and det.occluded == set()


def test_stickers_and_mapping(layout, tmp_path):
    names = ["Iron Thug", "Mirrorman", "Mirrorman"]
    pdf, mapping = print_stickers(layout, "p2", names, tmp_path, base_mm=32)
    assert re.search(r"Pages:\s+1\n", poppler("pdfinfo", str(pdf)))
    assert "Iron Thug" in poppler("pdftotext", str(pdf), "-")
    m = json.loads(mapping.read_text())
    assert m["player"] == "p2" and m["base_mm"] == 32
    assert [s["piece"] for s in m["stickers"]] == ["p2#0", "p2#1", "p2#2"]
    assert [s["sticker"] for s in m["stickers"]] == list(tags.player_ids(1))[:3]
    _, rings = print_stickers(layout, "p1", names, tmp_path / "r", rings_only=True)
    assert all(s["sticker"] is None for s in json.loads(rings.read_text())["stickers"])


def test_a_hex_map_and_a_3_ft_battle_mat_print_tiled_and_are_found(tmp_path):
    """Any layout prints through the same layer: a hex map (found by the detector in
    what poppler drew of its one-sheet PDF) and a 3 ft x 3 ft free battlefield (914 mm)
    tiled on A4 and on Letter, every tile at its exact paper size."""
    from table.maps import free_area, hex_grid, layout_document
    from vision.detect import Detector
    from vision.layout import Layout

    players = {"p1": "#F0780A", "p2": "#1A78E0"}
    hexes = Layout.from_dict(layout_document("hexes", "test", hex_grid(9, 7, 44.0),
                                             (25.0, 32.0), players))
    files = print_map(hexes, tmp_path / "hex", dpi=100)
    page = rasterise(files.sheet_pdf, 100)
    det = Detector(hexes).detect(cv2.resize(page, None, fx=0.5, fy=0.5,
                                            interpolation=cv2.INTER_AREA))
    assert det.fix.found and det.fix.reprojection_px < 1.0
    assert det.bases == [] and det.occluded == set()
    mat = Layout.from_dict(layout_document("mat", "test", [free_area(914.4, 914.4)],
                                           (25.0, 102.0), players))
    for paper, size in (("a4", "595.28 x 841.89 pts"), ("letter", "612 x 792 pts")):
        f = print_map(mat, tmp_path / paper, dpi=40, paper=paper)
        info = poppler("pdfinfo", str(f.tiled_pdf))
        assert size in info and re.search(r"Pages:\s+(\d+)", info).group(1) == str(f.tiles)
        assert f.tiles >= 20  # about 1.07 m square with its marker band
    found = markers_mm(rasterise(f.sheet_pdf, 60), 60, mat.dictionary)
    assert set(found) == {m.id for m in mat.markers} and len(found) >= 12


def test_the_ruler_measures_inches(tmp_path):
    """The ruler as poppler draws it at 300 dpi: its inch ticks are 25.4 mm apart."""
    from vision.printing.sheets import print_ruler

    pdf = print_ruler(tmp_path, 12.0, "a4")
    img = cv2.cvtColor(rasterise(pdf, 300), cv2.COLOR_BGR2GRAY)
    # The first strip's long (inch) ticks: rows where the left 10 mm of the strip is ink.
    x_mm = 10.0 + 2.0  # inside the tick length of an inch (12 mm), past the quarter ones
    col = img[:, int(round((x_mm + 8.0) * 300 / 25.4))]  # 8 mm: past half-inch ticks too
    rows = np.flatnonzero(col < 128)
    rows = rows[rows < (15.0 + 10 * 25.4 + 2) * 300 / 25.4]  # the strip, not the footer
    starts = rows[np.insert(np.diff(rows) > 3, 0, True)]
    ticks_mm = (starts + 0.5) * 25.4 / 300
    spacing = np.diff(ticks_mm)
    assert len(ticks_mm) == 11  # 0 to 10 inches on the first strip
    assert np.abs(spacing - 25.4).max() < 0.2, spacing
    with pytest.raises(ValueError):
        print_ruler(tmp_path, 0.5)


def test_sticker_sheets_for_bases_up_to_4_inch_disks(layout, tmp_path):
    for base in (25.0, 50.0, 102.0):
        pdf, mapping = print_stickers(layout, "p1", ["Disk"] * 3, tmp_path / f"{base:g}",
                                      base_mm=base)
        assert "595.28 x 841.89 pts (A4)" in poppler("pdfinfo", str(pdf))
        assert json.loads(mapping.read_text())["base_mm"] == base
