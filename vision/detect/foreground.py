"""Stage 2: the top-down working image and what differs from the empty printed map.

The frame is warped to sheet coordinates at ``px_per_mm`` (the work area: the part of
the sheet that holds cells and zones). The warp's pixel map is kept while the homography
stays the same, as it does while the map lies still. Brightness is divided by an
illumination estimate (a closing of a small copy: paper is the brightest thing
almost everywhere), so dim light, gradients and soft shadows cancel out. The same is
done to the reference (the map as printed); a pixel is foreground when it is much
darker than the reference there, or much more saturated. Brightness is compared at full
resolution, colour at half (it only fills the inside of a sticker's dark rim), and the
looser mask that finds hands is made at half resolution.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..config import VisionConfig
from ..layout import Layout
from ..printing.mapart import render_reference
from ..shrink import double, halve, shrink
from .bases import disc_radius
from .board_light import LearnedBoard
from .workarea import Box, WorkArea


def illumination(gray: np.ndarray) -> np.ndarray:
    """Smooth estimate of the paper's brightness everywhere (float32, >= 1)."""
    h, w = gray.shape
    # A closing (max filter, then min filter) a little wider than the largest base (in
    # working pixels) removes bases and figures; unlike a max filter alone it follows a
    # gradient, so the edge of a cast shadow is light, not something on the map. The blur
    # smooths the steps between windows.
    # Every step is local (the closing reaches 10 small pixels, 5 for its dilation and 5
    # for its erosion, the blur 6, the enlargement 1: ILLUMINATION_REACH working pixels)
    # and the enlargement is by exactly 4, so a box of the image cut on a multiple of 4
    # gets the values the whole image gets there, away from the box's edges.
    small = shrink(gray, 4)
    small = cv2.morphologyEx(small, cv2.MORPH_CLOSE, np.ones((11, 11), np.uint8))
    small = cv2.GaussianBlur(small, (0, 0), 2.0)
    big = cv2.resize(small.astype(np.float32), None, fx=4, fy=4,
                     interpolation=cv2.INTER_LINEAR)
    if big.shape != (h, w):  # sides not multiples of 4: the last rows/columns repeat
        big = cv2.copyMakeBorder(big[:h, :w], 0, max(0, h - big.shape[0]), 0,
                                 max(0, w - big.shape[1]), cv2.BORDER_REPLICATE)
    return cv2.max(big, 1.0)


ILLUMINATION_REACH = 4 * (10 + 6 + 1)  # working px: how far ``illumination`` looks
MAP_STEP = 8  # working px between the warp map's exactly computed points
BLACK_PRINT = 0.1  # reference brightness under which the map prints black
# The light's tint (``ForegroundModel._learn_cast``): measured where the reference is
# brighter than CAST_PAPER and the frame at least CAST_BRIGHT of the paper, in blocks of
# CAST_BLOCK half-resolution pixels, the fit keeping the CAST_KEEP share of blocks that
# fit best; renewed when it moves by CAST_STEP.
CAST_PAPER, CAST_BRIGHT, CAST_BLOCK, CAST_KEEP, CAST_STEP = 0.8, 0.88, 8, 0.75, 0.03


def saturation(bgr: np.ndarray) -> np.ndarray:
    """HSV saturation as 0..1 (OpenCV's conversion is far faster than numpy's max/min)."""
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)[..., 1].astype(np.float32) * (1 / 255)


@dataclass
class Foreground:
    gray: np.ndarray  # the work area seen from above, in grey
    illum: np.ndarray  # float32 paper brightness
    mask: np.ndarray  # uint8 0/255: bases (strong difference to the map)
    area: WorkArea
    # uint8 0/255, at half resolution (working pixel (2i, 2j) at [i, j]): any clear
    # difference to the map (hands, arms)
    loose: np.ndarray

    @property
    def scale(self) -> float:
        return self.area.scale

    def paste(self, part: Foreground, at: Box, keep: Box) -> None:
        """Write ``part`` (extracted over ``at``) into this foreground, only inside
        ``keep`` (a box within ``at``: near ``at``'s edges the part lacked context)."""
        inner = Box(keep.x0 - at.x0, keep.y0 - at.y0, keep.x1 - at.x0, keep.y1 - at.y0)
        for mine, theirs in ((self.gray, part.gray), (self.illum, part.illum),
                             (self.mask, part.mask)):
            mine[keep.slices] = theirs[inner.slices]
        self.loose[keep.halved().slices] = part.loose[inner.halved().slices]  # half size


