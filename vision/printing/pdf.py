"""A small PDF writer: pages holding raster images (lossless, Flate) plus vector marks
and text. Enough for true-scale maps and sticker sheets, with no dependency."""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

import numpy as np

MM = 72.0 / 25.4  # PDF points per millimetre


@dataclass
class Page:
    width_mm: float
    height_mm: float
    images: list[tuple[np.ndarray, float, float, float, float]] = field(default_factory=list)
    ops: list[str] = field(default_factory=list)  # raw content-stream operators (points)

    def image(self, bgr: np.ndarray, x_mm: float, y_mm: float, w_mm: float, h_mm: float) -> None:
        """Place an image with its top-left corner at (x, y) mm from the page's top-left."""
        self.images.append((bgr, x_mm, y_mm, w_mm, h_mm))

    def line(self, x0: float, y0: float, x1: float, y1: float, width_mm: float = 0.2) -> None:
        h = self.height_mm
        self.ops.append(f"{width_mm * MM:.3f} w {x0 * MM:.2f} {(h - y0) * MM:.2f} m "
                        f"{x1 * MM:.2f} {(h - y1) * MM:.2f} l S")

    def text(self, x: float, y: float, size_pt: float, text: str) -> None:
        safe = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        safe = safe.encode("latin-1", "replace").decode("latin-1")
        self.ops.append(f"BT /F1 {size_pt:.1f} Tf {x * MM:.2f} {(self.height_mm - y) * MM:.2f} Td "
                        f"({safe}) Tj ET")


def write_pdf(pages: list[Page]) -> bytes:
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    pages_id = len(objects) + 1 + 0  # reserved below
    objects.append(b"")  # placeholder for the Pages object
    kids = []
    for page in pages:
        xobjects = []
        content = ["q"]
        for i, (bgr, x, y, w, h) in enumerate(page.images):
            rgb = np.ascontiguousarray(bgr[:, :, ::-1])
            data = zlib.compress(rgb.tobytes(), 6)
            img_id = add(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d "
                         b"/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode "
                         b"/Length %d >>\nstream\n" % (rgb.shape[1], rgb.shape[0], len(data))
                         + data + b"\nendstream")
            xobjects.append(f"/Im{i} {img_id} 0 R")
            content.append(f"q {w * MM:.3f} 0 0 {h * MM:.3f} {x * MM:.3f} "
                           f"{(page.height_mm - y - h) * MM:.3f} cm /Im{i} Do Q")
        content.append("0 0 0 RG 0 0 0 rg")
        content.extend(page.ops)
        content.append("Q")
        stream = "\n".join(content).encode("latin-1")
        content_id = add(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        res = f"<< /Font << /F1 {font} 0 R >> /XObject << {' '.join(xobjects)} >> >>"
        page_id = add(
            f"<< /Type /Page /Parent {pages_id} 0 R /MediaBox [0 0 {page.width_mm * MM:.2f} "
            f"{page.height_mm * MM:.2f}] /Resources {res} /Contents {content_id} 0 R >>"
            .encode("latin-1"))
        kids.append(f"{page_id} 0 R")
    objects[pages_id - 1] = (f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(kids)} >>"
                             .encode("latin-1"))
    catalog = add(f"<< /Type /Catalog /Pages {pages_id} 0 R >>".encode("latin-1"))
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += (b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n"
            % (len(objects) + 1, catalog, xref))
    return bytes(out)


def png_with_dpi(bgr: np.ndarray, dpi: float) -> bytes:
    """PNG bytes carrying a pHYs chunk, so printing software knows the true size."""
    import cv2

    ok, buf = cv2.imencode(".png", bgr)
    if not ok:
        raise ValueError("PNG encoding failed")
    data = bytes(buf)
    ppm = int(round(dpi / 0.0254))
    body = b"pHYs" + ppm.to_bytes(4, "big") * 2 + b"\x01"
    chunk = (9).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")
    ihdr_end = 8 + 4 + 4 + 13 + 4  # signature, IHDR length, type, data, crc
    return data[:ihdr_end] + chunk + data[ihdr_end:]
