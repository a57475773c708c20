"""Stage 1, for markers off the board's plane: the camera's pose, then the board's
homography from it.

Markers printed on the board share its plane, and one homography from their corners
maps the whole board (``locate.py``). Markers stuck on the table beside a thick board,
or on posts, lie on other planes: seen from a camera off to the side, a marker 20 mm
below the board shifts 5-20 mm against it, and a homography through such markers puts
every base that far off. The layout states each marker's height over the playing
surface; the camera is then solved as a pinhole (pose and focal length, the principal
point at the image's centre) and the board's plane is mapped through it.

The focal length is found by trying many and keeping the one the corners fit best. A
camera looking straight down at markers all at one height does not tell it (every
focal length fits, at its own distance): then the stated field of view
(``camera_hfov_deg``) is used, and an error in it moves the board by only the height's
share of the change (20 mm markers, 1.1 m up, a field of view 15 % off: under 1 mm at
the board's edge). Lens distortion is left out, as the homography leaves it out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

# Fields of view tried (degrees across the image's width): every webcam lies in this.
_HFOV_GRID = np.arange(30.0, 121.0, 3.0)


@dataclass(frozen=True)
class Pose:
    """A solved camera: intrinsics, rotation and translation (board mm -> camera)."""

    k: np.ndarray  # 3x3
    rvec: np.ndarray
    tvec: np.ndarray
    rms_px: float

    def plane_map(self, height: float) -> np.ndarray:
        """The homography from board mm (x, y) at ``height`` mm over the board to
        image pixels."""
        r, _ = cv2.Rodrigues(self.rvec)
        # Board frame: x right, y down the sheet, z into the table (right-handed), so a
        # point ``height`` above the board has z = -height.
        h = self.k @ np.column_stack([r[:, 0], r[:, 1], r[:, 2] * -height + self.tvec.ravel()])
        return h / h[2, 2]

    @property
    def hfov_deg(self) -> float:
        width = 2 * (self.k[0, 2] + 0.5)
        return math.degrees(2 * math.atan(width / 2 / self.k[0, 0]))


def focal_px(hfov_deg: float, width: int) -> float:
    return (width / 2) / math.tan(math.radians(hfov_deg) / 2)


def _intrinsics(f: float, size: tuple[int, int]) -> np.ndarray:
    w, h = size
    return np.array([[f, 0, (w - 1) / 2], [0, f, (h - 1) / 2], [0, 0, 1]], np.float64)


def _solve(obj: np.ndarray, img: np.ndarray, k: np.ndarray) -> Pose | None:
    ok, rvec, tvec = cv2.solvePnP(obj, img, k, None, flags=cv2.SOLVEPNP_SQPNP)
    if not ok:
        return None
    proj, _ = cv2.projectPoints(obj, rvec, tvec, k, None)
    rms = float(np.sqrt(np.mean(np.sum((proj.reshape(-1, 2) - img) ** 2, axis=1))))
    if not math.isfinite(rms) or float(tvec[2, 0]) <= 0:  # the board behind the camera
        return None
    return Pose(k, rvec, tvec, rms)


def solve(points: dict[int, np.ndarray], heights: dict[int, float],
          seen: dict[int, np.ndarray], size: tuple[int, int], hfov_deg: float,
          focal: float | None = None) -> Pose | None:
    """The camera from the seen markers' corners. ``points``: each marker's corners in
    board mm (4 x 2); ``heights``: each marker's height over the board; ``seen``: the
    corners found in the image (4 x 2); ``size``: (width, height) of the image;
    ``hfov_deg``: the field of view to assume when the view does not tell it;
    ``focal``: a focal length (px) known already (then it is not searched)."""
    ids = [i for i in seen if i in points]
    if len(ids) < 2:
        return None
    obj = np.concatenate([np.column_stack([points[i], np.full(4, -heights.get(i, 0.0))])
                          for i in ids]).astype(np.float64)
    img = np.concatenate([seen[i] for i in ids]).astype(np.float64)
    if focal is not None:
        return _solve(obj, img, _intrinsics(focal, size))
    tried = [(f, _solve(obj, img, _intrinsics(f, size)))
             for f in (focal_px(a, size[0]) for a in _HFOV_GRID)]
    fits = [(f, p) for f, p in tried if p is not None]
    if not fits:
        return None
    errs = np.array([p.rms_px for _, p in fits])
    best = int(np.argmin(errs))
    stated = _solve(obj, img, _intrinsics(focal_px(hfov_deg, size[0]), size))
    # A flat error curve: the view does not tell the focal length (a camera straight
    # above markers at one height); the stated field of view is as good as any.
    if stated is not None and stated.rms_px <= errs[best] * 1.1 + 0.05:
        return stated
    # Refine between the neighbours of the best grid point (golden section on log f).
    lo = math.log(fits[max(0, best - 1)][0])
    hi = math.log(fits[min(len(fits) - 1, best + 1)][0])
    pose = fits[best][1]
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    pa, pb = (_solve(obj, img, _intrinsics(math.exp(x), size)) for x in (a, b))
    for _ in range(12):
        ea = pa.rms_px if pa else math.inf
        eb = pb.rms_px if pb else math.inf
        if ea < eb:
            hi, b, pb = b, a, pa
            a = hi - g * (hi - lo)
            pa = _solve(obj, img, _intrinsics(math.exp(a), size))
        else:
            lo, a, pa = a, b, pb
            b = lo + g * (hi - lo)
            pb = _solve(obj, img, _intrinsics(math.exp(b), size))
    for p in (pa, pb):
        if p is not None and p.rms_px < pose.rms_px:
            pose = p
    return pose


def marker_errors(pose: Pose, points: dict[int, np.ndarray], heights: dict[int, float],
                  seen: dict[int, np.ndarray]) -> dict[int, float]:
    """Each seen marker's RMS corner error (px) under ``pose``: a marker misplaced
    (moved, or its corners found wrong) stands out."""
    out = {}
    for i, corners in seen.items():
        if i not in points:
            continue
        proj = cv2.perspectiveTransform(points[i].reshape(-1, 1, 2).astype(np.float64),
                                        pose.plane_map(heights.get(i, 0.0))).reshape(4, 2)
        out[i] = float(np.sqrt(np.mean(np.sum((proj - corners) ** 2, axis=1))))
    return out


def camera_over_board(homography: np.ndarray, size: tuple[int, int],
                      hfov_deg: float) -> np.ndarray | None:
    """Where the camera is, from the board's homography (board mm -> image px): (x mm,
    y mm, height mm over the board), the first two its foot on the board. A pinhole
    with the principal point at the image's centre; its focal length is read from the
    homography when the view is tilted enough to tell it (the two board axes must map
    to perpendicular rays), else the stated field of view is taken (looking straight
    down, the foot lies under the image's centre whatever the focal length). None for a
    homography no camera makes."""
    w, h = size
    centre = np.array([[1, 0, -(w - 1) / 2], [0, 1, -(h - 1) / 2], [0, 0, 1]])
    g = centre @ np.asarray(homography, np.float64)
    stated = f = focal_px(hfov_deg, w)
    scale = np.linalg.norm(g)
    if not (scale > 0 and math.isfinite(scale)):
        return None
    g = g / scale
    # With B = diag(1/f^2, 1/f^2, 1), the board's axes g1, g2 map to rays at right
    # angles (g1' B g2 = 0) and of equal length (g1' B g1 = g2' B g2): two equations
    # in u = 1/f^2, solved together (a tilt about one board axis leaves the first
    # empty, one about the other the second).
    a = np.array([g[0, 0] * g[0, 1] + g[1, 0] * g[1, 1],
                  g[0, 0] ** 2 + g[1, 0] ** 2 - g[0, 1] ** 2 - g[1, 1] ** 2])
    y = np.array([-g[2, 0] * g[2, 1], g[2, 1] ** 2 - g[2, 0] ** 2])
    if a @ a > 0:
        u = float(a @ y / (a @ a))
        if u > 0 and 0.5 * stated < 1 / math.sqrt(u) < 2.0 * stated:
            f = 1 / math.sqrt(u)
    a = np.diag([1 / f, 1 / f, 1.0]) @ g
    n1, n2 = np.linalg.norm(a[:, 0]), np.linalg.norm(a[:, 1])
    if not (n1 > 0 and n2 > 0 and math.isfinite(n1 + n2)):
        return None
    lam = 2.0 / (n1 + n2)
    r1, r2, t = lam * a[:, 0], lam * a[:, 1], lam * a[:, 2]
    if t[2] < 0:  # the board lies in front of the camera
        r1, r2, t = -r1, -r2, -t
    u, _, vt = np.linalg.svd(np.column_stack([r1, r2, np.cross(r1, r2)]))
    rot = u @ vt
    at = -rot.T @ t
    return np.array([at[0], at[1], abs(at[2])])
