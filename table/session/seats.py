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

KEY = re.compile(r"[A-Za-z0-9_-]{24,64}")  # what a key looks like: anything else is refused


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
