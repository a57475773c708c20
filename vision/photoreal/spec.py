"""What a physically based scene holds, decided here with a seeded generator, and written
as a job for ``blender_job.py``.

This is the second, independent source of test frames: the printed map and
the stickers are the project's own printables, but the picture is made by Blender's
path tracer from geometry (a curling paper sheet with a glossy surface, bevelled
plastic bases, figures built of primitives, area lights with soft shadows, a pinhole
camera of a webcam's field of view), not by ``vision.synth``'s flat texture warp. Only
where things stand (``vision.synth.random_scene``: positions, owners, ids) is shared,
because that is the truth both sources are scored against.

Units: layout millimetres for the truth; Blender gets metres, the sheet centred on the
origin, x to the right, y toward p2 (the layout's y runs toward p1), z up.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .. import tags
from ..layout import Layout
from ..printing.mapart import render_sheet
from ..synth.scene import Base, Scene, random_scene

SHEET_PX_PER_MM = 4.0  # the printed map's texture: 4 px/mm is 100 dpi
STICKER_PX = 256
RIM_MM = 4.0  # a thick board's edge round the play area
SENSOR_MM = 36.0

# Paint a figure may wear (linear RGB, metallic, roughness). "hue:p1"/"hue:p2" take a
# player's printed colour: a figure painted like the other player's stickers is one of
# the traps the issue names; gold, bronze and copper metal sit near orange's hue.
PAINTS: dict[str, tuple[tuple[float, float, float] | str, float, float]] = {
    "black": ((0.02, 0.02, 0.022), 0.0, 0.5),
    "dark grey": ((0.06, 0.06, 0.065), 0.0, 0.55),
    "steel": ((0.55, 0.56, 0.58), 1.0, 0.3),
    "gold": ((0.85, 0.55, 0.12), 1.0, 0.25),
    "bronze": ((0.55, 0.3, 0.12), 1.0, 0.35),
    "copper": ((0.8, 0.35, 0.2), 1.0, 0.3),
    "bone": ((0.6, 0.55, 0.42), 0.0, 0.6),
    "skin": ((0.55, 0.3, 0.2), 0.0, 0.5),
    "red": ((0.45, 0.03, 0.03), 0.0, 0.45),
    "forest": ((0.04, 0.16, 0.05), 0.0, 0.5),
    "purple": ((0.15, 0.04, 0.25), 0.0, 0.5),
    "leather": ((0.16, 0.08, 0.035), 0.0, 0.6),
    "white": ((0.75, 0.75, 0.72), 0.0, 0.5),
    "p1 hue": ("hue:p1", 0.0, 0.4),
    "p2 hue": ("hue:p2", 0.0, 0.4),
}


@dataclass
class Look:
    """How one scene is lit and seen (everything but what stands where)."""

    size: tuple[int, int] = (1280, 720)
    hfov_deg: float = 70.0  # the webcam's horizontal field of view
    tilt_deg: float = 0.0  # camera tilt from vertical, toward p1's side
    yaw_deg: float = 0.0
    fill: float = 0.9  # the share of the frame's height the sheet spans
    print_black: float = 0.1  # printed black's reflectance as a share of the paper's
    # (the paper's gloss, the lens's flare and the camera lift it further: in photos
    # black measures 0.1-0.35 of the paper)
    print_fade: float = 0.9  # how much of the inks' saturation the printer keeps
    paper_roughness: float = 0.35  # lower: a brighter, smaller glossy hotspot
    curl_mm: float = 3.0  # how far the sheet's curling edges lift
    curl_axis: int = 0  # 0: the left and right edges curl, 1: the top and bottom
    lights: list[dict[str, Any]] = field(default_factory=list)
    ambient: float = 0.15
    samples: int = 32  # Cycles samples per pixel (the webcam adds its own noise after)


@dataclass
class RenderScene:
    name: str
    seed: int
    scene: Scene
    look: Look
    figures: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # base -> parts
    board: np.ndarray | None = None  # a board the project did not print (BGR of the
    # sheet at SHEET_PX_PER_MM, e.g. ``boards.wooden_board``); None: the printed map
    # A board this thick (its top is the layout's plane) covering the play area, its
    # markers printed on labels lying on the table beside it: the layout then gives
    # them a height of -thickness. 0: the sheet lies on the table, markers on it.
    thickness_mm: float = 0.0
    board_roughness: float | None = None  # None: as glossy as the look's paper (a
    # neoprene mat is matte: 0.85)

    def truth(self) -> dict[str, Any]:
        return {"name": self.name, "seed": self.seed, "look": asdict(self.look),
                "bases": [{"x": b.x, "y": b.y, "owner": b.owner, "tag": b.tag,
                           "diameter": b.diameter, "angle": b.angle,
                           "figure_mm": _figure_height(self.figures.get(i, []))}
                          for i, b in enumerate(self.scene.bases)]}


def _figure_height(parts: list[dict[str, Any]]) -> float:
    return round(max((p["top_mm"] for p in parts), default=0.0), 1)


def random_look(rng: np.random.Generator, size: tuple[int, int] = (1280, 720),
                max_tilt: float = 35.0) -> Look:
    """A table as people set it up: a webcam of 60-80 degrees, tilted 0-35 degrees, a
    ceiling lamp (sometimes a second lamp or a window), grey-black ink."""
    lights = [{"kind": "AREA", "at": [float(rng.uniform(-0.5, 0.5)),
                                      float(rng.uniform(-0.5, 0.5)),
                                      float(rng.uniform(1.4, 2.0))],
               "size": [float(rng.uniform(0.2, 1.0)), float(rng.uniform(0.2, 1.0))],
               "power": float(rng.uniform(250, 450)),
               "kelvin": float(rng.uniform(2800, 6000))}]
    if rng.random() < 0.5:  # a second source: a lamp off to one side, or a window
        side = float(rng.choice([-1.0, 1.0]))
        lights.append({"kind": "POINT" if rng.random() < 0.5 else "AREA",
                       "at": [side * float(rng.uniform(0.8, 1.6)),
                              float(rng.uniform(-1.0, 1.0)), float(rng.uniform(0.8, 1.6))],
                       "size": [float(rng.uniform(0.05, 0.6))] * 2,
                       "power": float(rng.uniform(80, 250)),
                       "kelvin": float(rng.uniform(3000, 7000))})
    return Look(size=size, hfov_deg=float(rng.uniform(60, 80)),
                tilt_deg=float(rng.uniform(0, max_tilt)), yaw_deg=float(rng.uniform(-8, 8)),
                fill=float(rng.uniform(0.82, 0.95)),
                print_black=float(rng.uniform(0.04, 0.2)),
                print_fade=float(rng.uniform(0.75, 1.0)),
                paper_roughness=float(rng.uniform(0.25, 0.55)),
                curl_mm=float(rng.uniform(0, 8)), curl_axis=int(rng.integers(2)),
                lights=lights, ambient=float(rng.uniform(0.05, 0.3)))


def random_figure(rng: np.random.Generator, radius_mm: float) -> list[dict[str, Any]]:
    """A figure 20-40 mm tall built of primitives: legs, a torso, a head, and sometimes
    arms or a weapon reaching over the ring, a cloak or a shield. Each part in base-local
    millimetres (z up from the base's top), with a paint."""
    h = float(rng.uniform(20, 40))
    paints = list(PAINTS)
    main = paints[int(rng.integers(len(paints)))]
    second = paints[int(rng.integers(len(paints)))]
    lean = rng.normal(0, 0.12, 2) * radius_mm  # figures rarely stand dead centre
    r = radius_mm
    parts: list[dict[str, Any]] = []

    def part(shape: str, x: float, y: float, z: float, sx: float, sy: float, sz: float,
             paint: str, rot: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> None:
        parts.append({"shape": shape, "at": [x, y, z], "scale": [sx, sy, sz],
                      "rotation": list(rot), "paint": paint,
                      "top_mm": z + sz})

    legs = float(rng.uniform(0.25, 0.4)) * r
    part("cylinder", lean[0] * 0.5, lean[1] * 0.5, h * 0.22, legs, legs * 0.8, h * 0.22, second)
    torso = float(rng.uniform(0.3, 0.55)) * r
    part("cylinder" if rng.random() < 0.5 else "cube", lean[0], lean[1], h * 0.6,
         torso, torso * 0.75, h * 0.18, main, (0.0, 0.0, float(rng.uniform(0, math.pi))))
    part("sphere", lean[0] * 1.2, lean[1] * 1.2, h * 0.88, r * 0.22, r * 0.22, r * 0.24,
         "skin" if rng.random() < 0.6 else main)
    for _ in range(int(rng.integers(0, 3))):  # arms, a spear, a sword: out over the ring
        a = float(rng.uniform(0, 2 * math.pi))
        length = float(rng.uniform(0.5, 1.2)) * r
        droop = float(rng.uniform(-0.6, 0.6))
        mid = length / 2
        part("cylinder", lean[0] + math.cos(a) * mid, lean[1] + math.sin(a) * mid,
             h * 0.65 - droop * mid * 0.5, r * 0.07, r * 0.07, mid,
             paints[int(rng.integers(len(paints)))],
             (math.pi / 2 + droop, 0.0, a + math.pi / 2))
    if rng.random() < 0.35:  # a cloak: a wide cone from the shoulders to the feet
        part("cone", lean[0] * 0.8, lean[1] * 0.8, h * 0.38, r * float(rng.uniform(0.55, 0.85)),
             r * float(rng.uniform(0.55, 0.85)), h * 0.36, main)
    if rng.random() < 0.25:  # a shield: a flat plate off to one side
        a = float(rng.uniform(0, 2 * math.pi))
        part("cube", lean[0] + math.cos(a) * r * 0.45, lean[1] + math.sin(a) * r * 0.45,
             h * 0.5, r * 0.05, r * 0.3, r * 0.35, paints[int(rng.integers(len(paints)))],
             (0.0, 0.0, a))
    return parts


def random_render_scene(layout: Layout, seed: int, figures: bool, n_bases: int = 22,
                        size: tuple[int, int] = (1280, 720), max_tilt: float = 35.0,
                        name: str | None = None) -> RenderScene:
    rng = np.random.default_rng(seed)
    scene = random_scene(layout, rng, n_bases, figures=False)
    look = random_look(rng, size, max_tilt)
    figs = {i: random_figure(rng, b.diameter / 2) for i, b in enumerate(scene.bases)
            if figures}
    return RenderScene(name or f"scene-{seed}", seed, scene, look, figs)


# -- colour helpers --------------------------------------------------------------------
def _srgb_to_linear(c: np.ndarray) -> np.ndarray:
    c = np.asarray(c, float)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def kelvin_rgb(k: float) -> list[float]:
    """A light's colour at ``k`` kelvin, roughly (normalised so the brightest is 1)."""
    t = k / 100.0
    r = 1.0 if t <= 66 else min(1.0, 1.29 * (t - 60) ** -0.1332)
    g = (0.39 * math.log(t) - 0.63) if t <= 66 else 1.13 * (t - 60) ** -0.0755
    b = 1.0 if t >= 66 else (0.0 if t <= 19 else 0.543 * math.log(t - 10) - 1.196)
    rgb = np.clip(np.array([r, g, b]), 0.05, 1.0)
    return [float(v) for v in rgb / rgb.max()]


def _printed(bgr: np.ndarray, look: Look) -> np.ndarray:
    """What a printer makes of an image: black as grey as ``print_black`` of the paper,
    colours a little faded, paper slightly off-white (the albedo Blender gets)."""
    img = bgr.astype(np.float32) / 255.0
    grey = img.mean(axis=2, keepdims=True)
    img = grey + (img - grey) * look.print_fade
    paper = 0.92
    img = look.print_black * paper + img * (paper - look.print_black * paper)
    return (img * 255).clip(0, 255).astype(np.uint8)


# -- the job ---------------------------------------------------------------------------
def _camera(layout: Layout, look: Look) -> dict[str, Any]:
    """Where a webcam of the look's field of view must stand, tilted as asked, for the
    sheet to fill ``fill`` of the frame; its world matrix and lens for Blender."""
    w_m, h_m = layout.sheet[0] / 1000, layout.sheet[1] / 1000
    width, height = look.size
    f_px = (width / 2) / math.tan(math.radians(look.hfov_deg) / 2)
    t, yaw = math.radians(look.tilt_deg), math.radians(look.yaw_deg)
    rz = np.array([[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0],
                   [0, 0, 1]])
    back = rz @ np.array([0.0, -math.sin(t), math.cos(t)])  # from the sheet to the camera
    up = rz @ np.array([0.0, math.cos(t), math.sin(t)])
    right = np.cross(up, back)
    corners = np.array([[x, y, 0.0] for x in (-w_m / 2, w_m / 2) for y in (-h_m / 2, h_m / 2)])

    def spans(dist: float) -> tuple[float, float]:
        rel = corners - back * dist
        z = -(rel @ back)
        u = f_px * (rel @ right) / z
        v = f_px * (rel @ up) / z
        return 2 * float(np.abs(u).max()), 2 * float(np.abs(v).max())

    lo, hi = 0.1, 10.0
    for _ in range(60):  # the nearest distance at which the sheet fits
        mid = (lo + hi) / 2
        su, sv = spans(mid)
        if su <= width * 0.97 and sv <= height * look.fill:
            hi = mid
        else:
            lo = mid
    pos = back * hi
    matrix = np.eye(4)
    matrix[:3, 0], matrix[:3, 1], matrix[:3, 2], matrix[:3, 3] = right, up, back, pos
    return {"matrix": matrix.tolist(), "lens_mm": f_px * SENSOR_MM / width,
            "sensor_mm": SENSOR_MM, "distance_m": hi}


def _to_world(layout: Layout, x_mm: float, y_mm: float) -> tuple[float, float]:
    return (x_mm - layout.sheet[0] / 2) / 1000, -(y_mm - layout.sheet[1] / 2) / 1000


def _curl_lift(look: Look, t: float) -> float:
    """How far the curling paper lifts (metres) at ``t``, the share of the way across
    the sheet along its curling axis (0 and 1: the curling edges)."""
    u = min(1.0, abs(2 * t - 1))
    return look.curl_mm * max(0.0, (u - 0.55) / 0.45) ** 2 / 1000


def _curl(look: Look, nx: int, ny: int) -> list[list[float]]:
    """Paper lifting toward two opposite edges (a rolled print never lies flat)."""
    return [[_curl_lift(look, i / nx if look.curl_axis == 0 else j / ny)
             for i in range(nx + 1)] for j in range(ny + 1)]


def _standing(layout: Layout, look: Look, x_mm: float, y_mm: float, r_mm: float) -> float:
    """Where a base at (x, y) of radius ``r_mm`` stands on the curling paper (metres up):
    on the highest point under it (the paper rises toward the edge; a base put at the
    table's height sank into a curled edge, out of the camera's sight, while the truth
    still had it there)."""
    axis, size = (x_mm, layout.sheet[0]) if look.curl_axis == 0 else (y_mm, layout.sheet[1])
    return max(_curl_lift(look, (axis - r_mm) / size), _curl_lift(look, (axis + r_mm) / size))


def _light(spec: dict[str, Any]) -> dict[str, Any]:
    """A lamp of the look (``Look.lights``: ``kind`` AREA, POINT or SPOT, ``at`` in
    metres, ``size``, ``power``, ``kelvin``; a SPOT also ``spot_deg``, its cone, and
    ``blend``, how soft its edge) as the job gives it to Blender. A lamp points at
    ``aim`` (metres on the table; default the sheet's centre)."""
    at = np.array(spec["at"], float)
    aim = np.array([*spec.get("aim", (0.0, 0.0)), 0.0], float)
    down = (aim - at) / np.linalg.norm(aim - at)
    back = -down
    side = np.cross([0.0, 0.0, 1.0], back) if abs(back[2]) < 0.99 else np.array([1.0, 0, 0])
    side /= np.linalg.norm(side)
    up = np.cross(back, side)
    m = np.eye(4)
    m[:3, 0], m[:3, 1], m[:3, 2], m[:3, 3] = side, up, back, at
    out = {"kind": spec["kind"], "matrix": m.tolist(), "size": spec["size"],
           "power": spec["power"], "color": kelvin_rgb(spec["kelvin"])}
    if spec["kind"] == "SPOT":
        out["spot_deg"], out["blend"] = spec["spot_deg"], spec.get("blend", 0.05)
    return out


def _paint(layout: Layout, name: str) -> dict[str, Any]:
    color, metallic, rough = PAINTS[name]
    if isinstance(color, str):
        bgr = layout.player_bgr(color.split(":")[1])
        color = tuple(float(v) for v in _srgb_to_linear(np.array(bgr[::-1]) / 255.0))
    return {"color": list(color), "metallic": metallic, "roughness": rough}


def write_job(layout: Layout, scenes: list[RenderScene], folder: Path,
              threads: int = 2) -> Path:
    """The job folder: ``job.json``, the printed sheet per print look, the stickers, and
    each scene's truth (``<name>.json``)."""
    folder.mkdir(parents=True, exist_ok=True)
    sheet_bgr = render_sheet(layout, SHEET_PX_PER_MM)
    jobs = []
    materials_base = {"table": {"wood": [[0.09, 0.045, 0.02], [0.2, 0.1, 0.045]],
                                "roughness": 0.6},
                      "base": {"color": [0.012, 0.012, 0.013], "roughness": 0.35},
                      # pieces told by tone (``Layout.tones``), with no sticker: black
                      # and bone-white lacquered wood, satin (a glossy black top in
                      # the lamp's reflection comes out mid-grey, see tone.py)
                      "base:dark": {"color": [0.01, 0.01, 0.011], "roughness": 0.6},
                      "base:light": {"color": [0.62, 0.6, 0.55], "roughness": 0.6}}
    for rs in scenes:
        look = rs.look
        sheet_name = f"{rs.name}-sheet.png"
        cv2.imwrite(str(folder / sheet_name),
                    _printed(sheet_bgr, look) if rs.board is None else rs.board)
        materials = dict(materials_base)
        rough = look.paper_roughness if rs.board_roughness is None else rs.board_roughness
        materials["sheet"] = {"texture": sheet_name, "roughness": rough,
                              "specular": 0.5 if rs.board is None else 0.3}
        for paint in PAINTS:
            materials["paint:" + paint] = _paint(layout, paint)
        bases = []
        for i, b in enumerate(rs.scene.bases):
            tone = layout.tones.get(b.owner)
            sticker = None if tone else f"{rs.name}-sticker-{i}.png"
            if sticker:
                _write_sticker(folder / sticker, layout, b, look)
            x, y = _to_world(layout, b.x, b.y)
            r = b.diameter / 2000
            height = 0.0035
            base = {"x": x, "y": y, "r_top": r + 0.0003, "r_bottom": r + 0.0012,
                    "height": height, "r_sticker": r,
                    "material": f"base:{tone}" if tone else "base",
                    "sticker": sticker, "figure": []}
            if rs.thickness_mm <= 0:
                stand = _standing(layout, look, b.x, b.y, b.diameter / 2 + 1.2)
                if stand > 0:
                    base["z"] = stand
            else:
                stand = 0.0
            for p in rs.figures.get(i, []):
                px, py, pz = p["at"]
                base["figure"].append({
                    "shape": p["shape"],
                    "location": [x + px / 1000, y - py / 1000, stand + height + pz / 1000],
                    "rotation": p["rotation"], "scale": [s / 1000 for s in p["scale"]],
                    "material": "paint:" + p["paint"]})
            bases.append(base)
        w_m, h_m = layout.sheet[0] / 1000, layout.sheet[1] / 1000
        nx, ny = 48, 60
        sheet = {"rect": [-w_m / 2, -h_m / 2, w_m / 2, h_m / 2], "nx": nx, "ny": ny,
                 "z": _curl(look, nx, ny)}
        labels = []
        if rs.thickness_mm > 0:
            lift = rs.thickness_mm / 1000
            sheet = _raised_board(layout, lift)
            labels = _marker_labels(layout, folder, rs.name)
            for base in bases:
                base["z"] = lift
                for part in base["figure"]:
                    part["location"][2] += lift
        jobs.append({
            "name": rs.name, "seed": rs.seed, "size": list(look.size),
            # the board's picture is a file beside the job: its digest keys the cache
            "board": None if rs.board is None else hashlib.sha256(rs.board).hexdigest(),
            "ambient": {"color": [0.8, 0.85, 1.0], "strength": look.ambient},
            "materials": materials,
            "table": {"rect": [-w_m, -h_m, w_m, h_m]},
            "sheet": sheet, "labels": labels,
            "bases": bases, "camera": _camera(layout, look),
            "lights": [_light(spec) for spec in look.lights]})
        (folder / f"{rs.name}.json").write_text(json.dumps(rs.truth(), indent=1))
    settings = {"samples": max(s.look.samples for s in scenes), "threads": threads}
    (folder / "job.json").write_text(json.dumps({"settings": settings, "scenes": jobs}))
    return folder / "job.json"


def _raised_board(layout: Layout, lift: float) -> dict[str, Any]:
    """A thick board's top: the play area (the regions' box and a rim), showing that
    part of the board's picture."""
    xs = [x for r in layout.regions for x, _ in r.polygon]
    ys = [y for r in layout.regions for _, y in r.polygon]
    w, h = layout.sheet
    x0, y0 = max(0.0, min(xs) - RIM_MM), max(0.0, min(ys) - RIM_MM)
    x1, y1 = min(w, max(xs) + RIM_MM), min(h, max(ys) + RIM_MM)
    (wx0, wy1), (wx1, wy0) = _to_world(layout, x0, y0), _to_world(layout, x1, y1)
    # The texture's v grows toward +y (p2, the layout's y = 0): v = 1 - y / height.
    return {"rect": [wx0, wy0, wx1, wy1], "uv": [x0 / w, 1 - y1 / h, x1 / w, 1 - y0 / h],
            "nx": 1, "ny": 1, "z": [[0.0, 0.0], [0.0, 0.0]], "lift": lift}


def _marker_labels(layout: Layout, folder: Path, name: str) -> list[dict[str, Any]]:
    """Each marker printed on a white matte label (6 mm round it), lying on the
    table."""
    aruco = cv2.aruco
    dictionary = aruco.getPredefinedDictionary(getattr(aruco, layout.dictionary))
    out = []
    for m in layout.markers:
        (x0, y0), (x1, y1) = np.min(m.corners, axis=0), np.max(m.corners, axis=0)
        pad = 6.0
        px = int(round((x1 - x0) * SHEET_PX_PER_MM))
        tile = aruco.generateImageMarker(dictionary, m.id, px)
        margin = int(round(pad * SHEET_PX_PER_MM))
        label = cv2.copyMakeBorder(tile, margin, margin, margin, margin,
                                   cv2.BORDER_CONSTANT, value=235)
        texture = f"{name}-label-{m.id}.png"
        cv2.imwrite(str(folder / texture), cv2.cvtColor(label, cv2.COLOR_GRAY2BGR))
        (wx0, wy1), (wx1, wy0) = (_to_world(layout, x0 - pad, y0 - pad),
                                  _to_world(layout, x1 + pad, y1 + pad))
        out.append({"rect": [wx0, wy0, wx1, wy1], "z": 0.0002, "texture": texture})
    return out


def _write_sticker(path: Path, layout: Layout, b: Base, look: Look) -> None:
    img = np.full((STICKER_PX, STICKER_PX, 3), 255, np.uint8)
    c = STICKER_PX / 2
    tags.draw_tag(img, (c, c), c - 1, b.tag, layout.player_bgr(b.owner), b.angle)
    # Blender reads an image's top row as v = 1, and v grows toward +y (p2's side, the
    # top of the sheet as printed): the image goes in as drawn, never mirrored (a
    # mirrored sticker is another pattern).
    cv2.imwrite(str(path), _printed(img, look))
