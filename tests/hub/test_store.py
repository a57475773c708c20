"""The hub stores each entry of a table's log once, in order, whatever is sent twice,
late or out of order (a real PostgreSQL, batches from a real game log)."""

from __future__ import annotations

import copy

import pytest

from hub.batch import parse_batch
from hub.store import Refused

from .helpers import batch_of, game_log


@pytest.fixture
def table(store):
    token = store.add_table("Table 1")
    return store.table_for_token(token)


def _stored(store, log, game=1):
    return [(e["seq"], e["kind"], e["body"]) for e in store.entries(log, game)]


def test_a_batch_sent_twice_is_stored_once(store, table, tmp_path):
    log = game_log(tmp_path / "t.db", entries=6)
    b = parse_batch(batch_of(log))
    first, again = store.store(table, b), store.store(table, b)
    assert (first.new, first.have) == (6, {1: 6})
    assert (again.new, again.have) == (0, {1: 6})
    assert [s for s, _, _ in _stored(store, log.log_id())] == [1, 2, 3, 4, 5, 6]
    assert store.count_entries() == 6


def test_a_gap_stops_the_batch_and_says_where_the_hub_stands(store, table, tmp_path):
    log = game_log(tmp_path / "t.db", entries=8)
    store.store(table, parse_batch(batch_of(log, most=3)))
    late = parse_batch(batch_of(log, since={1: 5}))  # 6..8 while the hub has 1..3
    assert store.store(table, late).have == {1: 3}
    assert store.store(table, parse_batch(batch_of(log, since={1: 3}))).have == {1: 8}
    assert [s for s, _, _ in _stored(store, log.log_id())] == list(range(1, 9))


def test_overlapping_batches_store_each_entry_once(store, table, tmp_path):
    log = game_log(tmp_path / "t.db", entries=10)
    for since, most in ((0, 4), (2, 5), (0, 10), (6, 4)):
        store.store(table, parse_batch(batch_of(log, since={1: since}, most=most)))
    assert [s for s, _, _ in _stored(store, log.log_id())] == list(range(1, 11))


def test_an_entry_changed_after_it_was_stored_is_refused(store, table, tmp_path):
    log = game_log(tmp_path / "t.db", entries=3)
    data = batch_of(log)
    store.store(table, parse_batch(data))
    forged = copy.deepcopy(data)
    forged["games"][0]["entries"][1]["body"] = '{"text": "something else"}'
    with pytest.raises(Refused, match="entry 2: differs"):
        store.store(table, parse_batch(forged))
    assert _stored(store, log.log_id())[1][2] == {"n": 1, "text": "step 2"}


def test_an_entry_whose_chain_does_not_follow_is_refused(store, table, tmp_path):
    log = game_log(tmp_path / "t.db", entries=3)
    data = batch_of(log)
    data["games"][0]["entries"][2]["body"] = '{"text": "tampered"}'
    with pytest.raises(Refused, match="entry 3: its chain does not follow"):
        store.store(table, parse_batch(data))
    assert store.count_entries() == 0  # the whole batch, not a part of it


def test_a_log_is_its_first_tables(store, table, tmp_path):
    log = game_log(tmp_path / "t.db", entries=2)
    store.store(table, parse_batch(batch_of(log)))
    other = store.table_for_token(store.add_table("Table 2"))
    with pytest.raises(Refused, match="another table") as e:
        store.store(other, parse_batch(batch_of(log)))
    assert e.value.status == 403
    with pytest.raises(Refused, match="another table"):
        store.progress(other, log.log_id())
    assert store.progress(table, log.log_id()) == {1: 2}


def test_a_revoked_token_is_no_table(store):
    token = store.add_table("Table 9")
    assert store.table_for_token(token) is not None
    store.revoke_table("Table 9")
    assert store.table_for_token(token) is None
    assert store.table_for_token(token + "x") is None


def test_a_games_end_is_stored_with_its_status(store, table, tmp_path):
    log = game_log(tmp_path / "t.db", entries=2)
    store.store(table, parse_batch(batch_of(log)))
    log.set_status(1, "over")
    store.store(table, parse_batch(batch_of(log, since={1: 2})))
    [g] = store.games(status="over")
    assert (g["table"], g["game"], g["entries"], g["setup"]["names"]["p1"]) == \
        ("Table 1", 1, 2, "Ann")


def test_staff_passwords_are_checked_not_stored(store):
    store.add_staff("sam", "correct horse battery")
    assert store.staff_ok("sam", "correct horse battery")
    assert not store.staff_ok("sam", "correct horse battery!")
    assert not store.staff_ok("nobody", "correct horse battery")
    with store.connect() as conn:
        stored = conn.execute("SELECT password_hash FROM staff").fetchone()[0]
    assert "correct horse" not in stored and stored.startswith("scrypt$")


def test_the_schema_is_migrated_once_and_checked(dsn):
    from hub.schema import NEWEST
    from hub.store import HubStore

    s = HubStore(dsn)
    assert s.setup() == (0, NEWEST)
    assert s.setup() == (NEWEST, NEWEST)
    s.check()
