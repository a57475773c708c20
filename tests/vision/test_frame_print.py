"""Reading a sticker against how the frame's sure readings print (``frame_print.py``)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision import tags
from vision.config import VisionConfig
from vision.detect.frame_print import FramePrint, PrintReader, turn_of
from vision.detect.identify import ANGLES, CENTRE_ANGLES, CENTRE_RADII, Identifier, Identity
from vision.detect.ring_fit import lab_of
from vision.layout import game_layout

LAYOUT = game_layout()
PLAYERS = list(LAYOUT.players)
CFG = VisionConfig()
READER = PrintReader(ANGLES, CFG.print_cap, tuple(CFG.print_shifts))
# Paint far from every printed symbol: skin, bone, steel, a bright red
FAR_PAINTS = [(90, 150, 215), (200, 215, 225), (150, 150, 150), (40, 40, 200)]


def _ring(pattern: int, turn: int, owner: str, noise: float = 0.0, shade: float = 1.0,
          seed: int = 0) -> np.ndarray:
    """Lab angle means of a printed sticker, turned by ``turn`` samples, darkened to
    ``shade`` of its light, with noise."""
    printed = {tags.COLOUR: LAYOUT.player_bgr(owner), **tags.PRINTED}
    word = np.repeat(tags.CODEWORDS[pattern], ANGLES // tags.SECTORS)
    bgr = np.array([printed[s] for s in np.roll(word, turn)], np.float32) * shade
    bgr = bgr + np.random.default_rng(seed).normal(0, noise, bgr.shape)
    return lab_of(np.clip(bgr, 0, 255))


def _painted(x: np.ndarray, start: int, length: int, bgr: tuple[int, int, int]) -> np.ndarray:
    out = x.copy()
    out[(start + np.arange(length)) % ANGLES] = lab_of(np.array(bgr, np.float32))
    return out


def _learnt(rings: int = 6, noise: float = 10.0) -> FramePrint:
    """A print learnt from ``rings`` readings, the players in turn (noise 10 gives spreads
    of 3-8 Lab units, as on the rendered frames at 1080p)."""
    found = FramePrint(len(PLAYERS), CFG.print_memory, CFG.print_min_rings,
                       CFG.print_spread_floor)
    for k in range(rings):
        q = k % len(PLAYERS)
        found.learn(_ring(k, 5 * k, PLAYERS[q], noise, seed=k), q, k)
    return found


def test_turn_of_finds_how_a_sticker_lies() -> None:
    for p in range(len(tags.CODEWORDS)):
        for turn in (0, 7, 33, 59):
            assert turn_of(_ring(p, turn, "p2", noise=3.0, seed=p), p) == turn


def test_the_print_needs_sure_readings_of_every_player() -> None:
    found = FramePrint(len(PLAYERS), 48, 3, CFG.print_spread_floor)
    assert found.current() is None
    for k in range(5):  # five readings, all of the first player's stickers
        found.learn(_ring(k, 0, PLAYERS[0]), 0, k)
    assert found.current() is None, "no ring tells how the second player's colour prints"
    found.learn(_ring(3, 9, PLAYERS[1]), 1, 3)
    now = found.current()
    assert now is not None
    ink = lab_of(np.array(tags.INK_BGR, np.float32))
    np.testing.assert_allclose(now.colour[tags.INK], ink, atol=0.5)
    blue = lab_of(np.array(LAYOUT.player_bgr(PLAYERS[1]), np.float32))
    np.testing.assert_allclose(now.owners[1][0], blue, atol=0.5)


def test_the_print_remembers_only_the_last_readings() -> None:
    found = FramePrint(len(PLAYERS), 4, 3, CFG.print_spread_floor)
    for k in range(4):
        found.learn(_ring(k, 0, PLAYERS[k % 2]), k % 2, k)
    for k in range(4):  # four more of the first player's: the second's are forgotten
        found.learn(_ring(k, 0, PLAYERS[0]), 0, k)
    assert found.current() is None


def test_reads_every_sticker_with_a_figure_over_three_wedges() -> None:
    """Three wedges of every pattern, both owners, under a figure's paint far from every
    symbol and the rest in its shadow: the best reading is right every time, and
    clear in most (where the seven wedges left stand one wedge from another pattern's,
    the lead is one wedge's worth and may fall short: unread, not guessed)."""
    found = _learnt().current()
    assert found is not None
    clear = 0
    for paint in FAR_PAINTS:
        for p in range(len(tags.CODEWORDS)):
            for q, owner in enumerate(PLAYERS):
                x = _painted(_ring(p, 13, owner, noise=3.0, shade=0.85, seed=p), 40, 18,
                             paint)
                r = READER.read(x, None, found)
                assert (r.owner, r.pattern) == (q, p)
                clear += (r.lead >= CFG.print_lead and r.owner_lead >= CFG.print_owner_lead
                          and r.whole)
    assert clear >= 0.8 * len(FAR_PAINTS) * len(tags.CODEWORDS) * len(PLAYERS)


def test_an_arc_the_view_believes_less_counts_less() -> None:
    """Paint as dark as ink over three wedges: believed alike it passes for ink, and
    one pattern of 16 is then best as another; where the view expects the figure it
    counts for little, and every pattern is read right and clearly."""
    found = _learnt().current()
    assert found is not None
    seen = np.ones(ANGLES, np.float32)
    seen[40:58] = 0.05
    wrong_alike = 0
    for p in range(len(tags.CODEWORDS)):
        x = _painted(_ring(p, 13, "p1", noise=3.0, seed=p), 40, 18, (25, 25, 25))
        r = READER.read(x, seen, found)
        assert (r.owner, r.pattern) == (0, p) and r.lead >= CFG.print_lead and r.whole
        wrong_alike += READER.read(x, None, found).pattern != p
    assert wrong_alike >= 1  # the view's weights are what reads it


@settings(max_examples=200, deadline=None)
@given(pattern=st.integers(0, 15), turn=st.integers(0, ANGLES - 1),
       owner=st.sampled_from(PLAYERS), noise=st.floats(0.0, 8.0),
       shade=st.floats(0.7, 1.05), start=st.integers(0, ANGLES - 1),
       length=st.integers(0, 18), paint=st.sampled_from(FAR_PAINTS),
       seed=st.integers(0, 99))
def test_never_a_wrong_pattern_or_owner_at_the_leads_required(
        pattern: int, turn: int, owner: str, noise: float, shade: float, start: int,
        length: int, paint: tuple[int, int, int], seed: int) -> None:
    """Up to three wedges under paint unlike any symbol, the ring shaded and noisy:
    where the print's reading leads as the detector requires, it is the sticker's."""
    found = _learnt().current()
    assert found is not None
    x = _painted(_ring(pattern, turn, owner, noise, shade, seed), start, length, paint)
    r = READER.read(x, None, found)
    if r.lead >= CFG.print_lead and r.owner_lead >= CFG.print_owner_lead and r.whole:
        assert (PLAYERS[r.owner], r.pattern) == (owner, pattern)


@settings(max_examples=100, deadline=None)
@given(owner=st.sampled_from(PLAYERS), noise=st.floats(0.0, 8.0),
       shade=st.floats(0.7, 1.05), start=st.integers(0, ANGLES - 1),
       length=st.integers(0, 30), paint=st.sampled_from([*FAR_PAINTS, (25, 25, 25)]),
       seed=st.integers(0, 99))
def test_a_plain_ring_under_a_figure_is_no_sticker(
        owner: str, noise: float, shade: float, start: int, length: int,
        paint: tuple[int, int, int], seed: int) -> None:
    """A plain ring in a player's colour (a base with no sticker) with up to half of it
    under a figure: never read as a sticker. The patterns with the most colour wedges
    fit it best, but a plain ring fits it better still (before a plain ring was weighed,
    the bench's plain rings under figures read as stickers: 25 of 224); and paint as
    dark as ink over half of it can make a pattern with a run of ink wedges fit best,
    but that pattern's green and magenta are nowhere on the ring (``whole``)."""
    found = _learnt().current()
    assert found is not None
    bgr = np.tile(np.array(LAYOUT.player_bgr(owner), np.float32) * shade, (ANGLES, 1))
    bgr = bgr + np.random.default_rng(seed).normal(0, noise, bgr.shape)
    x = _painted(lab_of(np.clip(bgr, 0, 255)), start, length, paint)
    r = READER.read(x, None, found)
    assert r.lead < CFG.print_lead or not r.whole


def _colour_wedges_painted(pattern: int, owner: str, paint: tuple[int, int, int]) -> np.ndarray:
    """``owner``'s sticker ``pattern`` with every colour wedge under ``paint``: only ink
    and accents show, which print alike on both players' stickers."""
    x = _ring(pattern, 0, owner, noise=3.0, seed=pattern)
    per = ANGLES // tags.SECTORS
    for w, symbol in enumerate(tags.CODEWORDS[pattern]):
        if symbol == tags.COLOUR:
            x = _painted(x, w * per, per, paint)
    return x


def _taken(*stickers: int) -> np.ndarray:
    out = np.zeros((len(PLAYERS), len(tags.CODEWORDS)), bool)
    for s in stickers:
        out[divmod(s, tags.IDS_PER_PLAYER)] = True
    return out


def test_a_sticker_read_elsewhere_is_no_rival() -> None:
    """A figure over just the colour wedges leaves no owner to tell: p1's sticker 3
    and p2's sticker 19 (the same pattern) fit alike. With p2's 19 read on another base
    of the frame (each sticker is printed once), only p1's is left."""
    found = _learnt().current()
    assert found is not None
    x = _colour_wedges_painted(3, "p1", FAR_PAINTS[0])
    alone = READER.read(x, None, found)
    assert alone.pattern == 3 and alone.owner_lead < CFG.print_owner_lead
    r = READER.read_many(x[None], None, found, _taken(19))[0]
    assert (r.owner, r.pattern, r.elsewhere) == (0, 3, False)
    assert r.owner_lead >= CFG.print_owner_lead and r.lead == pytest.approx(alone.lead)


def test_a_ring_whose_best_fit_is_read_elsewhere_is_in_doubt() -> None:
    """Its best sticker stands on another base: the ring is not moved to the next
    sticker, it is marked ``elsewhere`` and the print pass leaves it unread."""
    found = _learnt().current()
    assert found is not None
    x = _painted(_ring(9, 11, "p2", noise=3.0, seed=5), 30, 12, FAR_PAINTS[1])
    r = READER.read_many(x[None], None, found, _taken(25))[0]
    assert (r.owner, r.pattern, r.elsewhere) == (1, 9, True)
    ident = Identifier(LAYOUT, CFG)
    sure = [_ring(k, 5 * k, PLAYERS[k % 2], 10.0, seed=k) for k in range(6)]
    out = [Identity(PLAYERS[k % 2], 1.0, tags.player_ids(k % 2).start + k, "read", 1.0)
           for k in range(6)] + [Identity(None, 0.0, None, "unreadable", 0.0)]
    rings = np.stack([*sure, x])
    ident.print_pass.run(out, rings, None, np.full(7, 14.0), None)
    assert (out[6].owner, out[6].sticker) == ("p2", 25)  # alone: read
    out[6] = Identity(None, 0.0, None, "unreadable", 0.0)
    Identifier(LAYOUT, CFG).print_pass.run(out, rings, None, np.full(7, 14.0), None,
                                          elsewhere=[25])
    assert out[6].tag == "unreadable"


@settings(max_examples=200, deadline=None)
@given(pattern=st.integers(0, 15), turn=st.integers(0, ANGLES - 1),
       owner=st.sampled_from(PLAYERS), noise=st.floats(0.0, 8.0),
       shade=st.floats(0.7, 1.05), start=st.integers(0, ANGLES - 1),
       length=st.integers(0, 18), paint=st.sampled_from(FAR_PAINTS),
       taken=st.sets(st.integers(0, tags.MAX_IDS - 1), max_size=24), seed=st.integers(0, 99))
def test_stickers_read_elsewhere_never_make_a_wrong_reading(
        pattern: int, turn: int, owner: str, noise: float, shade: float, start: int,
        length: int, paint: tuple[int, int, int], taken: set[int], seed: int) -> None:
    """As above, with any other stickers read elsewhere in the frame (never the ring's
    own: it is printed once): a reading that leads as required is still the sticker's."""
    found = _learnt().current()
    assert found is not None
    q = PLAYERS.index(owner)
    taken.discard(tags.player_ids(q).start + pattern)
    x = _painted(_ring(pattern, turn, owner, noise, shade, seed), start, length, paint)
    r = READER.read_many(x[None], None, found, _taken(*taken))[0]
    if (not r.elsewhere and r.lead >= CFG.print_lead and r.owner_lead >= CFG.print_owner_lead
            and r.whole):
        assert (r.owner, r.pattern) == (q, pattern)


def test_many_rings_read_at_once_read_as_one_at_a_time() -> None:
    found = _learnt().current()
    assert found is not None
    x = np.stack([_painted(_ring(p, 3 * p, PLAYERS[p % 2], noise=4.0, seed=p), 7 * p, 12,
                           FAR_PAINTS[p % 4]) for p in range(16)])
    seen = np.ones(x.shape[:2], np.float32)
    seen[::2, 10:25] = 0.1
    for k, r in enumerate(READER.read_many(x, seen, found)):
        one = READER.read(x[k], seen[k], found)
        assert (r.owner, r.pattern, r.whole) == (one.owner, one.pattern, one.whole)
        assert r.lead == pytest.approx(one.lead, abs=1e-5)
        assert r.owner_lead == pytest.approx(one.owner_lead, abs=1e-5)


def _print_pass(ring: np.ndarray, px: float, worn: bool,
                cfg: VisionConfig = CFG) -> Identity:
    """``ring`` (no owner from the colour votes) read by an Identifier's print pass
    after six sure readings, on a frame whose stickers measure ``px`` in radius, the
    ring's middle all in p1's colour when ``worn`` (a figure painted in it)."""
    ident = Identifier(LAYOUT, cfg)
    sure = [_ring(k, 5 * k, PLAYERS[k % 2], 10.0, seed=k) for k in range(6)]
    out = [Identity(PLAYERS[k % 2], 1.0, tags.player_ids(k % 2).start + k, "read", 1.0)
           for k in range(6)] + [Identity(None, 0.0, None, "unreadable", 0.0)]
    centre = np.zeros((7, len(CENTRE_RADII) * CENTRE_ANGLES), np.int8)
    if worn:
        centre[6] = PLAYERS.index("p1") + 1
    ident.print_pass.run(out, np.stack([*sure, ring]), None, np.full(7, px), centre)
    return out[6]


def test_a_figure_in_its_owners_colour_is_believed_only_on_large_stickers() -> None:
    """A sticker of p1's whose figure wears p1's orange: at 1080p (stickers 12-15 px in
    radius) the print reads it when pattern and owner both lead by ``print_worn_lead``;
    at 720p (8-10 px) a copper figure over a blue sticker led as much, so the middle's
    colour forbids the owner there, however clear the ring."""
    ring = _ring(9, 17, "p1", noise=4.0, seed=21)
    big = _print_pass(ring, 14.0, worn=True)
    assert (big.owner, big.sticker, big.tag) == ("p1", 9, "read") and big.by_print
    assert _print_pass(ring, 9.0, worn=True).tag == "unreadable"
    assert _print_pass(ring, 9.0, worn=False).sticker == 9  # the same ring, bare
    strict = VisionConfig(print_worn_lead=50.0)
    assert _print_pass(ring, 14.0, worn=True, cfg=strict).tag == "unreadable"


def test_a_reading_the_print_contradicts_is_unread() -> None:
    """The decoders' reading stands against the frame's print: p1's sticker 4 read as
    sticker 2 (a green figure over a glare-washed sticker gave both decoders pattern 2
    on a held-out render) loses its id, keeps its owner, and the print pass then reads
    what the print sees; the same ring read right keeps its reading."""
    sure = [_ring(k, 5 * k, PLAYERS[k % 2], 10.0, seed=k) for k in range(6)]
    ring = _painted(_ring(4, 23, "p1", noise=3.0, seed=40), 0, 6, FAR_PAINTS[0])
    rings = np.stack([*sure, ring])

    def read_as(sticker: int) -> Identity:
        out = [Identity(PLAYERS[k % 2], 1.0, tags.player_ids(k % 2).start + k, "read", 1.0)
               for k in range(6)] + [Identity("p1", 1.0, sticker, "read", 0.8)]
        Identifier(LAYOUT, CFG).print_pass.run(out, rings, None, np.full(7, 14.0), None)
        return out[6]

    right = read_as(4)
    assert (right.owner, right.sticker, right.by_print) == ("p1", 4, False)
    wrong = read_as(2)
    assert wrong.owner == "p1" and wrong.sticker in (None, 4)
    assert wrong.sticker is None or wrong.by_print
    off = VisionConfig(print_doubt_lead=100.0)
    out = [Identity(PLAYERS[k % 2], 1.0, tags.player_ids(k % 2).start + k, "read", 1.0)
           for k in range(6)] + [Identity("p1", 1.0, 2, "read", 0.8)]
    Identifier(LAYOUT, off).print_pass.run(out, rings, None, np.full(7, 14.0), None)
    assert out[6].sticker == 2  # without the check the wrong reading stood
