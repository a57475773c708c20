import json
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from vision import tags
from vision.layout import Layout, LayoutError


def test_dreamblade_layout_has_every_cell_and_zone(layout):
    cells = {r.name for r in layout.cells}
    assert cells == {f"{c}{r}" for c in "abcde" for r in range(1, 6)}
    zones = {(r.player, r.zone) for r in layout.zones}
    assert zones == {(p, z) for p in ("p1", "p2") for z in ("reserves", "graveyard", "destroyed")}
    e1 = next(r for r in layout.cells if r.name == "e1")
    assert e1.extra["portal_of"] == "p1"
    b4 = next(r for r in layout.cells if r.name == "b4")
    assert b4.extra["scoring"] == {"p1": 5}
    # Row 1 is at p1's (bottom) edge, column a on the left.
    assert layout.region_at(*e1.center).name == "e1"
    a1 = next(r for r in layout.cells if r.name == "a1")
    a5 = next(r for r in layout.cells if r.name == "a5")
    assert a1.center[1] > a5.center[1] and a1.center[0] < e1.center[0]
    # Cells fit eight of the largest bases.
    x0, y0, x1, y1 = a1.bbox
    assert min(x1 - x0, y1 - y0) >= 3 * layout.base_diameters[1]


def test_markers_do_not_overlap_regions(layout):
    for m in layout.markers:
        for x, y in m.corners:
            assert layout.region_at(x, y) is None, f"marker {m.id} covers a region"


def test_layout_round_trip_and_errors(layout, tmp_path):
    path = tmp_path / "l.json"
    layout.save(path)
    again = Layout.load(path)
    assert again.to_dict() == layout.to_dict()
    data = json.loads(path.read_text())
    for broken, needle in [
        ({**data, "format": "x"}, "format"),
        ({**data, "markers": {**data["markers"], "dictionary": "DICT_NOPE"}}, "dictionary"),
        ({**data, "markers": {**data["markers"], "items": data["markers"]["items"][:1]}},
         "two markers"),
        ({k: v for k, v in data.items() if k != "regions"}, "missing"),
        # Stickers printed with an older code would be misread: refused, not guessed.
        ({**data, "tags": {"family": "tablesight-ring10.3"}}, "print the map and stickers"),
    ]:
        with pytest.raises(LayoutError, match=needle):
            Layout.from_dict(broken)
    with pytest.raises(LayoutError, match="cannot read"):
        Layout.load(tmp_path / "missing.json")


def test_a_printed_map_is_written_in_the_first_format(layout):
    """Tools that know only tablesight-layout/1 still read every printed map."""
    assert layout.to_dict()["format"] == "tablesight-layout/1"
    assert "board" not in layout.to_dict()


def test_layout_2_names_a_learned_board_and_marker_heights(layout, tmp_path):

    from vision.layout import Board

    (tmp_path / "boards").mkdir()
    picture = tmp_path / "boards" / "oak.png"
    picture.write_bytes(b"not read here")
    lifted = replace(layout, board=Board("learned", picture),
                     markers=tuple(replace(m, height=-20.0) for m in layout.markers))
    path = tmp_path / "oak.layout.json"
    lifted.save(path)
    data = json.loads(path.read_text())
    assert data["format"] == "tablesight-layout/2"
    # Named relative to the layout, so the folder can move as a whole.
    assert data["board"] == {"look": "learned", "picture": "boards/oak.png"}
    assert {m["height"] for m in data["markers"]["items"]} == {-20.0}
    again = Layout.load(path)
    assert again.board.picture == picture and not again.markers_on_board
    assert [m.height for m in again.markers] == [-20.0] * len(layout.markers)
    # A version-1 document cannot say heights: any it carries are not believed.
    old = {**data, "format": "tablesight-layout/1"}
    assert Layout.from_dict(old).markers_on_board
    assert Layout.from_dict(old).board == Board()
    picture.unlink()
    with pytest.raises(LayoutError, match=r"oak\.png, which is not there"):
        Layout.load(path)


def test_a_layout_of_piled_disks_says_so_in_version_2(layout):
    """``bases.piles``: the pieces are disks that may lie on one another (no figures);
    a version-1 document cannot say it, and a printed map's layout stays version 1."""
    assert layout.format == "tablesight-layout/1" and not layout.piles
    data = replace(layout, piles=True).to_dict()
    assert data["format"] == "tablesight-layout/2" and data["bases"]["piles"] is True
    assert Layout.from_dict(data).piles
    assert not Layout.from_dict({**data, "format": "tablesight-layout/1"}).piles


