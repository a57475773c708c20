"""The identify stage's decisions on sample classes drawn by hand: what a figure does to
the owner and the id, without the camera in between."""

import numpy as np
import pytest

from vision import tags
from vision.config import VisionConfig
from vision.detect.identify import ANGLES, RADII, Identifier, _edges

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
    return identifier._decide_many(dense, np.zeros(len(dense), bool),
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
    edges = _edges(np.array(rings, np.int8))
    assert (edges >= 0.8).all(), edges.ravel()
    got = decide(identifier, rings)
    assert not [g for g in got if g.owner == identifier.players[other]]
