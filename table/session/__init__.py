"""A live game at one physical table, whatever the game: the game log, undo, corrections,
the camera's and the box's input, what listeners hear. The game's own knowledge comes
through its referee (``table.system``)."""

from .session import Session, SessionEvent
from .setup import Setup, SetupFormatError
from .storage import GameLog, StorageError

__all__ = ["GameLog", "Session", "SessionEvent", "Setup", "SetupFormatError", "StorageError"]
