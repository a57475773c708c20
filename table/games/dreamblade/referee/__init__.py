"""Dreamblade at a live table: the referee the session drives (``referee.py``), its
prompts, its reconciliation of camera boards, its wording and the scripted players."""

from .referee import DreambladeReferee

__all__ = ["DreambladeReferee"]
