"""What a demo's game log says it was played with, for the demo tests of every game."""

from __future__ import annotations

from table.session import GameLog


def sources_and_events(log: GameLog, game_id: int) -> tuple[dict[str, set[str]], set[str]]:
    """(each action verb -> who played it: camera, box, dashboard; every rules event's
    kind)."""
    sources: dict[str, set[str]] = {}
    events: set[str] = set()
    for e in log.entries(game_id, ("action",)):
        d = e.to_dict()
        sources.setdefault(d["action"].split()[1], set()).add(d["source"])
        events |= {ev["kind"] for ev in d["events"]}
    return sources, events