@pytest.mark.parametrize("change, needle", [
    ({"board": {"look": "carved"}}, "look is one of"),
    ({"board": "oak.png"}, "look is one of"),
    ({"board": {"look": "learned"}}, "names its picture"),
    ({"board": {"look": "learned", "picture": 7}}, "names its picture"),
    ({"markers": "height"}, "malformed"),
    ({"bases": {"diameters": [25, 32], "piles": "yes"}}, "bases.piles must be true or false"),
    ({"bases": {"diameters": [25, 32], "piles": 1}}, "bases.piles must be true or false"),
    ({"bases": [25, 32]}, "malformed"),
])
def test_layout_2_refuses_what_it_cannot_use(layout, change, needle):
    data = {**layout.to_dict(), "format": "tablesight-layout/2", **change}
    with pytest.raises(LayoutError, match=needle):
        Layout.from_dict(data)


@pytest.mark.parametrize("height", [1e9, float("nan"), float("inf"), "high", 10**400])
def test_a_marker_height_out_of_reason_is_refused(layout, height):
    """10**400 too: a JSON integer no float holds was an OverflowError, not refused."""
    data = {**layout.to_dict(), "format": "tablesight-layout/2"}
    items = [dict(m) for m in data["markers"]["items"]]
    items[0]["height"] = height
    data["markers"] = {**data["markers"], "items": items}
    with pytest.raises(LayoutError, match=r"height|malformed"):
        Layout.from_dict(data)


def test_codebook_properties():
    """The properties the stored patterns were chosen for (see ``vision/tags.py``)."""
    words = tags.CODEWORDS
    assert len(words) == tags.IDS_PER_PLAYER >= 16  # a Dreamblade warband: 16 at most
    assert 2 * len(words) == tags.MAX_IDS
    symbols = {tags.COLOUR, tags.INK, tags.ACCENT, tags.ACCENT2}
    for i, a in enumerate(words):
        assert len(a) == tags.SECTORS and set(a) <= symbols
        assert len(set(tags.rotations(a))) == tags.SECTORS  # aperiodic
        # Enough of the owner's colour to tell the owner; enough of the rest that a
        # sticker is never taken for a plain ring; ink, which glare never washes out.
        assert a.count(tags.COLOUR) >= 3 and a.count(tags.INK) >= 2
        assert a.count(tags.ACCENT) >= 1 and a.count(tags.ACCENT2) >= 1
        for b in words[i + 1:]:
            # Three misread wedges never turn one pattern into another, at any
            # rotation...
            assert min(tags.distance(r, b) for r in tags.rotations(a)) >= 4
            # ... and any four neighbouring wedges (the figure hides the rest) name one
            # pattern.
            assert not set(tags.windows(a, 4)) & set(tags.windows(b, 4))


def test_the_accent_colours_are_no_players_colour(layout):
    import cv2

    def hue(bgr):
        return int(cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2HSV)[0, 0, 0]) * 2

    def gap(a, b):
        return abs((a - b + 180) % 360 - 180)

    colours = [hue(layout.player_bgr(p)) for p in layout.players]
    for accent in tags.ACCENTS.values():
        assert all(gap(hue(accent), c) >= 60 for c in colours), accent
        colours.append(hue(accent))


def test_the_table_and_the_printer_number_stickers_alike():
    from table.stickers import STICKERS_PER_PLAYER, Stickers

    assert STICKERS_PER_PLAYER == tags.IDS_PER_PLAYER
    refs = Stickers.default({"p1": ["a"] * 16, "p2": ["b"] * 16}).ref_of
    assert sorted(k for k, v in refs.items() if v.startswith("p1")) == list(tags.player_ids(0))
    assert sorted(k for k, v in refs.items() if v.startswith("p2")) == list(tags.player_ids(1))


