"""The identify stage's decisions on sample classes drawn by hand: what a figure does to
the owner and the id, without the camera in between."""

import cv2
import numpy as np
import pytest

from vision import tags
from vision.config import VisionConfig
from vision.detect.identify import Identifier
from vision.detect.ring_bands import (
    ANGLES,
    OWNER_BAND,
    RADII,
    colour_in_view,
    edges,
    radii_within,
)
from vision.detect.sampling import ring_samples
from vision.detect.view import on_top, view_weights
from vision.detect.votes import Identity

OTHER = -1


def ring(identifier, tag_id, figure_class=None, figure_from=0, figure_len=0,
         figure_reach=0.0):
    """One ring's sample classes (radii x angles): the sticker ``tag_id`` out to radius
    1.0, the base's rim beyond; a figure of ``figure_class`` over ``figure_len`` samples
    from ``figure_from``, covering the ring from the centre out to ``figure_reach``."""
    owner = tag_id // tags.IDS_PER_PLAYER
    per = ANGLES // tags.SECTORS
    symbol_at = np.repeat(tags.symbols_of(tag_id), per)
    classes = np.array([owner + 1 if s == tags.COLOUR else identifier.symbol_class[s]
                        for s in symbol_at], np.int8)
    out = np.full((len(RADII), ANGLES), OTHER, np.int8)
    radii = np.array(RADII)
    out[radii <= 1.0] = classes
    if figure_class is not None:
        cols = (figure_from + np.arange(figure_len)) % ANGLES
        rows = np.flatnonzero(radii <= figure_reach)
        out[np.ix_(rows, cols)] = figure_class
    return out


@pytest.fixture(scope="module")
def identifier(layout):
    return Identifier(layout, VisionConfig())


def decide(identifier, rings):
    dense = np.array(rings, np.int8)
    return identifier.votes.decide_many(dense, np.zeros(len(dense), bool),
                                        tuple(identifier.cfg.hidden_wedges))


@pytest.mark.parametrize("owner", [0, 1])
def test_a_figure_in_the_other_players_colour_does_not_take_the_base(identifier, owner):
    """A figure painted in the other player's colour, over four wedges and out to the
    ring's outer band, leaves the colour split between the players. Each player's
    reading is tried: the sticker's own colour wedges fit only the true owner's, so the
    base is read as its owner's, and never as the other player's."""
    other = 1 - owner
    rings, truth = [], []
    for k in range(tags.IDS_PER_PLAYER):
        tag_id = tags.player_ids(owner).start + k
        for start in range(0, ANGLES, 3):
            rings.append(ring(identifier, tag_id, other + 1, start, 24, 0.92))
            truth.append(tag_id)
    got = decide(identifier, rings)
    split = [g for g in got if g.owner is not None]
    wrong = [(g, t) for g, t in zip(got, truth, strict=True)
             if g.tag == "read" and (g.sticker != t or g.owner != identifier.players[owner])]
    assert not wrong
    read = sum(g.tag == "read" for g in got)
    assert read >= 0.8 * len(got), (read, len(got), len(split))


def test_a_ring_split_evenly_between_the_players_is_not_guessed(identifier):
    """Half of every colour wedge in one player's colour, half in the other's: neither
    reading fits the colour wedges better, so the base stays unread (no owner)."""
    got = []
    for k in range(tags.IDS_PER_PLAYER):
        dense = ring(identifier, k)
        colour = dense == 1
        dense[:, ::2][colour[:, ::2]] = 2
        got += decide(identifier, [dense])
    assert all(g.sticker is None for g in got)


@pytest.mark.parametrize("owner", [0, 1])
def test_a_strong_figure_over_a_washed_out_sticker_is_not_its_edge(identifier, owner):
    """A figure in the other player's strong colour covers the middle out to 0.65 of
    the radius, and the sticker's own colour is too washed out to classify (a pale
    print under a warm lamp). The figure's outline is not the sticker's edge, so the
    owner's band stays on the sticker, where the other player's colour does not show:
    the base is never given to the figure's colour."""
    other = 1 - owner
    rings = []
    for k in range(tags.IDS_PER_PLAYER):
        r = ring(identifier, tags.player_ids(owner).start + k, other + 1, 0, ANGLES, 0.65)
        r[r == owner + 1] = OTHER
        rings.append(r)
    found = edges(np.array(rings, np.int8))
    assert (found >= 0.8).all(), found.ravel()
    got = decide(identifier, rings)
    assert not [g for g in got if g.owner == identifier.players[other]]


