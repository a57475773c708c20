"""Diskwars at a live table (the seam's ``Referee``)."""

from .referee import DiskwarsReferee

__all__ = ["DiskwarsReferee"]
