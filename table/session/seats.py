"""Each player's private page, by an unguessable key: who holds which.

A key is made when staff ask for a player's link (and again to revoke it: the old one
stops working at once). Only its SHA-256 digest is kept, in memory and in the game's
log, so a restarted table still knows the players' phones and a copied log or database
gives no one a key. A page is reached only by its key: the shared screen never shows a
seat's page, and one seat's key opens nothing of the other's.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
from collections.abc import Callable
from typing import Any

from table.errors import CommandRefused, NotationError
from table.quoting import quote
from table.system import Prompt, Referee, check_player

KEY = re.compile(r"[A-Za-z0-9_-]{24,64}")  # what a key looks like: anything else is refused
MAX_ACTION = 500  # an action's text from a page: longer is no action


def digest(key: str) -> str:
    return hashlib.sha256(key.encode("ascii")).hexdigest()


class SeatKeys:
    def __init__(self) -> None:
        self._digest: dict[str, str] = {}  # seat -> digest of its current key

    def issue(self, seat: str) -> tuple[str, str]:
        """A new key for ``seat`` (its old one revoked): the key and its digest."""
        key = secrets.token_urlsafe(24)  # 192 bits
        self._digest[seat] = digest(key)
        return key, self._digest[seat]

    def restore(self, seat: str, key_digest: str) -> None:
        """A key made before a restart, by its digest (from the log)."""
        self._digest[seat] = key_digest

    def seat_of(self, key: object) -> str | None:
        """The seat whose current key this is, or None. Every seat is compared, in
        constant time, so the answer's timing tells nothing of the keys."""
        if not isinstance(key, str) or not KEY.fullmatch(key):
            return None
        d = digest(key)
        found = None
        for seat, want in sorted(self._digest.items()):
            if hmac.compare_digest(d, want):
                found = seat
        return found

    def issued(self) -> list[str]:
        return sorted(self._digest)


class PrivatePages:
    """The session's side of the private pages (mixed into ``Session``): keys made and
    checked, what a seat's page shows, and what it may send. It relies on the session's
    setup, referee, state, lock, log (``note``), prompt and commands."""

    seats: SeatKeys
    setup: Any
    referee: Referee
    state: Any
    game_id: int | None
    system: Any
    _lock: threading.RLock
    note: Callable[[str, dict[str, Any], str], None]
    prompt: Callable[[], Prompt]
    command: Callable[..., list[Any]]

    def issue_seat_key(self, seat: str, source: str = "dashboard") -> str:
        """A new key to ``seat``'s private page (the old one stops working); only its
        digest is logged, so a restart keeps the players' phones."""
        seat = check_player(seat)
        with self._lock:
            key, key_digest = self.seats.issue(seat)
            self.note("seat_key", {"seat": seat, "digest": key_digest}, source)
            return key

    def seat_of(self, key: object) -> str | None:
        return self.seats.seat_of(key)

    def seat_view(self, seat: str) -> dict[str, Any]:
        """What one player's private page shows: the shared prompt and score, and what
        that seat alone may see and do (``Referee.private``)."""
        seat = check_player(seat)
        with self._lock:
            prompt = self.prompt()
            return {"game_id": self.game_id, "game": self.system.describe(), "seat": seat,
                    "name": self.setup.names[seat], "color": self.setup.colors[seat],
                    "names": dict(self.setup.names),
                    "prompt": {"text": prompt.text, "player": prompt.player,
                               "step": prompt.step},
                    "your_turn": prompt.player == seat,
                    "score": self.referee.view(self.state).get("score"),
                    "private": self.referee.private(self.state, seat)}

    def seat_command(self, seat: str, cmd: dict[str, Any]) -> list[Any]:
        """A command from ``seat``'s private page: an action of that player's, or one of
        the game's ``seat_commands`` for that player (a card drawn by hand); anything
        else is refused, so one seat's page never acts for the other."""
        seat = check_player(seat)
        if not isinstance(cmd, dict):
            raise CommandRefused("a command is a JSON object")
        do = cmd.get("do")
        if do == "action":
            try:
                text = cmd.get("action")
                if not isinstance(text, str) or len(text) > MAX_ACTION:
                    raise CommandRefused(f"action: an action in the game's notation, not "
                                         f"{quote(text)}")
                action = self.referee.parse_action(text)
            except NotationError as e:
                raise CommandRefused(str(e)) from None
            if getattr(action, "player", None) != seat:
                raise CommandRefused(f"{self.setup.names[seat]}'s page plays "
                                     f"{self.setup.names[seat]}'s actions only")
        elif do in self.referee.seat_commands:
            if cmd.get("player") != seat:
                raise CommandRefused(f"player: {seat} on {self.setup.names[seat]}'s page")
        else:
            raise CommandRefused(f"do: an action or one of "
                                 f"{', '.join(self.referee.seat_commands) or 'none'} here")
        return self.command(cmd, source=f"{self.setup.names[seat]}'s page")
