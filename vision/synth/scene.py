"""Render a layout plus a board into a camera frame.

World coordinates are the layout's millimetres (x right, y toward p1, z into the table).
Everything lying on the table (map, bases, figures seen from above, hands, shadows) is
drawn once on a top-down texture, which a pinhole camera then views at the chosen height
and tilt; lens distortion, light, blur, noise and JPEG follow. Frames are rendered at
1.5x and downsampled, as a real sensor integrates light over each pixel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from .. import tags
from ..layout import Layout
from ..printing.mapart import render_sheet

TABLE_MM = 160.0  # table visible around the sheet
TEX_PX_PER_MM = 2.5
# A base's top (its sticker, and the figure standing on it) lies this high over the
# table, and is seen displaced away from the camera's foot (parallax), as in a photo.
BASE_HEIGHT_MM = 3.5
CAMERA_DISTANCE_MM = 1500.0  # from the sheet's centre
SUPERSAMPLE = 1.5


@dataclass(frozen=True)
class Base:
    x: float
    y: float
    owner: str
    tag: int | None  # None: a plain coloured ring
    diameter: float = 25.0
    angle: float = 0.0
    figure: float = 0.45  # fraction of the base top the figure hides (0: none)
    piece: str | None = None  # e.g. "p1#3", for the truth only


@dataclass(frozen=True)
class Hand:
    """An arm reaching in from a sheet edge toward (x, y)."""

    x: float
    y: float
    from_edge: str = "bottom"  # bottom (p1's side) or top
    width: float = 85.0
    color: tuple[int, int, int] | None = None  # BGR of a sleeve; None: bare skin


@dataclass
class Conditions:
    tilt_deg: float = 0.0  # camera tilt from vertical, toward p1's side
    yaw_deg: float = 0.0
    distortion: float = 0.0  # radial k1 (negative: barrel)
    light: float = 1.0  # overall gain (dim light < 1)
    uneven: float = 0.15  # strength of a light gradient
    glare: float = 0.0  # peak added brightness of a specular spot (0-255)
    shadow: float = 0.0  # darkness of a cast shadow across the map (0-1)
    blur: float = 0.0  # motion blur length, px at output size
    noise: float = 2.0  # sensor noise sigma (0-255)
    jpeg: int = 90
    fill: float = 0.9  # how much of the frame height the sheet fills
    print_black: float = 0.0  # printed black's brightness as a share of the paper's:
    # real printers and photos give 0.1-0.35, not 0


@dataclass
class Scene:
    layout: Layout
    bases: list[Base] = field(default_factory=list)
    hands: list[Hand] = field(default_factory=list)

    def truth(self) -> dict[str, list[dict]]:
        """Region name -> bases in it (owner, sticker), as a detector should report."""
        out: dict[str, list[dict]] = {}
        for b in self.bases:
            r = self.layout.region_at(b.x, b.y)
            if r is not None:
                out.setdefault(r.name, []).append({"owner": b.owner, "sticker": b.tag,
                                                   "x": b.x, "y": b.y, "piece": b.piece})
        return out

    def hand_polygons(self) -> list[np.ndarray]:
        polys = []
        h = self.layout.sheet[1]
        for hand in self.hands:
            ex = hand.x + (hand.y - (h if hand.from_edge == "bottom" else 0)) * 0.15
            ey = h + TABLE_MM if hand.from_edge == "bottom" else -TABLE_MM
            d = np.array([hand.x - ex, hand.y - ey], float)
            d /= np.linalg.norm(d) + 1e-9
            n = np.array([-d[1], d[0]])
            half = hand.width / 2
            tip = np.array([hand.x, hand.y])
            start = np.array([ex, ey])
            palm = tip - d * 40
            arm = [start + n * half * 0.8, palm + n * half, tip + n * half * 0.6,
                   tip + d * 35 + n * 12, tip + d * 45, tip + d * 35 - n * 12,
                   tip - n * half * 0.6, palm - n * half, start - n * half * 0.8]
            polys.append(np.array(arm, np.float64))
        return polys

    def occluded_regions(self) -> set[str]:
        """Regions a hand covers (any overlap), for scoring the detector."""
        out: set[str] = set()
        for poly in self.hand_polygons():
            for r in self.layout.regions:
                x0, y0, x1, y1 = r.bbox
                xs = np.linspace(x0, x1, 9)
                ys = np.linspace(y0, y1, 9)
                pts = np.array([(x, y) for x in xs for y in ys], np.float32)
                contour = poly.astype(np.float32).reshape(-1, 1, 2)
                if any(cv2.pointPolygonTest(contour, (float(x), float(y)), False) >= 0
                       for x, y in pts):
                    out.add(r.name)
        return out


FIGURE_COLORS = [(70, 70, 75), (40, 60, 110), (35, 45, 60), (140, 140, 150), (60, 110, 60),
                 (50, 50, 160), (120, 60, 110), (25, 25, 25), (180, 185, 190),
                 (30, 100, 200), (160, 90, 40), (90, 130, 160)]
SKIN = [(150, 180, 225), (120, 150, 200), (90, 120, 170), (60, 85, 130), (170, 195, 235)]


class SceneRenderer:
    """Renders scenes of one layout (the empty-map texture is made once)."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        s = TEX_PX_PER_MM
        sheet = render_sheet(layout, s)
        pad = int(round(TABLE_MM * s))
        h, w = sheet.shape[:2]
        table = np.zeros((h + 2 * pad, w + 2 * pad, 3), np.uint8)
        # A wooden table: low-frequency stripes, darker than the paper.
        yy = np.arange(table.shape[0], dtype=np.float32)[:, None]
        xx = np.arange(table.shape[1], dtype=np.float32)[None, :]
        grain = (np.sin(xx / 9.0 + np.sin(yy / 57.0) * 3) * 10 + 70).astype(np.float32)
        table[:] = np.stack([grain * 0.55, grain * 0.8, grain * 1.15], axis=-1).clip(0, 255)
        table[pad:pad + h, pad:pad + w] = sheet
        self.texture = table
        self._ink = np.zeros(table.shape[:2], bool)  # the sheet's dark print
        self._ink[pad:pad + h, pad:pad + w] = cv2.cvtColor(sheet, cv2.COLOR_BGR2GRAY) < 100
        self._printed: dict[float, np.ndarray] = {0.0: table}
        self.pad_mm = TABLE_MM
        self._grid: tuple[np.ndarray, ...] | None = None

    # -- the top-down picture ---------------------------------------------------------
    def _paper(self, print_black: float) -> np.ndarray:
        """The empty sheet on the table, its black printed as grey as ``print_black``."""
        if print_black not in self._printed:
            tex = self.texture.astype(np.float32)
            paper = float(np.median(tex[~self._ink & (tex.mean(axis=2) > 150)]))
            tex[self._ink] = tex[self._ink] * (1 - print_black) + paper * print_black
            self._printed[print_black] = tex.clip(0, 255).astype(np.uint8)
        return self._printed[print_black]

    def _paint(self, scene: Scene, rng: np.random.Generator, view_dir: np.ndarray,
               print_black: float = 0.0, camera: np.ndarray | None = None) -> np.ndarray:
        """The top-down texture. ``camera``: where the camera is (board x mm, y mm,
        height mm); the bases' tops are drawn where it sees them."""
        s = TEX_PX_PER_MM
        tex = self._paper(print_black).copy()

        def px(x: float, y: float) -> tuple[float, float]:
            return (x + self.pad_mm) * s, (y + self.pad_mm) * s

        for b in scene.bases:
            foot_x, foot_y = px(b.x, b.y)
            cx, cy = foot_x, foot_y
            if camera is not None:
                lift = BASE_HEIGHT_MM / (camera[2] - BASE_HEIGHT_MM)
                cx, cy = px(b.x + (b.x - camera[0]) * lift, b.y + (b.y - camera[1]) * lift)
            r = b.diameter / 2 * s
            # A soft contact shadow, then the base's dark bevelled side (about 1 mm).
            x0, y0 = int(cx - 2 * r), int(cy - 2 * r)
            x1, y1 = int(cx + 2 * r), int(cy + 2 * r)
            if x0 >= 0 and y0 >= 0 and x1 <= tex.shape[1] and y1 <= tex.shape[0]:
                patch = np.zeros((y1 - y0, x1 - x0), np.float32)
                cv2.circle(patch, (int(cx - x0 + 0.06 * r), int(cy - y0 + 0.08 * r)),
                           int(r * 1.05), 1.0, -1, cv2.LINE_AA)
                patch = cv2.GaussianBlur(patch, (0, 0), r * 0.12)
                roi = tex[y0:y1, x0:x1].astype(np.float32)
                tex[y0:y1, x0:x1] = (roi * (1 - 0.45 * patch[..., None])).astype(np.uint8)
            # The dark side from the foot on the table up to the top: both rims and
            # the band between them.
            for t in np.linspace(0.0, 1.0, 4):
                cv2.circle(tex, (int(foot_x + (cx - foot_x) * t), int(foot_y + (cy - foot_y) * t)),
                           int(r + 1.0 * s), (30, 30, 32), -1, cv2.LINE_AA)
            color = self.layout.player_bgr(b.owner)
            tags.draw_tag(tex, (cx, cy), r, b.tag, color, b.angle)
            if b.figure > 0:
                area = b.figure * math.pi * r * r
                rad = math.sqrt(area / math.pi)
                # Tall figures lean away from the camera in the picture.
                off = view_dir * r * 0.25 + rng.normal(0, 0.08 * r, 2)
                n = 9
                angles = np.sort(rng.uniform(0, 2 * math.pi, n))
                radii = rad * rng.uniform(0.75, 1.25, n)
                pts = np.stack([cx + off[0] + radii * np.cos(angles),
                                cy + off[1] + radii * np.sin(angles)], axis=1)
                fc = FIGURE_COLORS[int(rng.integers(len(FIGURE_COLORS)))]
                cv2.fillPoly(tex, [(pts * 16).astype(np.int32)], fc, cv2.LINE_AA, 4)
                hl = tuple(int(min(255, c * 1.5 + 30)) for c in fc)
                cv2.circle(tex, (int(cx + off[0] - rad * 0.3), int(cy + off[1] - rad * 0.3)),
                           max(1, int(rad * 0.25)), hl, -1, cv2.LINE_AA)
        for hand, poly in zip(scene.hands, scene.hand_polygons(), strict=True):
            p = np.array([px(x, y) for x, y in poly])
            shadow = tex.copy()
            offset = np.array([25 * s, 30 * s])
            cv2.fillPoly(shadow, [((p + offset) * 16).astype(np.int32)], (0, 0, 0),
                         cv2.LINE_AA, 4)
            tex = cv2.addWeighted(tex, 0.55, shadow, 0.45, 0)
            skin = SKIN[int(rng.integers(len(SKIN)))]
            cv2.fillPoly(tex, [(p * 16).astype(np.int32)], hand.color or skin, cv2.LINE_AA, 4)
        return tex

    # -- the camera -------------------------------------------------------------------
    def camera(self, c: Conditions) -> np.ndarray:
        """Where the camera is: its foot on the board (x mm, y mm) and its height (mm)."""
        w, h = self.layout.sheet
        cam = self._camera_offset(c)
        return np.array([w / 2 + cam[0], h / 2 + cam[1], -cam[2]])

    @staticmethod
    def _yaw(c: Conditions) -> np.ndarray:
        """The camera's turn about the table's normal."""
        yaw = math.radians(c.yaw_deg)
        return np.array([[math.cos(yaw), -math.sin(yaw), 0],
                         [math.sin(yaw), math.cos(yaw), 0], [0, 0, 1]])

    @classmethod
    def _camera_offset(cls, c: Conditions) -> np.ndarray:
        """The camera from the sheet's centre (board axes; z into the table)."""
        t = math.radians(c.tilt_deg)
        dist = CAMERA_DISTANCE_MM
        return cls._yaw(c) @ np.array([0.0, dist * math.sin(t), -dist * math.cos(t)])

    def homography(self, c: Conditions, size: tuple[int, int]) -> np.ndarray:
        """Sheet millimetres -> output pixels."""
        w, h = self.layout.sheet
        t = math.radians(c.tilt_deg)
        cam = self._camera_offset(c)
        rot = np.array([[1, 0, 0], [0, math.cos(t), math.sin(t)],
                        [0, -math.sin(t), math.cos(t)]])
        rot = rot @ self._yaw(c).T
        tvec = -rot @ cam
        center = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]])
        plane = np.column_stack([rot[:, 0], rot[:, 1], tvec]) @ center
        corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], float).T
        proj = plane @ corners
        xy = proj[:2] / proj[2]
        # The camera is aimed at the sheet's centre, which is the middle of the picture
        # (a webcam's principal point); the focal length makes the sheet fill ``fill``
        # of the frame's height (its near edge, the larger under a tilt).
        f = min(size[1] / 2 * c.fill / np.abs(xy[1]).max(),
                size[0] / 2 * 0.97 / np.abs(xy[0]).max())
        k = np.array([[f, 0, (size[0] - 1) / 2], [0, f, (size[1] - 1) / 2], [0, 0, 1]])
        return k @ plane

    def render(self, scene: Scene, c: Conditions, size: tuple[int, int] = (1280, 720),
               seed: int = 0, frame_seed: int | None = None) -> np.ndarray:
        """``seed`` fixes how the scene looks (figures, light, glare); ``frame_seed``, when
        given, varies only the sensor noise, as consecutive frames of one camera do."""
        rng = np.random.default_rng(seed)
        big = (int(size[0] * SUPERSAMPLE), int(size[1] * SUPERSAMPLE))
        hmm = self.homography(c, big)
        # Where the camera is, seen on the table: figures lean away from it.
        inv = np.linalg.inv(hmm)
        cam_foot = inv @ np.array([big[0] / 2, big[1] * 1.6, 1.0])
        view = np.array([scene.layout.sheet[0] / 2, scene.layout.sheet[1] / 2]) - \
            cam_foot[:2] / cam_foot[2]
        view = view / (np.linalg.norm(view) + 1e-9) * min(1.0, c.tilt_deg / 30)
        tex = self._paint(scene, rng, view, c.print_black, self.camera(c))
        s = TEX_PX_PER_MM
        tex_to_mm = np.array([[1 / s, 0, -self.pad_mm], [0, 1 / s, -self.pad_mm], [0, 0, 1]])
        frame = cv2.warpPerspective(tex, hmm @ tex_to_mm, big, flags=cv2.INTER_AREA,
                                    borderMode=cv2.BORDER_CONSTANT, borderValue=(35, 45, 60))
        if c.distortion:
            frame = _distort(frame, c.distortion)
        frame = frame.astype(np.float32)
        hh, ww = frame.shape[:2]
        if self._grid is None or self._grid[0].shape != (hh, ww):
            self._grid = tuple(np.mgrid[0:hh, 0:ww].astype(np.float32))  # reused per size
        yy, xx = self._grid
        lx, ly = rng.uniform(0, ww), rng.uniform(0, hh)
        field_ = 1.0 - c.uneven * np.sqrt((xx - lx) ** 2 + (yy - ly) ** 2) / max(ww, hh)
        frame *= (field_ * c.light)[..., None]
        if c.shadow:
            p = np.array([[rng.uniform(0, ww), 0], [rng.uniform(0, ww), hh],
                          [rng.uniform(0, ww), hh], [rng.uniform(0, ww), 0]], np.float32)
            p[:2, 0] = np.sort(p[:2, 0])
            mask = np.zeros((hh, ww), np.float32)
            cv2.fillConvexPoly(mask, p.astype(np.int32), 1.0)
            mask = cv2.GaussianBlur(mask, (0, 0), 25)
            frame *= (1 - c.shadow * mask)[..., None]
        if c.glare:
            gx, gy = rng.uniform(ww * 0.2, ww * 0.8), rng.uniform(hh * 0.2, hh * 0.8)
            rad = rng.uniform(0.05, 0.1) * ww
            spot = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * rad ** 2))
            frame += (c.glare * spot)[..., None]
        if c.blur >= 1:
            n = max(3, int(c.blur * SUPERSAMPLE) | 1)
            kernel = np.zeros((n, n), np.float32)
            kernel[n // 2, :] = 1.0 / n
            rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), rng.uniform(0, 180), 1)
            kernel = cv2.warpAffine(kernel, rot, (n, n))
            kernel /= kernel.sum()
            frame = cv2.filter2D(frame, -1, kernel)
        frame = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
        noise_rng = rng if frame_seed is None else np.random.default_rng(frame_seed)
        frame += noise_rng.normal(0, c.noise, frame.shape).astype(np.float32)
        frame = frame.clip(0, 255).astype(np.uint8)
        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(c.jpeg)])
        assert ok
        return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def _distort(img: np.ndarray, k1: float) -> np.ndarray:
    h, w = img.shape[:2]
    f = max(w, h)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    x = (xx - w / 2) / f
    y = (yy - h / 2) / f
    r2 = x * x + y * y
    scale = 1 + k1 * r2
    return cv2.remap(img, (x * scale * f + w / 2).astype(np.float32),
                     (y * scale * f + h / 2).astype(np.float32), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)


