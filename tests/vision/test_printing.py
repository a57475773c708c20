import json
import re
import struct
import zlib

import cv2
import numpy as np

from vision import tags
from vision.printing.sheets import print_map, print_stickers


def pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type /Page\b", data))


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
    sheet = files.sheet_pdf.read_bytes()
    assert sheet.startswith(b"%PDF-1.4") and pdf_pages(sheet) == 1
    assert b"/MediaBox [0 0 %.2f" % (layout.sheet[0] * 72 / 25.4) in sheet
    tiled = files.tiled_pdf.read_bytes()
    assert pdf_pages(tiled) == files.tiles >= 9
    assert b"tile row 1/" in tiled


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
    assert pdf_pages(pdf.read_bytes()) == 1
    m = json.loads(mapping.read_text())
    assert m["player"] == "p2" and m["base_mm"] == 32
    assert [s["mini"] for s in m["stickers"]] == ["p2#0", "p2#1", "p2#2"]
    assert [s["sticker"] for s in m["stickers"]] == list(tags.player_ids(1))[:3]
    _, rings = print_stickers(layout, "p1", names, tmp_path / "r", rings_only=True)
    assert all(s["sticker"] is None for s in json.loads(rings.read_text())["stickers"])