CAMERA = np.array([350.0, 1300.0, 1200.0])  # its foot off the sheet's bottom edge, 1.2 m up


def test_a_sticker_is_read_on_the_base_top():
    """A base's top is 3.5 mm over the board: seen from the camera, it lies over a board
    point further from the camera's foot by 3.5 / (1200 - 3.5) of the distance. The
    outline found is centred between the foot and the top, so the sticker is taken to
    be three quarters of that further out."""
    discs = np.array([[350.0, 300.0, 12.0, 200.0], [350.0, 1300.0, 12.0, 200.0]])
    top = on_top(discs, CAMERA, 3.5)
    assert top[0, 1] == pytest.approx(300.0 - 0.75 * 1000.0 * 3.5 / 1196.5)
    assert top[0, 2] == discs[0, 2]
    assert top[0, 0] == pytest.approx(350.0)
    assert top[1, :2] == pytest.approx(discs[1, :2])  # right under the camera: no move
    assert top[0, 3] == discs[0, 3]  # the paper's brightness is the paper's
    assert (on_top(discs, None, 3.5) == discs).all()
    assert (on_top(discs, CAMERA, 0.0) == discs).all()


def test_the_arc_a_figure_hides_faces_away_from_the_camera():
    """A base far from the camera's foot: its ring is believed least on the side away
    from the foot and fully toward it; a base under the camera, alike all round."""
    discs = np.array([[350.0, 300.0, 12.0, 200.0], [350.0, 1300.0, 12.0, 200.0]])
    w = view_weights(discs, CAMERA, 30.0, 34.0)
    angles = np.arange(ANGLES) * 360 / ANGLES
    # Away from the foot is -y (up the sheet): 270 degrees in the ring's angles.
    assert angles[w[0].argmin()] == pytest.approx(270, abs=6)
    assert w[0].min() < 0.2 and w[0].max() > 0.99
    assert w[0][np.abs(angles - 90) < 45].min() > 0.95
    assert w[1].min() > 0.99
    assert (view_weights(discs, None, 30.0, 34.0) == 1).all()


