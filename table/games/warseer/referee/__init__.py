"""Warseer at a live table: the referee the session drives (``referee.py``), its prompts,
its reading of the camera's board (``reconcile.py``), its wording, what a screen draws
and the scripted players."""

from .referee import WarseerReferee

__all__ = ["WarseerReferee"]
