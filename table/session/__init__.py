"""A live game at one physical table: reconciliation, prompts, the game log."""

from .reconcile import Reconciler, Stickers
from .session import CommandError, Session, SessionEvent, quote
from .setup import Setup, SetupFormatError
from .storage import GameLog, StorageError

__all__ = ["CommandError", "GameLog", "Reconciler", "Session", "SessionEvent", "Setup",
           "SetupFormatError", "Stickers", "StorageError", "quote"]