def test_an_owner_seen_only_where_a_figure_leans_is_no_evidence(identifier):
    """A ring whose only player colour shows on the side away from the camera, where a
    leaning figure stands (its paint), and nowhere the view trusts: no owner by colour
    alone. The same colour where the view trusts it is evidence."""
    discs = np.array([[350.0, 300.0, 12.0, 200.0]])
    seen = view_weights(discs, CAMERA, 30.0, 34.0)[0]
    away = int(np.argmin(seen))  # the angle away from the camera's foot
    band = np.ones(len(RADII), bool)
    dense = np.full((len(RADII), ANGLES), identifier.symbol_class[tags.INK], np.int8)
    arc = (away + np.arange(-12, 13)) % ANGLES  # paint over 150 degrees round it
    dense[:, arc] = 1
    assert not colour_in_view(dense, band, 1, seen, identifier.cfg.owner_in_view)
    assert colour_in_view(dense, band, 1, None, identifier.cfg.owner_in_view)
    facing = (away + ANGLES // 2 + np.arange(-3, 3)) % ANGLES  # toward the camera
    dense[:, facing] = 1
    assert colour_in_view(dense, band, 1, seen, identifier.cfg.owner_in_view)


def test_colour_where_a_figure_leans_counts_less_for_the_owner(identifier):
    """The thresholds' owner vote weighs a player's colour by how much the view believes
    each angle. The other player's colour over the arc a figure leans into (paint over
    150 degrees) takes the base when every angle counts alike; weighed by the view it
    does not."""
    owner, other = 1, 0
    discs = np.array([[350.0, 300.0, 12.0, 200.0]])
    seen = view_weights(discs, CAMERA, 30.0, 34.0)
    away = int(np.argmin(seen[0]))
    glare = np.zeros(1, bool)
    for k in range(tags.IDS_PER_PLAYER):
        dense = ring(identifier, tags.player_ids(owner).start + k)
        dense[:, (away + np.arange(-12, 13)) % ANGLES] = other + 1
        plain = identifier.votes.decide_many(dense[None], glare, (2, 3))[0]
        viewed = identifier.votes.decide_many(dense[None], glare, (2, 3), seen)[0]
        assert viewed.owner != identifier.players[other], k
        if k == 3:
            assert plain.owner == identifier.players[other]


def test_a_sticker_too_faded_for_the_colour_votes_is_read_by_its_fit(identifier, layout):
    """Every sticker of both players printed so faded that no sample passes for a
    player's colour (an empty cartridge): the colour votes name no owner, and the fit
    by the sticker's own colours reads owner and id, every one right."""
    disc = [(100.0, 100.0, 60.0, 235.0)]
    for tag_id in range(tags.MAX_IDS):
        owner = identifier.players[tag_id // tags.IDS_PER_PLAYER]
        colour = np.array(layout.player_bgr(owner), np.float32)
        faded = tuple(int(v) for v in colour.mean() + (colour - colour.mean()) * 0.15)
        img = np.full((200, 200, 3), 235, np.uint8)
        tags.draw_tag(img, (100, 100), 60, tag_id, faded, 17.0 + 7 * tag_id)
        img = cv2.GaussianBlur(img, (0, 0), 1.0)
        samples = ring_samples(img, np.eye(3), np.array(disc), identifier.unit)
        dense = identifier.classify(samples, 235.0).reshape(1, len(RADII), ANGLES)
        assert decide(identifier, dense)[0].owner is None, tag_id
        got = identifier.identify_many(img, np.eye(3), disc)[0]
        assert (got.owner, got.sticker, got.tag) == (owner, tag_id, "read"), tag_id


def test_a_discs_radius_in_pixels_follows_the_homography():
    from vision.detect.sampling import pixel_radii

    scale = np.diag([2.5, 2.5, 1.0])  # 2.5 px a mm
    discs = np.array([[100.0, 50.0, 12.0, 200.0], [10.0, 10.0, 14.0, 200.0]])
    assert pixel_radii(scale, discs) == pytest.approx([30.0, 35.0])
    assert pixel_radii(scale, discs[:0]).shape == (0,)


def test_large_stickers_are_fitted_over_a_band_farther_out(identifier):
    """The ring fit averages a sticker's wedges over ``fit_band`` of its edge; a sticker
    of ``fit_band_fine_px`` (the larger) pixels or more in radius (4K) over
    ``fit_band_fine``, clear of the figure's plinth; in between, in between."""
    cfg = identifier.cfg
    dense = np.array([ring(identifier, 3)] * 4)
    found = edges(dense)
    edge = found[0, 0]
    small, large = cfg.fit_band_fine_px
    bands = identifier.fit_band(found, np.array([9.0, small, (small + large) / 2, 40.0]))
    radii = np.array(RADII)

    def band(lo, hi):
        return (radii >= lo * edge - 1e-4) & (radii <= hi * edge + 1e-4)

    assert (bands[0] == band(*cfg.fit_band)).all()
    assert (bands[1] == bands[0]).all()
    assert (bands[3] == band(*cfg.fit_band_fine)).all()
    mid = [(a + b) / 2 for a, b in zip(cfg.fit_band, cfg.fit_band_fine, strict=True)]
    assert (bands[2] == band(*mid)).all()
    assert (identifier.fit_band(found) == bands[0]).all()  # no sizes: the usual band
    assert radii[bands[3]].min() > radii[bands[0]].min()


@pytest.mark.parametrize("owner", [0, 1])
def test_an_unread_ring_is_not_given_to_its_figures_colour(identifier, owner):
    """A figure painted in the other player's colour covers the sticker's middle and
    most of its ring; only some of the true owner's colour peeks out at the edge (a
    blue figure over an orange sticker on held-out renders: given to blue twice, at
    MJPEG 90 and 95). The colour round the ring may be the figure's: an unread ring
    whose middle, printed white, wears a player's colour, with another player's colour
    in its outer band, is nobody's. A figure in its owner's colour over its owner's
    sticker, with no other colour showing, keeps the owner."""
    other = 1 - owner
    band = radii_within(*OWNER_BAND, np.ones((1, 1)))[0]  # a sticker's edge where found
    centre = np.full(36, other + 1, np.int8)  # the figure's paint over the middle
    for k in range(tags.IDS_PER_PLAYER):
        tag_id = tags.player_ids(owner).start + k
        # the figure over all but 12 samples (two wedges) of the ring
        covered = ring(identifier, tag_id, other + 1, 12, ANGLES - 12, 1.0)
        assert identifier._figure_wears(centre, covered, band, other), k
        # its owner's figure over its owner's sticker: the ring shows no other colour
        own = ring(identifier, tag_id, owner + 1, 12, ANGLES - 12, 1.0)
        assert not identifier._figure_wears(np.full(36, owner + 1, np.int8), own, band,
                                            owner), k
    # A middle that shows no player's colour (a figure in a third colour, or none)
    # says nothing about the colour round the ring.
    plain_middle = np.full(36, OTHER, np.int8)
    assert not identifier._figure_wears(plain_middle, covered, band, other)


PRINTED_ORANGE = (65.0, 26.0, 37.0)  # Lab, as the renders' webcams show orange's print


def _painted_frame(identifier, pattern, paint_lab, with_reference=True):
    """Sample classes and colours of a frame (``_drop_painted``'s inputs): three of
    orange's stickers read right, printed in ``PRINTED_ORANGE``, their middles plain; then
    blue's sticker of ``pattern`` under a figure in orange whose paint covers half of
    each colour wedge's samples (the other half blurred to neither colour), its middle
    orange, read by both decoders as orange's sticker of the same pattern."""
    p1, p2 = tags.player_ids(0), tags.player_ids(1)
    rings, out, colours, centres = [], [], [], []
    if with_reference:
        for k in (1, 2, 3):
            rings.append(ring(identifier, p1.start + k))
            out.append(Identity("p1", 1.0, p1.start + k, "read", 1.0))
            colours.append(PRINTED_ORANGE)
            centres.append(np.full(36, OTHER, np.int8))
    blue = ring(identifier, p2.start + pattern)
    colour = np.flatnonzero((blue == 2).any(axis=0))
    blue[:, colour[::2]] = np.where(blue[:, colour[::2]] == 2, 1, blue[:, colour[::2]])
    blue[:, colour[1::2]] = np.where(blue[:, colour[1::2]] == 2, OTHER, blue[:, colour[1::2]])
    rings.append(blue)
    out.append(Identity("p1", 1.0, p1.start + pattern, "read", 1.0))
    colours.append(paint_lab)
    centres.append(np.full(36, 1, np.int8))
    dense = np.array(rings, np.int8)
    lab = np.zeros((*dense.shape, 3), np.float32)
    lab[:] = np.array(colours, np.float32)[:, None, None, :]
    edge = np.ones((len(dense), 1), np.float32)
    band = radii_within(*OWNER_BAND, edge)
    return out, lab, dense, np.array(centres), edge, band


@pytest.mark.parametrize("pattern", range(tags.IDS_PER_PLAYER))
def test_a_figures_paint_over_the_colour_wedges_is_not_an_owner(identifier, pattern):
    """A copper figure over a blue sticker covered its colour wedges, and both decoders
    read orange's sticker of the same pattern (held-out renders, streamed at 1080p:
    committed with the wrong owner). The paint fills the colour wedges in part and is
    duller than the frame's orange print, dark or light: the reading is dropped, owner
    and all. As vivid as the print, it stands; with no other reading of that owner to
    compare with, the fill alone drops it."""
    for paint in ((46.0, 16.0, 20.0), (63.0, 17.0, 24.0)):
        out, *rest = _painted_frame(identifier, pattern, paint)
        identifier._drop_painted(out, *rest)
        assert [o.tag for o in out[:3]] == ["read"] * 3
        assert (out[3].owner, out[3].sticker, out[3].tag) == (None, None, "unreadable"), paint

    for print_like in ((60.0, 24.0, 35.0), (48.0, 22.0, 32.0)):
        out, *rest = _painted_frame(identifier, pattern, print_like)
        identifier._drop_painted(out, *rest)
        assert out[3].owner == "p1" and out[3].tag == "read", print_like

    out, *rest = _painted_frame(identifier, pattern, PRINTED_ORANGE, with_reference=False)
    identifier._drop_painted(out, *rest)
    assert out[0].owner is None


@pytest.mark.parametrize("pattern", range(tags.IDS_PER_PLAYER))
def test_a_figure_in_its_owners_colour_over_its_own_sticker_keeps_it(identifier, pattern):
    """A figure wearing its owner's colour over its owner's sticker: the printed colour
    wedges fill the owner's band, dark or not (a shadow), and the reading stands."""
    tag_id = tags.player_ids(0).start + pattern
    dense = ring(identifier, tag_id)[None]
    lab = np.zeros((*dense.shape, 3), np.float32)
    lab[:] = (40.0, 10.0, 15.0)  # in the figure's shadow: darker and duller, still print
    out = [Identity("p1", 1.0, tag_id, "read", 1.0)]
    edge = np.ones((1, 1), np.float32)
    identifier._drop_painted(out, lab, dense, np.full((1, 36), 1, np.int8), edge,
                             radii_within(*OWNER_BAND, edge))
    assert out[0].tag == "read" and out[0].sticker == tag_id