def clear_of(x: float, y: float, diameter: float, bases: list[Base], gap: float) -> bool:
    """Whether a base of ``diameter`` at (x, y) stays ``gap`` mm clear of every base."""
    return all(math.hypot(x - b.x, y - b.y) > (diameter + b.diameter) / 2 + gap
               for b in bases)


def random_scene(layout: Layout, rng: np.random.Generator, n_bases: int = 14,
                 hands: int = 0, figures: bool = True, ring_only: float = 0.0,
                 diameters: tuple[float, float] | None = None) -> Scene:
    """Bases spread over cells and zones, never overlapping, some cells crowded."""
    dmin, dmax = diameters or layout.base_diameters
    bases: list[Base] = []
    regions = list(layout.regions)
    cells = [r for r in regions if r.role == "cell"]
    ids = {"p1": list(tags.player_ids(0)), "p2": list(tags.player_ids(1))}
    for p in ids:
        rng.shuffle(ids[p])
    tries = 0
    while len(bases) < n_bases and tries < n_bases * 60:
        tries += 1
        region = cells[int(rng.integers(len(cells)))] if rng.random() < 0.8 else \
            regions[int(rng.integers(len(regions)))]
        x0, y0, x1, y1 = region.bbox
        d = float(rng.uniform(dmin, dmax))
        x = float(rng.uniform(x0 + d / 2 + 2, x1 - d / 2 - 2))
        y = float(rng.uniform(y0 + d / 2 + 2, y1 - d / 2 - 2))
        if not clear_of(x, y, d, bases, 1.5):
            continue
        owner = "p1" if rng.random() < 0.5 else "p2"
        if not ids[owner]:
            continue
        tag: int | None = ids[owner].pop()
        if rng.random() < ring_only:
            tag = None
        bases.append(Base(x, y, owner, tag, d, float(rng.uniform(0, 360)),
                          float(rng.uniform(0.3, 0.6)) if figures else 0.0))
    hand_list = []
    for _ in range(hands):
        edge = "bottom" if rng.random() < 0.5 else "top"
        w, h = layout.sheet
        hand_list.append(Hand(float(rng.uniform(0.2 * w, 0.8 * w)),
                              float(rng.uniform(0.25 * h, 0.75 * h)), edge,
                              float(rng.uniform(70, 100))))
    return Scene(layout, bases, hand_list)