class ForegroundModel:
    def __init__(self, layout: Layout, config: VisionConfig,
                 reference: np.ndarray | None = None) -> None:
        """``reference``: the empty board as the camera saw it, warped to the work area
        (BGR of ``area.shape``, see ``warp``), for a board the project did not print;
        None: the map as printed, drawn from the layout."""
        self.cfg = config
        s = config.px_per_mm
        self.area = area = WorkArea.for_layout(layout, s, config.work_margin_mm)
        self.size = area.size
        # Only cells and zones hold bases; markers and margins are ignored.
        self.region_labels = area.region_labels(layout)
        region_mask = np.where(self.region_labels > 0, 255, 0).astype(np.uint8)
        self.region_mask = region_mask
        # Hands are looked for on the sheet, not along its edge, where a blurred frame
        # mixes in the table beyond it (a long thin "change" that would pass for an arm).
        b = config.sheet_border_mm
        w, h = layout.sheet
        sheet_inner = np.zeros_like(region_mask)
        cv2.fillPoly(sheet_inner, [area.to_px([(b, b), (w - b, b), (w - b, h - b),
                                               (b, h - b)])], 255)
        self.sheet_inner = halve(sheet_inner)
        # Largest area one base (with its dark rim) can cover, in working pixels.
        disc_px = disc_radius(layout, s)
        self.disc_area = float(np.pi * disc_px ** 2)
        # Less than most of the smallest base: a piece of a ring (``_mend_rings``).
        self.piece_area = 0.6 * float(np.pi * (layout.base_diameters[0] / 2 * s) ** 2)
        if reference is None:
            self.use_reference(area.crop(render_reference(layout, s)), learned=False)
        else:
            self.use_reference(reference)
        # A box's foreground equals the whole image's this far inside the box's edges:
        # the paper's brightness looks ILLUMINATION_REACH around, a base-sized blob is
        # filled whole (its far side may lie that much further in), the morphology and
        # the mending of pale rings (``_mend_rings``) add a few pixels.
        self.context_px = ILLUMINATION_REACH + int(np.ceil(2 * disc_px)) + 4 + \
            int(np.ceil(config.ring_bridge_mm * s))
        # The warp's pixel map is smooth, so it is computed exactly on a coarse grid
        # (every MAP_STEP working pixels, one step beyond each edge) and enlarged
        # linearly; cv2.resize puts a coarse sample k at fine pixel MAP_STEP * k +
        # (MAP_STEP - 1) / 2, so that is where each is computed, and the one-step frame
        # is cut off again. Off by under 0.01 px at the bench's 38-degree tilt (a quarter
        # of the remap's own 1/32-px steps), for a third of the cost of projecting
        # every pixel.
        rows, cols = area.shape[0] // MAP_STEP + 2, area.shape[1] // MAP_STEP + 2
        off = (MAP_STEP - 1) / 2 - MAP_STEP
        ys, xs = np.mgrid[0:rows, 0:cols].astype(np.float32) * MAP_STEP + off
        self._grid = np.stack([xs, ys], axis=-1).reshape(-1, 1, 2)
        self._grid_shape = (rows, cols)
        self._maps: tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray],
                          tuple[int, int], np.ndarray] | None = None

    def use_reference(self, ref: np.ndarray, learned: bool = True) -> None:
        """Compare frames with ``ref`` from now on: the empty board (BGR of the work
        area's shape), as printed or as the camera saw it (``learned``)."""
        if ref.ndim != 3 or ref.shape[:2] != self.area.shape:
            raise ValueError(f"an empty board's picture must be {self.area.shape[1]}x"
                             f"{self.area.shape[0]} BGR, got {ref.shape}")
        self.learned = learned
        ref_gray = cv2.cvtColor(ref, cv2.COLOR_BGR2GRAY)
        if learned:
            self._board = LearnedBoard(ref, self.cfg, self.region_mask, self.disc_area)
            self._board_illum = illumination(ref_gray)
        ref_norm = ref_gray.astype(np.float32) / illumination(ref_gray)
        # The tests of ``extract`` as thresholds per pixel, computed once: a pixel is dark
        # when grey < light x (reference - dark_diff), saturated when its saturation
        # (0-255) exceeds the reference's by sat_diff. Per frame that is one multiply
        # and a compare per test instead of a chain of float images.
        c = self.cfg
        self.dark_below = (ref_norm - c.dark_diff).astype(np.float32)
        # The hands' tests run at half resolution (``halve``).
        self.loose_below = halve((ref_norm - c.hand_dark_diff).astype(np.float32))
        self.loose_above = halve((ref_norm + c.hand_light_diff).astype(np.float32))
        # Printed black is a dark grey (0.1-0.35 of the paper in real photos), not the
        # reference's 0: a light-sleeve test against 0 calls every marker a hand. The
        # print's black level is measured on the frames (``_learn_black``) and that test
        # compares dark print with it instead. A learned board is what the camera sees
        # already: nothing to measure.
        self._ref_norm = ref_norm
        self.print_black = 0.0
        self._black_px = (ref_norm < BLACK_PRINT) & (not learned)
        # Every fourth such pixel is plenty for a median, and a quarter of the work.
        self._black_sample = np.flatnonzero(self._black_px)[::4]
        sat255 = saturation(ref) * 255
        # Colour is compared at half resolution (``extract``).
        self.sat_above = halve(np.clip(sat255 + c.sat_diff * 255, 0, 255).astype(np.uint8))
        # Over black print (and two pixels round it) colour is never a hand's: the print
        # reflects the lamp and carries its tint, and blur fringes its edges with colour.
        # 255: a saturation nothing exceeds.
        over_ink = cv2.dilate((ref_norm < BLACK_PRINT).astype(np.uint8),
                              np.ones((5, 5), np.uint8))
        self.loose_sat_above = halve(np.where(
            over_ink > 0, 255, np.clip(sat255 + c.hand_sat_diff * 255, 0, 255)
        ).astype(np.uint8))
        # The light's colour is measured against the print's (``_learn_cast``): where
        # the reference is paper, not ink, at half resolution.
        self._ref_colour = halve(ref).astype(np.float32)
        self._ref_paper = halve((ref_norm > CAST_PAPER).astype(np.float32))
        self.cast = None
        self.pale_below = (ref_norm - c.glare_dark_diff).astype(np.float32)
        self.pale_sat_above = halve(
            np.clip(sat255 + c.glare_sat_diff * 255, 0, 255).astype(np.uint8))

    def _pixel_maps(self, homography: np.ndarray, frame_shape: tuple[int, int]
                    ) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
        """Where each working pixel samples the frame, as OpenCV's fixed-point map
        (remapping with it costs about 60 % of a warpPerspective; building it about a
        quarter, paid once per homography); and the same at half resolution (working
        pixel (2i, 2j) at [i, j])."""
        if (self._maps is not None and self._maps[2] == frame_shape
                and np.array_equal(self._maps[3], homography)):
            return self._maps[0], self._maps[1]
        m = homography @ self.area.px_to_sheet()  # working px -> mm -> image px
        coarse = cv2.perspectiveTransform(self._grid, m).reshape(*self._grid_shape, 2)
        rows, cols = self._grid_shape
        fine = cv2.resize(coarse, (cols * MAP_STEP, rows * MAP_STEP),
                          interpolation=cv2.INTER_LINEAR)
        h, w = self.area.shape
        where = fine[MAP_STEP:MAP_STEP + h, MAP_STEP:MAP_STEP + w]
        full = cv2.convertMaps(where, None, cv2.CV_16SC2)
        half = (np.ascontiguousarray(full[0][::2, ::2]), np.ascontiguousarray(full[1][::2, ::2]))
        self._maps = (full, half, frame_shape, homography.copy())
        return full, half

    def warp(self, frame: np.ndarray, homography: np.ndarray) -> np.ndarray:
        """The work area of ``frame`` seen from above, in colour at full resolution
        (what ``use_reference`` takes, from a frame of the empty board)."""
        full_map, _ = self._pixel_maps(homography, frame.shape[:2])
        return cv2.remap(frame, *full_map, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def _learn_black(self, ratio: np.ndarray) -> None:
        """How dark this print's black is, from the pixels the reference has black (the
        markers, the grid's lines): their median brightness relative to the paper. A
        hand over some of them hardly moves a median of thousands; the light-sleeve
        threshold is redrawn only when the level changes."""
        values = ratio.ravel()[self._black_sample]
        if values.size < 50:
            return
        level = float(np.median(values))
        if abs(level - self.print_black) < 0.03:
            return
        self.print_black = level
        # Over black print the measured level is known closely (a median): a sleeve is
        # what is lighter than it by a smaller margin than the reference's own test.
        ink = np.where(self._black_px, level + self.cfg.hand_light_over_ink,
                       self._ref_norm + self.cfg.hand_light_diff)
        self.loose_above = halve(ink.astype(np.float32))

    def _learn_cast(self, colour: np.ndarray, ratio_h: np.ndarray) -> None:
        """The light's colour over the sheet, per channel, relative to the print's
        (``cast``: half resolution, float32 BGR gains, the largest 1). A warm lamp on
        one side and daylight on the other tint the paper unevenly, and a pale orange
        corner passed for an arm. Measured in blocks of about 16 mm where the reference
        is paper and the frame as bright as paper, and fitted with a smooth surface (a
        quadratic in x and y) that leaves out the blocks it fits worst, twice: the tint
        of a lamp changes slowly over the sheet, and a hand or an arm, however large, is
        a patch that does not fit it. Kept while it changes by under ``CAST_STEP``."""
        weight = self._ref_paper * (ratio_h >= CAST_BRIGHT)
        k = CAST_BLOCK
        wt = shrink(weight, k)
        seen = shrink(colour.astype(np.float32) * weight[..., None], k)
        printed = shrink(self._ref_colour * weight[..., None], k)
        use = wt >= 0.5
        if int(use.sum()) < 12:
            return
        gain = (seen[use] + 1.0) / (printed[use] + 1.0)
        gain /= gain.max(axis=1, keepdims=True)  # the tint only, not the brightness
        rows, cols = wt.shape
        yy, xx = np.mgrid[0:rows, 0:cols].astype(np.float32)
        xx, yy = xx / max(cols - 1, 1) * 2 - 1, yy / max(rows - 1, 1) * 2 - 1

        def terms(x: np.ndarray, y: np.ndarray) -> np.ndarray:
            return np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=-1)

        a = terms(xx[use], yy[use])
        keep = np.ones(len(a), bool)
        for _ in range(3):
            coef, *_ = np.linalg.lstsq(a[keep], gain[keep], rcond=None)
            miss = np.abs(a @ coef - gain).max(axis=1)
            keep = miss <= np.quantile(miss, CAST_KEEP)
        surface = (terms(xx, yy) @ coef).astype(np.float32)
        h, w = weight.shape
        big = np.clip(cv2.resize(surface, (w, h), interpolation=cv2.INTER_LINEAR), 0.2, 1.0)
        if self.cast is not None and float(np.abs(big - self.cast).max()) < CAST_STEP:
            return
        self.cast = big

    def _extract_learned(self, gray: np.ndarray, colour: np.ndarray, box: Box
                         ) -> Foreground:
        """``extract`` against a learned board: each pixel compared with the board's own
        at that place, after the light's changes since. Darker or lighter than the
        board, or of another colour, is a piece: a board may be darker or lighter than
        its pieces, and any colour.

        The light's change is a gain that varies over the board (``board_light``), for
        the brightness and for each colour channel apart: evening lamp light and
        morning daylight from a window differ in colour as much as in brightness, and
        unevenly over the board, and compared as they came every cell differed in
        colour from the board learned in the other."""
        c = self.cfg
        at, half = box.slices, box.halved().slices
        mask, rel, ab_diff, gain = self._board.compare(gray, colour, box)
        kernel = np.ones((3, 3), np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
        rel_h = halve(rel)
        loose = cv2.bitwise_or(cv2.compare(rel_h, 1 - c.hand_dark_diff, cv2.CMP_LT),
                               cv2.compare(rel_h, 1 + c.hand_light_diff, cv2.CMP_GT))
        loose = cv2.bitwise_or(loose, cv2.compare(ab_diff.astype(np.float32),
                                                  c.board_hand_colour_diff, cv2.CMP_GT))
        loose = cv2.bitwise_or(loose, self._board.unlike(gray, colour, box))
        loose = cv2.bitwise_and(loose, self.sheet_inner[half])
        loose = cv2.morphologyEx(loose, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        illum = cv2.max(self._board_illum[at] * gain, 1.0)
        return Foreground(gray, illum, fill_holes(mask, self.disc_area), self.area.sub(box),
                          fill_holes(loose))

    def _mend_rings(self, mask: np.ndarray, ratio: np.ndarray, sat_h: np.ndarray,
                    at: tuple[slice, slice], half: tuple[slice, slice]) -> np.ndarray:
        """A pale sticker (an overexposed frame, a tinted cell) passes the base tests
        only in pieces: arcs of its ring, which make no disc, and the base was lost (on
        rendered frames without figures, one in 150 at 720p). Within ``ring_bridge_mm``
        of each piece smaller than a base, the pale test of a glare spot counts too, so
        the arcs join into the ring again. Only near such pieces: a base with its
        figure is one large blob, and growing it would join the figure's shading; nor
        near specks of noise, smaller than a tenth of a piece."""
        bridge = int(round(self.cfg.ring_bridge_mm * self.cfg.px_per_mm))
        if bridge <= 0:
            return mask
        # The pieces by their outlines (a twentieth of the cost of labelling the
        # pixels: this runs on every frame), grown in a window round each.
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        pieces = []
        for c in contours:
            area = cv2.contourArea(c)
            if 0.1 * self.piece_area <= area < self.piece_area:
                pieces.append(cv2.boundingRect(c))
            elif self.piece_area <= area <= 2 * self.disc_area:
                # A base's outline round a pale sticker (its dark bevel, a pixel wide,
                # and a dark wedge or two): it encloses a base, but little of what it
                # encloses passes (a base's blob is filled), and the opening below would
                # break it: a pastel sticker on a tinted cell passes only about half of
                # its outline's area. A "C" whose open arc did not pass (a pale arc just
                # short of a glare spot) is measured by its convex hull, which its
                # outline does not enclose.
                x, y, w, h = rect = cv2.boundingRect(c)
                hull = cv2.contourArea(cv2.convexHull(c))
                if cv2.countNonZero(mask[y:y + h, x:x + w]) < OUTLINE_FILL * hull:
                    pieces.append(rect)
        if not pieces:
            return mask
        pale = cv2.bitwise_and(
            _pale_test(ratio, sat_h, self.pale_below[at], self.pale_sat_above[half]),
            self.region_mask[at])
        grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * bridge + 1,) * 2)
        out = mask.copy()
        rows, cols = mask.shape
        for x, y, w, h in pieces:
            win = (slice(max(0, y - bridge), min(rows, y + h + bridge)),
                   slice(max(0, x - bridge), min(cols, x + w + bridge)))
            # (the window's strong pixels: the piece's, and at most a sliver of a
            # neighbour's in its corners)
            near = cv2.dilate(mask[win], grow)
            out[win] = cv2.bitwise_or(out[win], cv2.bitwise_and(pale[win], near))
        return out

    def extract(self, frame: np.ndarray, homography: np.ndarray, box: Box | None = None,
                frame_gray: np.ndarray | None = None) -> Foreground:
        """The foreground of the work area, or of ``box`` of it (a box that starts on
        multiples of ``ALIGN``; its values are those of the whole image except within
        ``context_px`` of the box's edges, where it lacks context). ``frame_gray``: the
        frame in grey, when the caller has it already."""
        box = box or self.area.box
        at, half = box.slices, box.halved().slices
        full_map, half_map = self._pixel_maps(homography, frame.shape[:2])
        if frame_gray is None:
            frame_gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        # Brightness is warped at full resolution (edges of ink and rims place the
        # bases); colour only at half resolution: a quarter of the pixels to warp,
        # and the saturated parts of a sticker lie inside its dark rim.
        gray = cv2.remap(frame_gray, *(m[at] for m in full_map), cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)
        colour = cv2.remap(frame, *(m[half] for m in half_map), cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)
        if self.learned:
            return self._extract_learned(gray, colour, box)
        illum = illumination(gray)
        # Brightness relative to the paper's; OpenCV's element-wise operations give 0/255
        # masks directly and cost a fraction of numpy's boolean arrays.
        ratio = cv2.divide(gray.astype(np.float32), illum)
        ratio_h = halve(ratio)
        if box == self.area.box:
            self._learn_black(ratio)
            self._learn_cast(colour, ratio_h)
        if self.cast is not None:  # the light's tint taken out (``_learn_cast``)
            colour = cv2.divide(colour.astype(np.float32), self.cast[half])
            colour = np.clip(colour, 0, 255).astype(np.uint8)
        sat_h = cv2.cvtColor(colour, cv2.COLOR_BGR2HSV)[..., 1]
        dark = cv2.compare(ratio, self.dark_below[at], cv2.CMP_LT)
        # Saturated, and not black (noise makes black pixels' saturation jump).
        vivid = cv2.bitwise_and(double(cv2.compare(sat_h, self.sat_above[half], cv2.CMP_GT)),
                                cv2.compare(ratio, 0.2, cv2.CMP_GT))
        mask = cv2.bitwise_or(dark, vivid)
        # Under a glare spot the camera clips: the paper is pure white, ink prints grey
        # and colours pale, so a sticker differs from the paper by far less, and the
        # ring broke into pieces that no longer made a disc. There (and only there:
        # clipped paper has no sensor noise) smaller differences count.
        # Most frames have no glare spot at all: then the tests are skipped.
        if float(illum.max()) >= self.cfg.clipped_paper:
            clipped = cv2.compare(illum, self.cfg.clipped_paper, cv2.CMP_GE)
            pale = _pale_test(ratio, sat_h, self.pale_below[at], self.pale_sat_above[half])
            mask = cv2.bitwise_or(mask, cv2.bitwise_and(pale, clipped))
        mask = cv2.bitwise_and(mask, self.region_mask[at])
        mask = self._mend_rings(mask, ratio, sat_h, at, half)
        kernel = np.ones((3, 3), np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
        # Skin and sleeves differ from paper less than a sticker does: a looser mask,
        # used only to find hands, catches them. Hands are large, so it is made at half
        # resolution, a quarter of the work.
        illum_h = halve(illum)
        loose = cv2.bitwise_or(cv2.compare(ratio_h, self.loose_below[half], cv2.CMP_LT),
                               cv2.compare(sat_h, self.loose_sat_above[half], cv2.CMP_GT))
        # A light sleeve over dark print is lighter than the print. Not where the paper
        # is near white-out: glare adds light, and dark print there looks lighter too.
        lighter = cv2.bitwise_and(cv2.compare(ratio_h, self.loose_above[half], cv2.CMP_GT),
                                  cv2.compare(illum_h, self.cfg.glare_paper, cv2.CMP_LT))
        loose = cv2.bitwise_or(loose, lighter)
        loose = cv2.bitwise_and(loose, self.sheet_inner[half])
        loose = cv2.morphologyEx(loose, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        return Foreground(gray, illum, fill_holes(mask, self.disc_area), self.area.sub(box),
                          fill_holes(loose))


# A blob whose pixels fill less than this share of what its outline encloses is a ring,
# not a disc (``_mend_rings``): a base's blob, with or without its figure, is filled.
OUTLINE_FILL = 0.6


def _pale_test(ratio: np.ndarray, sat_h: np.ndarray, below: np.ndarray,
               sat_above: np.ndarray) -> np.ndarray:
    """Darker than ``below`` or (at half resolution) more saturated than ``sat_above``:
    0/255 at full resolution."""
    return cv2.bitwise_or(cv2.compare(ratio, below, cv2.CMP_LT),
                          double(cv2.compare(sat_h, sat_above, cv2.CMP_GT)))


def fill_holes(mask: np.ndarray, disc_area: float = 0.0) -> np.ndarray:
    """A light figure on a base leaves a hole in the mask, or a "C" when it also reaches
    over the rim; a base is a solid disc. Blobs no bigger than one base are filled to
    their convex hull (closing the C), larger ones (touching bases) only inside."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(mask)
    small = []
    for c in contours:
        if disc_area and len(c) >= 3:
            hull = cv2.convexHull(c)
            if cv2.contourArea(hull) <= disc_area:
                small.append(hull)
                continue
        small.append(c)
    cv2.drawContours(out, small, -1, 255, -1)
    return out
