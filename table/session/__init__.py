"""A live game at one physical table: reconciliation, prompts, the game log."""

from table.quoting import quote

from .reconcile import Reconciler, Stickers
from .session import CommandError, Session, SessionEvent
from .setup import Setup, SetupFormatError
from .storage import GameLog, StorageError

__all__ = ["CommandError", "GameLog", "Reconciler", "Session", "SessionEvent", "Setup",
           "SetupFormatError", "Stickers", "StorageError", "quote"]
