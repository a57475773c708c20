"""Printable pages on fpdf2: exact page sizes in millimetres, the map's art as a
lossless image, and everything whose size matters drawn as vectors (the markers the
camera finds the map by, alignment ticks, a scale bar), with an embedded font.

Markers are vectors so that a printer's resampling never moves their edges: the camera
measures the map from them. The scale bar lets a person check with a ruler that the
page was printed at 100 %.
"""

from __future__ import annotations

import io
import zlib
from pathlib import Path

import cv2
import numpy as np
from fpdf import FPDF

FONT_FILES = (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),)
Point = tuple[float, float]


class Document:
    """A PDF of pages of any size, in millimetres from each page's top-left corner."""

    def __init__(self, title: str) -> None:
        self.pdf = FPDF(unit="mm")
        self.pdf.set_auto_page_break(False)
        self.pdf.set_margins(0, 0, 0)
        self.pdf.set_title(title)
        self.pdf.set_creator("tablesight")
        self.font = "helvetica"  # a standard font: latin-1 only, not embedded
        for f in FONT_FILES:
            if f.exists():  # Debian's fonts-dejavu-core: embedded, any character
                self.pdf.add_font("dejavu", "", str(f))
                self.font = "dejavu"
                break

    def page(self, width_mm: float, height_mm: float) -> None:
        self.pdf.add_page(format=(width_mm, height_mm))

    def image(self, bgr: np.ndarray, x: float, y: float, w: float, h: float) -> None:
        """A raster placed with its top-left corner at (x, y), lossless (PNG)."""
        ok, buf = cv2.imencode(".png", bgr)
        if not ok:
            raise ValueError("PNG encoding failed")
        self.pdf.image(io.BytesIO(bytes(buf)), x=x, y=y, w=w, h=h)

    def line(self, x0: float, y0: float, x1: float, y1: float, width_mm: float = 0.2) -> None:
        self.pdf.set_draw_color(0, 0, 0)
        self.pdf.set_line_width(width_mm)
        self.pdf.line(x0, y0, x1, y1)

    def quad(self, pts: list[Point], gray: int = 0) -> None:
        self.pdf.set_fill_color(gray, gray, gray)
        self.pdf.polygon(pts, style="F")

    def text(self, x: float, y: float, size_pt: float, text: str) -> None:
        """Text whose baseline starts at (x, y)."""
        if self.font == "helvetica":
            text = text.encode("latin-1", "replace").decode("latin-1")
        self.pdf.set_font(self.font, size=size_pt)
        self.pdf.set_text_color(0, 0, 0)
        self.pdf.text(x, y, text)

    def marker(self, bits: np.ndarray, corners: list[Point]) -> None:
        """An ArUco marker (``bits``: its cells, border included, 0 black) mapped onto
        the quadrilateral ``corners`` (top-left, top-right, bottom-right, bottom-left),
        one vector cell per black module, on a white quadrilateral."""
        n = bits.shape[0]
        self.quad(corners, 255)
        (ax, ay), (bx, by), (cx, cy), (dx, dy) = corners

        def at(u: float, v: float) -> Point:  # bilinear: any quadrilateral, exact corners
            u, v = min(1.0, max(0.0, u)), min(1.0, max(0.0, v))  # the outline stays exact
            top = (ax + (bx - ax) * u, ay + (by - ay) * u)
            bottom = (dx + (cx - dx) * u, dy + (cy - dy) * u)
            return (top[0] + (bottom[0] - top[0]) * v, top[1] + (bottom[1] - top[1]) * v)

        for r in range(n):
            for c in range(n):
                if bits[r, c] == 0:
                    # Cells overlap their neighbours by a hair (not past the outline),
                    # so no white seam shows between two black cells when anti-aliased.
                    e = 0.002
                    self.quad([at(c / n - e, r / n - e), at((c + 1) / n + e, r / n - e),
                               at((c + 1) / n + e, (r + 1) / n + e),
                               at(c / n - e, (r + 1) / n + e)])

    def scale_bar(self, x: float, y: float, length_mm: float = 100.0) -> None:
        """A bar of ``length_mm`` with a tick each centimetre: measure it with a ruler."""
        self.line(x, y, x + length_mm, y, 0.3)
        for k in range(int(length_mm // 10) + 1):
            self.line(x + 10 * k, y - (2.5 if k % 5 == 0 else 1.5), x + 10 * k, y, 0.3)
        self.text(x + length_mm + 2, y + 1, 7, f"{length_mm:.0f} mm: check it with a ruler")

    def output(self) -> bytes:
        return bytes(self.pdf.output())


def marker_bits(dictionary_name: str, marker_id: int) -> np.ndarray:
    """An ArUco marker's cells, border included (0 black, 255 white)."""
    aruco = cv2.aruco
    d = aruco.getPredefinedDictionary(getattr(aruco, dictionary_name))
    cells = d.markerSize + 2
    return aruco.generateImageMarker(d, marker_id, cells, borderBits=1)


def png_with_dpi(bgr: np.ndarray, dpi: float) -> bytes:
    """PNG bytes carrying a pHYs chunk, so printing software knows the true size."""
    ok, buf = cv2.imencode(".png", bgr)
    if not ok:
        raise ValueError("PNG encoding failed")
    data = bytes(buf)
    ppm = int(round(dpi / 0.0254))
    body = b"pHYs" + ppm.to_bytes(4, "big") * 2 + b"\x01"
    chunk = (9).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")
    ihdr_end = 8 + 4 + 4 + 13 + 4  # signature, IHDR length, type, data, crc
    return data[:ihdr_end] + chunk + data[ihdr_end:]
