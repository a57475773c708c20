"""The table's publisher, against a stand-in for the hub that answers as the hub does
(the real hub is in test_publishing.py): what it sends, and that an idle log costs no
batches."""

from __future__ import annotations

from tablesight.publish import Publisher

from .helpers import game_log


class _Answering(Publisher):
    """Answers ``_call`` as the hub would, keeping what it was sent."""

    def __init__(self, *args, **kw) -> None:
        super().__init__(*args, **kw)
        self.posted: list[dict] = []
        self.hub_has: dict[int, int] = {}

    def _call(self, method, path, body=None):
        if method == "GET":
            return {"have": {str(g): n for g, n in self.hub_has.items()}}
        self.posted.append(body)
        for g in body["games"]:
            if g["entries"]:
                self.hub_has[g["game"]] = g["entries"][-1]["seq"]
            else:
                self.hub_has.setdefault(g["game"], 0)
        return {"stored": sum(len(g["entries"]) for g in body["games"]),
                "have": {str(g["game"]): self.hub_has[g["game"]] for g in body["games"]}}


def test_a_log_is_sent_once_then_only_what_is_new(tmp_path):
    log = game_log(tmp_path / "t.db", entries=3)
    p = _Answering(log.path, log.log_id(), "http://hub", "token")
    assert p.step() is True
    assert [e["seq"] for e in p.posted[0]["games"][0]["entries"]] == [1, 2, 3]
    assert p.step() is False and len(p.posted) == 1  # idle: nothing sent
    log.append(1, "note", {"text": "later"}, "dashboard")
    assert p.step() is True
    assert [e["seq"] for e in p.posted[1]["games"][0]["entries"]] == [4]
    log.set_status(1, "over")
    assert p.step() is True and p.posted[2]["games"][0]["status"] == "over"
    assert p.posted[2]["games"][0]["entries"] == []
    assert p.up_to_date()


def test_a_restart_resumes_from_what_the_hub_says_it_has(tmp_path):
    log = game_log(tmp_path / "t.db", entries=5)
    p = _Answering(log.path, log.log_id(), "http://hub", "token")
    p.hub_has = {1: 3}  # the hub had 1..3 before this table restarted
    p.step()
    assert [e["seq"] for e in p.posted[0]["games"][0]["entries"]] == [4, 5]
