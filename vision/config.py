"""Every threshold of the detector in one place (chesscog-style: stages read config,
never literals), one line each on what it guards against. Override any of them with a
JSON file: ``{"dark_diff": 0.3, ...}``. How each value was measured is in the commit that
set it and, for the identity thresholds, in ``docs/vision/history.md``."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path


@dataclass(frozen=True)
class VisionConfig:
    # -- locate: the fiducial markers -> the homography (detect/locate.py) -------------
    min_markers: int = 3  # fewer markers seen: no homography (one misread marker could skew it)
    min_marker_spread: float = 0.08  # their hull's share of the sheet: bunched markers tilt badly
    ransac_px: float = 4.0  # a corner this far off the fit is an outlier, not a measurement
    max_reprojection_px: float = 6.0  # a worse fit is rejected (a misread marker, a bent sheet)
    max_reprojection_share: float = 0.004  # ... or this share of the diagonal, if larger (12 MP)
    refine_corners_above_px: float = 1.0  # a worse fit re-measures corners at marker edges (blur)
    camera_hfov_deg: float = 70.0  # field of view assumed for markers off the board's plane
    half_search_min_px: int = 600  # taller frames search markers at half size first (speed)
    marker_pixels_per_cell: int = 10  # ArUco's cell size: OpenCV's 4 misreads blurred edges
    marker_cell_margin: float = 0.3  # ... and the cell border left out of each cell's reading
    full_detect_every: int = 30  # frames between full-frame marker searches while tracking
    bump_px: float = 3.0  # markers moved this far: the map or the camera was bumped
    still_marker_diff: float = 10.0  # mean grey change under which a marker has not moved
    # -- streams: redo only what changed --------------------------------------------------
    reuse_still_frames: bool = True  # a frame equal to the last one reuses its result
    still_frame_diff: int = 4  # 16x16 block means within this: "equal" (sensor noise)
    still_cell_diff: int = 14  # 4x4 cell means within this too (noise and MJPEG reach 8)
    partial_detect: bool = True  # a frame changed in part redoes only that part
    partial_max_share: float = 0.85  # ... unless the part is more than this share of the map
    full_refresh_frames: int = 30  # ... and everything is redone after this many partial frames
    # -- rectify --------------------------------------------------------------------------
    px_per_mm: float = 1.0  # scale of the top-down working image
    work_margin_mm: float = 6.0  # working image: the regions' bounding box and this margin
    # -- foreground: what differs from the empty printed map (detect/foreground.py) -------
    dark_diff: float = 0.28  # darker than the map by this share: something stands there
    sat_diff: float = 0.30  # more saturated by this much: something coloured stands there
    glare_dark_diff: float = 0.12  # the darkening asked where the paper is clipped by glare
    board_light_diff: float = 0.25  # against a learned board: lighter by this share is a piece
    board_colour_diff: float = 14.0  # ... and so is a colour this far (Lab a, b) from the board's,
    # the frame's colour balanced to the board's light first (``board_light.light_gain``)
    board_hand_colour_diff: float = 12.0  # ... this far, for the hands' looser mask
    glare_sat_diff: float = 0.15  # the added saturation asked under glare
    ring_bridge_mm: float = 10.0  # arcs of a pale sticker's ring this close join into one base
    # -- bases (detect/bases.py) ------------------------------------------------------------
    min_radius_fraction: float = 0.55  # smaller distance-transform peaks are no base (specks)
    max_radius_fraction: float = 1.35  # larger peaks are no base (hands, arms)
    traced_arc_deg: float = 200.0  # an outline tracing this much of a circle is a base ...
    traced_tolerance_mm: float = 1.5  # ... within this distance (a figure opened its blob)
    # -- identify: stickers, owners (detect/identify.py and the decoders beside it) ------
    base_height_mm: float = 3.5  # stickers lie on the bases' tops, read there, not on the map
    sticker_fraction: float = 0.9  # sticker radius / disc radius (the base's dark rim)
    tag_margin: float = 0.12  # the best id beats every other by this share of the evidence
    tag_agreement: float = 0.85  # ... and explains this share of it (no guess on a blur)
    hidden_wedges: tuple[int, ...] = (2, 3)  # an unsure ring read again with this many hidden
    hidden_margin: float = 0.12  # ... and read then if the best id leads by this much
    hidden_inner: float = 0.6  # ... from this far out (a figure hides the ring from inside)
    ring_fit: bool = True  # every owned ring also read by its own colours (detect/ring_fit.py)
    fit_band: tuple[float, float] = (0.65, 0.92)  # radii the fit reads: the outer part
    fit_band_fine: tuple[float, float] = (0.8, 0.95)  # ... farther out on larger stickers
    fit_band_fine_px: tuple[float, float] = (10.0, 18.0)  # ... from one radius (px) to the other
    fit_lead: float = 0.4  # the fit's pattern leads the next by this (no wrong one led 0.35)
    fit_explained: float = 0.7  # ... and explains this share of the band's variation
    fit_clean_lead: float = 0.2  # a clean ring (no figure) may lead by less ...
    fit_clean_explained: float = 0.85  # ... when it explains this much
    fit_agreed_lead: float = 0.2  # the lead asked where the colour votes name the same pattern
    fit_agreed_votes_margin: float = 0.02  # ... by at least this margin
    fit_unlike_lead: float = 0.7  # a shadowed pattern (colours unlike the ink) stands at this lead
    fit_unlike_explained: float = 0.84  # ... explaining this much
    fit_confirm_explained: float = 0.7  # the owner's colour intact confirms an agreed reading
    fit_looking_behind: float = 1.0  # a right-looking pattern this far behind keeps its reading
    figure_view_mm: float = 30.0  # the fit trusts less the arc a figure this tall hides (0: off)
    figure_view_spread_deg: float = 34.0  # ... over this spread of angles
    fit_alone_lead: float = 0.7  # a ring with no owner by colour votes read by the fit alone
    fit_alone_owner_samples: int = 3  # ... not where the other player's colour shows as much
    fit_overrule_lead: float = 0.8  # the fit overrules the colour votes on a washed-out sticker
    fit_contested_px: float = 9.0  # smaller stickers never take the clean ring's smaller lead
    fit_plain_structure: float = 0.5  # a "plain" ring explained this much by a pattern is printed
    min_owner_share: float = 0.65  # the owner's share of the colour samples
    owner_min_arc: int = 4  # wedges the owner's colour spans (paint lies on one side)
    owner_in_view: float = 0.99  # ... where the view expects no figure
    owner_figure_share: float = 0.25  # a player's colour this much in a ring's middle is paint
    paint_fill: float = 0.6  # an owner's colour filling less of the wedges may be paint ...
    paint_duller: float = 0.72  # ... when duller than this share of the frame's same owner
    paint_reference_rings: int = 3  # ... measured on this many readings of that owner
    paint_samples: int = 8  # ... each with this many samples of the colour
    print_lead: float = 0.2  # a ring read by the frame's print leads the next pattern by this
    print_owner_lead: float = 0.2  # ... and its owner the other player's by this (0.1 erred)
    print_frame_px: float = 11.0  # stickers under this radius (px) ask the larger leads below
    print_small_lead: float = 0.5  # ... the pattern's (wrong 720p readings led up to 0.39)
    print_small_owner_lead: float = 0.25  # ... the owner's (a wrong owner led 0.21)
    print_worn_lead: float = 0.5  # a figure in its owner's colour: both leads this much
    print_doubt_lead: float = 0.2  # an agreed reading the print contradicts this much is dropped
    print_cap: float = 4.0  # the most one angle costs (paint, glare)
    print_shifts: tuple[float, ...] = (-12.0, -6.0, 0.0, 6.0)  # ring lightness shifts tried (L)
    print_min_rings: int = 3  # sure readings needed to learn the frame's print ...
    print_memory: int = 48  # ... of the last this many, kept across frames
    print_spread_floor: float = 3.0  # no symbol's spread is taken as less (Lab)
    min_owner_evidence: float = 0.4  # a ring with no id and less owner evidence gets no owner
    tone_dark_below: float = 0.6  # pieces told by tone: darker than this is a dark piece ...
    tone_light_above: float = 0.8  # ... lighter than this a light one (markers' black 0, white 1)
    tone_share: float = 0.6  # ... when this share of a base's samples agree
    pale_owner_saturation: float = 0.3  # an owner this pale beside another colour: no owner
    contest_share: float = 0.1  # both players' colours this much: the pattern's wedges decide
    split_fit: float = 0.6  # ... the colour inside them by this share of its samples
    black_value: float = 0.38  # darker samples are ink
    color_saturation: float = 0.40  # more saturated samples are a player's colour
    player_min_value: float = 0.5  # a darker sample of a player's hue is paint (brown, orange)
    ink_saturation: float = 0.5  # ink is neutral: darker samples more saturated are not ink
    hue_tolerance_deg: float = 28.0  # a sample this close in hue is the player's colour
    clipped_paper: float = 245.0  # paper this bright is a glare spot, where black prints grey
    glare_black_value: float = 0.6  # ... so there ink is grey, darker than this
    glare_color_saturation: float = 0.2  # ... and a colour pale, more saturated than this
    # -- occlusion: hands and sleeves ------------------------------------------------------
    hand_area_bases: float = 2.5  # a blob larger than this many bases is a hand
    disc_fill: float = 0.8  # a base explains its part of a blob only as a filled disc (arms)
    hand_dark_diff: float = 0.10  # the looser darkening that finds hands
    hand_sat_diff: float = 0.12  # ... and saturation
    hand_light_diff: float = 0.25  # lighter than the print by this: a light sleeve
    hand_light_over_ink: float = 0.18  # ... over black print, lighter than its measured black
    glare_paper: float = 235.0  # paper brighter than this may be glare (no sleeve test)
    occlusion_margin_mm: float = 12.0  # cells this close to a hand are occluded too
    sheet_border_mm: float = 8.0  # strip along the sheet's edge not searched for hands
    # -- temporal stabiliser ---------------------------------------------------------------
    stable_frames: int = 4  # consistent frames before a change is committed
    static_occlusion_frames: int = 90  # a still "hand" (3 s) is an object: it holds its cells only

    @classmethod
    def load(cls, path: str | Path | None) -> VisionConfig:
        if path is None:
            return cls()
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
            raise ValueError(f"cannot read vision config {path}: {exc}") from None
        except ValueError:  # a number of thousands of digits, past Python's limit
            raise ValueError(f"cannot read vision config {path}: a number too long to be "
                             "a setting") from None
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"vision config {path}: unknown setting(s) {sorted(unknown)}")
        return replace(cls(), **data)

    def to_dict(self) -> dict:
        return asdict(self)
