"""Every threshold of the detector in one place (chesscog-style: stages read config,
never literals). Override any of them with a JSON file: ``{"dark_diff": 0.3, ...}``."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path


@dataclass(frozen=True)
class VisionConfig:
    # locate: fiducials -> homography
    min_markers: int = 3  # markers needed to trust a homography
    min_marker_spread: float = 0.08  # their hull's area as a share of the sheet
    ransac_px: float = 4.0
    max_reprojection_px: float = 6.0  # worse than this: the homography is rejected ...
    max_reprojection_share: float = 0.004  # ... or than this share of the image diagonal
    # (whichever is larger: 6 px at 720p, 20 px at 12 MP: the same angle)
    refine_corners_above_px: float = 1.0  # a fit worse than this re-measures the corners
    # at the markers' edges (blurred or large frames; see detect/marker_edges.py)
    # markers off the board's plane (the layout's marker heights): the camera's field of
    # view across the image, when a view straight down cannot tell it (detect/pose.py)
    camera_hfov_deg: float = 70.0
    half_search_min_px: int = 600  # frames at least this tall search markers at half size first
    # How ArUco reads a candidate's cells: it straightens the square to this many pixels
    # a cell, and reads each cell's middle, leaving out this share at each side. OpenCV's
    # 4 and 0.13 read 5 of 20 markers 35 px wide on a rendered wooden board at 720p (the
    # blur of a cell's edges reaches into the part read); 10 and 0.3 read 18-19, and 20
    # of 20 on frames where the defaults read 12, with no wrong marker.
    marker_pixels_per_cell: int = 10
    marker_cell_margin: float = 0.3
    full_detect_every: int = 30  # frames between full-frame marker searches when tracking
    bump_px: float = 3.0  # marker displacement that means the map (or camera) moved
    still_marker_diff: float = 10.0  # mean grey change under which a marker has not moved
    # streams: a frame equal to the previous one (16x16-pixel block means within this many
    # grey levels) reuses the previous result
    reuse_still_frames: bool = True
    still_frame_diff: int = 4
    # ... and its 4x4-pixel cells' means within this many (synthetic frames with sensor
    # noise up to 5 and MJPEG down to 60 differ by 8 at most; a sticker swapped in place
    # for one of the same colours by 21 or more)
    still_cell_diff: int = 14
    # ... and a frame changed only in part redoes only that part of the work area,
    partial_detect: bool = True
    partial_max_share: float = 0.85  # unless the part (with its context) is more than this
    full_refresh_frames: int = 30  # and redoes everything after this many partial frames
    # rectify
    px_per_mm: float = 1.0  # scale of the top-down working image
    work_margin_mm: float = 6.0  # working image: the cells' and zones' bounding box + this
    # foreground: what differs from the empty printed map
    dark_diff: float = 0.28  # normalised darkening vs the reference map
    sat_diff: float = 0.30  # added saturation vs the reference map
    glare_dark_diff: float = 0.12  # ... the same where the paper is clipped (clipped_paper)
    # Against a learned board (Detector.learn_board): lighter than the board by this
    # share is a piece too, and so is a colour this far from the board's (Lab a, b)
    board_light_diff: float = 0.25
    board_colour_diff: float = 18.0
    board_hand_colour_diff: float = 12.0  # ... and this far, for the hands' looser mask
    glare_sat_diff: float = 0.15
    # Round each piece of the foreground smaller than a base (arcs of a pale sticker's
    # ring), this far, the glare spot's pale test counts too (``foreground._mend_rings``).
    # Most of a base's ring lies within 10 mm of any piece of it: at 4 mm, a pale blue
    # sticker under a pink cast (held-out renders, seed 3) kept only two arcs of ink
    # and magenta, too far apart to join, and was lost (that set's recall 0.989 -> 0.994;
    # no base found where none stands, on renders or synthetic frames)
    ring_bridge_mm: float = 10.0
    # bases
    min_radius_fraction: float = 0.55  # distance-transform peak / smallest base radius
    max_radius_fraction: float = 1.35  # larger peaks are not bases (hands, arms)
    # A base the distance transform misses (a light figure opened its mask into a "C"
    # against a touching base) is found by its outline instead when the outline traces
    # this much of a base's circle (``bases.BaseFinder._traced``), within this distance
    traced_arc_deg: float = 200.0
    traced_tolerance_mm: float = 1.5
    # identify
    # The stickers lie on the bases' tops, this high over the board: rings are read
    # there, not on the board's plane (view.on_top)
    base_height_mm: float = 3.5
    sticker_fraction: float = 0.9  # sticker radius / foreground disc radius (dark base rim)
    tag_margin: float = 0.12  # best id must beat every other by this share of the evidence
    tag_agreement: float = 0.85  # share of the evidence the best id must explain
    # An unsure ring is decoded again with a run of this many wedges hidden (by the
    # figure), then this many, ...
    hidden_wedges: tuple[int, ...] = (2, 3)
    hidden_margin: float = 0.12  # ... and read if the best id leads by this much then,
    hidden_inner: float = 0.6  # ... counting samples this far out (share of the radius)
    # Every ring with an owner is also read by its own colours (detect/ring_fit.py):
    ring_fit: bool = True
    # ... over this band of radii (shares of the sticker's edge): the outer part, since
    # figures hide the ring from the inside out (at 720p two bands side by side,
    # 0.55-0.72 and 0.72-0.92, read fewer: the inner one is noise) ...
    fit_band: tuple[float, float] = (0.65, 0.92)
    # ... and farther out on a sticker the camera sees larger, clear of a figure's
    # plinth and shadow (its edge blurs over a smaller share of it): ``fit_band`` up to
    # the first radius in pixels (720p: 9-10 px), ``fit_band_fine`` from the second on
    # (4K: 29 px), in between in between (1080p: 14 px, about 0.72-0.94)
    fit_band_fine: tuple[float, float] = (0.8, 0.95)
    fit_band_fine_px: tuple[float, float] = (10.0, 18.0)
    # The second best pattern's error over the best's, minus one. Session 27, on
    # held-out figures (1080p seeds 1-4, 720p seeds 1 and 3, MJPEG 75-95; 3,168 rings
    # with the fit's pattern judged on its owner): among readings whose colours look
    # right and explain 0.7 of the band, the wrong patterns led at most 0.30 (one, at
    # 720p) and none at 0.35 or more; 0.5 -> 0.4 read 0.5 % more with figures (0.8 %
    # at 720p), no wrong id or owner added, streams (seed 3) included
    fit_lead: float = 0.4
    fit_explained: float = 0.7  # share of the band's variation the pattern explains
    # ... or, on a clean ring (no figure adds variation the pattern cannot explain), a
    # smaller lead will do: on 1,197 rendered rings tuned on, no wrong pattern at
    # either; with figures, wrong ones began below 0.8 explained at a lead of 0.2
    fit_clean_lead: float = 0.2
    fit_clean_explained: float = 0.85
    # ... or a lead of this much where the thresholds' votes favour the same pattern by
    # ``fit_agreed_votes_margin`` (unsure alone, two decoders agreeing): on the tuning
    # renders (2,288 rings, 720p and 1080p) the two agreed wrongly at fit leads up to
    # 0.11, never above; the right agreements led up to 0.65
    fit_agreed_lead: float = 0.2
    fit_agreed_votes_margin: float = 0.02
    # A reading of the thresholds the fit finds best too, leading by this much and
    # explaining this much of the band, stands even where the fit's colours do not look
    # like the four symbols (a figure's shadow over a pattern's only green wedge makes
    # it darker than the ink) ...
    fit_unlike_lead: float = 0.7
    fit_unlike_explained: float = 0.84
    # ... and at a lead of ``fit_agreed_lead`` where the pattern's colour symbol still
    # looks like the owner's colour (a figure's paint over a wedge or two spoils the
    # other symbols' means) and the fit explains this much of the band. Where the fit's
    # best pattern has colours unlike the symbols, the thresholds' reading stands if it
    # is the best pattern whose colours look right, its error at most
    # ``fit_looking_behind`` behind (as a lead). Chosen on rendered figures at 1080p
    # (seeds 2-4, session 25): in single frames the two decoders' agreements were never
    # on a wrong pattern (1,020 rings), but streamed, one frame in 20 of a seed-3 base
    # agreed wrongly at a lead of 0.11; the one wrong thresholds' reading that was the
    # best right-looking pattern lay 3.2 behind (64 right ones at most 0.8). Scored
    # after (seed 1 at 1080p and 720p, seeds 2-3 at 720p, MJPEG 75-95): identity
    # 0.741 -> 0.807, 0.544 -> 0.627, 0.468 -> 0.508, 0.515 -> 0.572, no wrong id or
    # owner added.
    fit_confirm_explained: float = 0.7
    fit_looking_behind: float = 1.0
    # The fit believes less the arc of a ring a figure is expected to hide: the side
    # away from the camera (view.view_weights), for a figure this tall (0: off) ...
    figure_view_mm: float = 30.0
    figure_view_spread_deg: float = 34.0  # ... over this spread of angles
    # A ring whose colour votes name no owner is read by the fit alone (no second decoder
    # agreeing) only at this lead, clean or not: on 120 streamed frames of the tuning
    # renders the fit alone read 17 right and 3 wrong (a bronze figure over most of a
    # blue sticker: leads 0.46-0.62); the right ones led 0.24-2.13
    fit_alone_lead: float = 0.7
    # ... and not where fewer than this many of the ring's samples show the owner's
    # colour by the thresholds' hue while as many show another player's (the fit judges
    # the owner's colour against the other player's only: a violet figure over most of
    # an orange sticker fitted blue's at a lead over 1, no sample near blue and 10-12
    # near orange; held-out 1080p seed 5, 2 wrong readings. Of the right readings the
    # fit alone made on seeds 1-5 at 1080p and 1-3 at 720p, one was so: 0 and 110. A
    # sticker too faded for any sample to pass for a colour is still read)
    fit_alone_owner_samples: int = 3
    # A reading of the thresholds the fit contradicts is the fit's where the fit is
    # clear, leads by this much and explains ``fit_unlike_explained`` of the band: on a
    # washed-out sticker the thresholds see a few wedges and can name another pattern
    # (held-out renders, seeds 2 and 3 at 1080p, seed 2 at 720p, and the committed
    # frames, session 24: 48 such rings, the fit right in all at leads from 0.25; where
    # the fit was not clear the thresholds were right 119 times in 187)
    fit_overrule_lead: float = 0.8
    # Stickers under this radius in pixels (at 720p: a wedge about two chroma pixels wide
    # in 4:2:0 MJPEG) do not take a clean ring's smaller lead (``fit_clean_lead``)
    # where the colour votes favour another pattern
    fit_contested_px: float = 9.0
    fit_plain_structure: float = 0.5  # a "plain" ring whose best pattern explains this
    # much of its variation is printed, not plain: unreadable
    min_owner_share: float = 0.65
    owner_min_arc: int = 4  # wedges the owner's colour must span round a ring whose id
    # is not read (paint on a figure lies on one side)
    # ... and must show where the view expects no figure (a wedge believed this much,
    # view.view_weights): paint on a leaning figure lies on the side away from it
    owner_in_view: float = 0.99
    # ... and must not be the colour of its figure: a ring's middle is printed white, so
    # a player's colour there (this share of its samples or more) is paint, and the
    # same colour round the ring may be too (a blue figure over an orange sticker)
    owner_figure_share: float = 0.25
    # A reading whose figure wears its owner's colour is a figure's paint over another
    # player's sticker (``Identifier._drop_painted``) when the owner's colour fills
    # less than this share of the pattern's colour wedges (in the owner's band) ...
    paint_fill: float = 0.6
    # ... and its chroma is at most this share of the median of the frame's readings
    # of that owner (when there are this many, each with this many samples of the
    # colour; else the fill decides alone)
    paint_duller: float = 0.72
    paint_reference_rings: int = 3
    paint_samples: int = 8
    # A ring left unread is read against how the frame's surely read stickers print
    # (``detect/frame_print.py``): its pattern must cost this much less per angle than
    # the owner's next pattern and than a plain ring of the owner's colour (0: off) ...
    print_lead: float = 0.2
    # ... and where the colour votes gave it no owner, its owner this much less than
    # any other player's sticker; chosen on held-out renders with figures (1080p seed
    # 1, MJPEG 75-95: 528 stickers, identity 0.809 -> 0.960, no wrong id or owner; at
    # 0.1 two wrong owners)
    print_owner_lead: float = 0.2
    # ... on frames whose stickers measure this many pixels in radius or more (their
    # median: 720p 8-10 on the renders, 1080p 12-15); on smaller ones the pattern must
    # lead by ``print_small_lead`` (720p, seeds 1 and 3 and the committed frames: wrong
    # readings led by up to 0.39)
    print_frame_px: float = 11.0
    print_small_lead: float = 0.5
    # ... and its owner, where the print names it, by this much: on a committed 720p
    # frame a sticker whose colour wedges showed little colour was given the other
    # player at 0.21 once session 31's circle fit let the frame's print learn more
    # (720p seeds 1-3 and the committed frames: 132 right owners by the print, 4 of
    # them under 0.25, the least at 0.20)
    print_small_owner_lead: float = 0.25
    # ... and where the sticker's middle wears that owner's colour (a figure painted
    # in it, ``owner_figure_share``), both leads this much, on such larger stickers
    # only (1080p seeds 1-4: 23 such readings at leads of 0.3 or more, all right; 720p
    # seeds 1-3: 6 wrong at up to 0.83 where a copper or orange figure hid a blue
    # sticker's colour wedges, so none there)
    print_worn_lead: float = 0.5
    # A reading the decoders agree on is unread where the frame's print fits the ring
    # better as another of the owner's stickers by this much (``PrintPass._doubt``), on
    # frames of larger stickers (``print_frame_px``): 1080p seeds 1-7, 2,653 readings,
    # the one wrong at 0.30 and no right one over 0.05; right ones on the committed
    # 720p frames at up to 0.49
    print_doubt_lead: float = 0.2
    print_cap: float = 4.0  # the most an angle costs (squared spreads): paint, glare
    print_shifts: tuple[float, ...] = (-12.0, -6.0, 0.0, 6.0)  # a ring's lightness (L)
    print_min_rings: int = 3  # sure readings needed to know the print ...
    print_memory: int = 48  # ... of the last this many (kept across frames)
    print_spread_floor: float = 3.0  # no symbol's spread is taken under this (Lab)
    min_owner_evidence: float = 0.4  # owner confidence under which a ring with no id
    # read gets no owner (on rendered frames: 10 right owners of 1,551 lost, and a
    # wrong one on a wooden board, washed-out stickers, at 0.36)
    # Pieces told by tone (``detect/tone.py``), on the scale of the markers' black (0)
    # and white (1): darker than this is a dark piece, lighter than the next a light one
    tone_dark_below: float = 0.6
    tone_light_above: float = 0.8
    tone_share: float = 0.6  # ... when this share of a base's samples agree
    pale_owner_saturation: float = 0.3  # a ring with no id read whose owner's colour
    # shows only this pale (median saturation: a glare spot, or a beige figure counted
    # under the glare thresholds) gets no owner if any other player's colour shows too
    # A ring showing both players' colours, the lesser at least this share of them
    # (outer band), is settled by which colour fits the pattern's colour wedges:
    contest_share: float = 0.1
    split_fit: float = 0.6  # (inside - outside) / all of a player's colour samples, to fit
    black_value: float = 0.38  # normalised brightness under which a sample is ink
    color_saturation: float = 0.40  # saturation over which a sample is a player colour
    # The players' printed colours are bright; a darker sample of their hue is paint on
    # a figure (brown passes for orange): figures 0.981 -> 0.986 read at 720p.
    player_min_value: float = 0.5
    ink_saturation: float = 0.5  # ink is neutral: darker samples more saturated are not ink
    hue_tolerance_deg: float = 28.0
    clipped_paper: float = 245.0  # paper this bright (0-255): a glare spot, black prints grey
    glare_black_value: float = 0.6  # ... so there ink is grey, darker than this,
    glare_color_saturation: float = 0.2  # ... and a colour pale, more saturated than this
    # occlusion
    hand_area_bases: float = 2.5  # foreground blob larger than this many bases: a hand
    # A base candidate explains its part of a blob only if it is a filled disc: its
    # distance-transform peak is this share of its radius or more (bases measured
    # 0.91-0.94; candidates along an arm's shadow about a base wide, 0.73-0.77).
    disc_fill: float = 0.8
    hand_dark_diff: float = 0.10  # the looser difference used to find hands
    hand_sat_diff: float = 0.12
    hand_light_diff: float = 0.25  # lighter than the print by this much: a light sleeve
    hand_light_over_ink: float = 0.18  # ... over black print: lighter than its measured
    # black level (printers and cameras make black a grey: 0.1-0.35 of the paper)
    glare_paper: float = 235.0  # paper brighter than this (0-255) may be glare (no sleeve test)
    occlusion_margin_mm: float = 12.0
    sheet_border_mm: float = 8.0  # strip along the sheet's edge not searched for hands
    # temporal stabiliser
    stable_frames: int = 4  # consistent frames before a change is committed
    # A "hand" that has not moved for this many frames (3 s at 30 fps) is something lying
    # on the map (a cup, a dice tray, a misread base): it holds only its own cells.
    static_occlusion_frames: int = 90

    @classmethod
    def load(cls, path: str | Path | None) -> VisionConfig:
        if path is None:
            return cls()
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"cannot read vision config {path}: {exc}") from None
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"vision config {path}: unknown setting(s) {sorted(unknown)}")
        return replace(cls(), **data)

    def to_dict(self) -> dict:
        return asdict(self)
