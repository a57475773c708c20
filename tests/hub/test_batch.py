"""A batch from a table is untrusted JSON: anything but a well-formed batch is refused
with ``BatchError`` naming the field, never another exception."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub.batch import MAX_ENTRIES, BatchError, parse_batch

from .helpers import batch_of, game_log


@pytest.fixture
def good(tmp_path):
    return batch_of(game_log(tmp_path / "t.db", entries=3))


def test_a_real_logs_batch_is_read(good):
    b = parse_batch(good)
    assert [e.seq for e in b.games[0].entries] == [1, 2, 3]
    assert b.games[0].entries[0].body == good["games"][0]["entries"][0]["body"]


@pytest.mark.parametrize("change, field", [
    (lambda d: d.update(format="tablesight-batch/9"), "format"),
    (lambda d: d.update(log="../../etc"), "log"),
    (lambda d: d.update(extra=1), "unknown key 'extra'"),
    (lambda d: d["games"][0].update(game=0), "games[0].game"),
    (lambda d: d["games"][0].update(game=True), "games[0].game"),
    (lambda d: d["games"][0].update(game=10**4400), "games[0].game"),
    (lambda d: d["games"][0].update(status="won"), "games[0].status"),
    (lambda d: d["games"][0].update(setup="[1, 2]"), "games[0].setup"),
    (lambda d: d["games"][0].update(setup="x" * 70_000), "games[0].setup"),
    (lambda d: d["games"][0].update(system="<script>"), "games[0].system"),
    (lambda d: d["games"][0]["entries"][1].update(seq=7), "consecutive"),
    (lambda d: d["games"][0]["entries"][0].update(time=float("nan")), "entries[0].time"),
    (lambda d: d["games"][0]["entries"][0].update(time=1e300), "entries[0].time"),
    (lambda d: d["games"][0]["entries"][0].update(kind="DROP TABLE"), "entries[0].kind"),
    (lambda d: d["games"][0]["entries"][0].update(chain="00"), "entries[0].chain"),
    (lambda d: d["games"][0]["entries"][0].update(body="not json"), "entries[0].body"),
    (lambda d: d["games"].append(dict(d["games"][0])), "each game once"),
    (lambda d: d.update(status={"prompt": "x" * 400}), "status.prompt"),
    (lambda d: d.update(status={"health": {"camera": {"ok": "yes"}}}), "status.health"),
])
def test_a_bad_field_is_named(good, change, field):
    change(good)
    with pytest.raises(BatchError, match=field.replace("[", r"\[").replace("]", r"\]")):
        parse_batch(good)


def test_too_many_entries_are_refused(good):
    entry = good["games"][0]["entries"][0]
    good["games"][0]["entries"] = [dict(entry, seq=i + 1) for i in range(MAX_ENTRIES + 1)]
    with pytest.raises(BatchError, match="at most"):
        parse_batch(good)


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                     lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(), c,
                                                                        max_size=4),
                     max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(_json)
def test_any_json_is_a_batch_or_a_batch_error(data):
    try:
        parse_batch(data)
    except BatchError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_a_real_batch_with_any_field_replaced_is_read_or_refused(tmp_path_factory, data):
    good = batch_of(game_log(tmp_path_factory.mktemp("b") / "t.db", entries=2))
    where = data.draw(st.sampled_from([good, good["games"][0],
                                       good["games"][0]["entries"][1]]))
    key = data.draw(st.sampled_from(sorted(where)))
    where[key] = data.draw(_json)
    try:
        b = parse_batch(json.loads(json.dumps(good)))
    except BatchError:
        return
    assert b.log == good["log"]


@pytest.mark.parametrize("game", ["warseer", "dreamblade", "diskwars"])
def test_every_games_board_is_read(game):
    from table.session import Session, Setup
    from tablesight.publish import table_status

    status = table_status(Session.new(Setup.sample(game)).snapshot())
    from hub.batch import table_status as read_status

    read = read_status(json.loads(json.dumps(status)), "status")
    assert len(read["board"]["regions"]) == len(status["board"]["regions"])
    assert read["colors"] == {"p1": "#F0780A", "p2": "#1A78E0"}


@settings(max_examples=200, deadline=None)
@given(_json)
def test_any_json_is_a_board_or_a_batch_error(data):
    from hub.batch import board

    try:
        board(data, "board")
    except BatchError:
        pass


@pytest.mark.parametrize("change, field", [
    (lambda b: b["regions"][0].update(fill="red;background:url(x)"), "fill"),
    (lambda b: b["regions"][0].update(outline=[[0, 0], [1, 1]]), "three points"),
    (lambda b: b["pieces"].append({"player": "p3", "label": "x"}), "player"),
    (lambda b: b.update(frame=[0, 0, -1, 5]), "frame"),
    (lambda b: b["regions"][0]["outline"][0].__setitem__(0, float("inf")), "millimetres"),
])
def test_a_bad_board_is_refused(change, field):
    from hub.batch import board
    from table.session import Session, Setup

    b = json.loads(json.dumps(Session.new(Setup.sample("warseer")).snapshot()["board"]))
    change(b)
    with pytest.raises(BatchError, match=field):
        board(b, "board")