def votes_of(tag_id, shift):
    """Clean votes for a sticker, turned by ``shift`` samples."""
    word = np.repeat(tags.symbols_of(tag_id), tags.SAMPLES // tags.SECTORS)
    return np.roll(np.eye(tags.SYMBOLS, dtype=np.float32)[word], shift, axis=0)


@given(st.integers(0, tags.MAX_IDS - 1), st.integers(0, 59))
def test_decoding_recovers_any_rotation(tag_id, shift):
    player = tags.player_ids(tag_id // tags.IDS_PER_PLAYER)
    got, margin, agreement = tags.decode(votes_of(tag_id, shift), player)
    assert got == tag_id and agreement == 1.0 and margin >= 0.8


@pytest.mark.parametrize("wedges,share", [(2, 0.99), (3, 0.98)])
def test_a_figure_hiding_wedges_is_left_out(wedges, share):
    """A figure over two (or three) wedges' worth of the ring, anywhere, not only on
    wedge boundaries, looks like one symbol there. Decoded with that many wedges hidden,
    a sticker is never read as another id by the detector's margin, and almost always
    read. Every case is tried. (Not always: where the figure's run and one more wedge
    differ from another pattern, leaving out a run elsewhere explains the ring as well.)"""
    from vision.config import VisionConfig

    need = VisionConfig().hidden_margin
    run = wedges * tags.SAMPLES // tags.SECTORS
    read = wrong = cases = 0
    for k in range(tags.IDS_PER_PLAYER):
        batch = []
        for start in range(tags.SAMPLES):
            for looks_like in range(tags.SYMBOLS):
                votes = votes_of(k, 0)
                votes[(start + np.arange(run)) % tags.SAMPLES] = np.eye(tags.SYMBOLS)[looks_like]
                batch.append(votes)
        got, margin, _ = tags.decode_many(np.array(batch), hidden=run)
        read += int((margin >= need).sum())
        wrong += int(((margin >= need) & (got != k)).sum())
        cases += len(batch)
    assert wrong == 0
    assert read >= share * cases  # 99.9 % and 99.0 % with the stored patterns


def test_unknown_tag_id_is_a_clear_error():
    with pytest.raises(ValueError, match="no sticker id 32"):
        tags.symbols_of(32)


def test_player_id_ranges_are_disjoint():
    p1, p2 = tags.player_ids(0), tags.player_ids(1)
    assert not set(p1) & set(p2) and len(p1) == len(p2) == 16


_json = st.recursive(st.none() | st.booleans() | st.floats() | st.integers() | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)


@example(board=None, height=10**400)  # a JSON integer no float holds
@given(board=_json | st.fixed_dictionaries({"look": st.sampled_from(["printed", "learned"]),
                                            "picture": _json}),
       height=_json)
def test_hostile_version_2_fields_are_refused_cleanly(board, height):
    """Any JSON in the board and a marker's height: a layout, or a LayoutError saying
    what is wrong, never another exception."""
    from vision.layout import game_layout

    data = {**game_layout().to_dict(), "format": "tablesight-layout/2", "board": board}
    items = [dict(m) for m in data["markers"]["items"]]
    items[0]["height"] = height
    data["markers"] = {**data["markers"], "items": items}
    try:
        got = Layout.from_dict(data)
    except LayoutError:
        return
    assert abs(got.markers[0].height) <= 500


def test_layout_2_says_which_player_has_the_dark_pieces(layout, tmp_path):
    """Black and white pieces: owners by tone, written as version 2 and read back; a
    version-1 document cannot say it."""

    toned = replace(layout, tones={"p1": "dark", "p2": "light"})
    path = tmp_path / "draughts.layout.json"
    toned.save(path)
    data = json.loads(path.read_text())
    assert data["format"] == "tablesight-layout/2"
    assert data["players"]["p1"]["pieces"] == "dark"
    assert Layout.load(path).tones == {"p1": "dark", "p2": "light"}
    assert Layout.from_dict({**data, "format": "tablesight-layout/1"}).tones == {}


@pytest.mark.parametrize("pieces, needle", [
    ({"p1": "dark", "p2": "grey"}, "one of dark, light, not 'grey'"),
    ({"p1": "dark"}, "'p2' has none"),
    ({"p1": "light", "p2": "light"}, "same tone"),
    ({"p1": ["dark"], "p2": "light"}, "not \\['dark'\\]"),
])
def test_tones_that_cannot_tell_players_apart_are_refused(layout, pieces, needle):
    data = {**layout.to_dict(), "format": "tablesight-layout/2"}
    data["players"] = {p: {**v, **({"pieces": pieces[p]} if p in pieces else {})}
                       for p, v in data["players"].items()}
    with pytest.raises(LayoutError, match=needle):
        Layout.from_dict(data)


@given(pieces=st.dictionaries(st.sampled_from(["p1", "p2", "p3"]), _json, max_size=3))
def test_hostile_pieces_are_refused_cleanly(pieces):
    from vision.layout import game_layout

    data = {**game_layout().to_dict(), "format": "tablesight-layout/2"}
    data["players"] = {p: {**v, "pieces": pieces[p]} if p in pieces else v
                       for p, v in data["players"].items()}
    try:
        got = Layout.from_dict(data)
    except LayoutError:
        return
    assert set(got.tones.values()) <= {"dark", "light"}
