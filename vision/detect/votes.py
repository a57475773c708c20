"""The first decoder: every sample of a ring sorted into a symbol by fixed thresholds
(``Identifier.classify``) votes, and the codeword and rotation that explain the votes
best win.

The owner is the player whose colour dominates the ring's outer band (a figure stands
in the middle and hides the ring from the inside out). The id is decoded softly among
that player's ids only: outer samples, less often hidden, weigh more, and a reading
needs the best pattern to beat every other by ``tag_margin``; otherwise the sticker is
"unreadable" rather than a guess. A ring still unread is decoded again allowing the
figure to hide a run of neighbouring wedges (``hidden_wedges``: two, then three). A
ring showing both players' colours (a figure painted in the other player's colour) is
decoded as each player's, and belongs to the one player whose colour lies in the
decoded pattern's colour wedges, if exactly one does.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import tags
from ..config import VisionConfig
from .ring_bands import ANGLES, OWNER_BAND, RADII_SHARES, colour_angles, edges, radii_within


@dataclass
class Identity:
    owner: str | None
    owner_confidence: float
    sticker: int | None
    tag: str  # "read", "none" (plain ring) or "unreadable"
    tag_confidence: float
    # An unread ring's pattern the colour votes favour (by ``fit_agreed_votes_margin``)
    # though not surely: read only if the ring fit finds the same (``_refit``)
    votes_pattern: int | None = None
    # Read against the frame's print alone (``frame_print``), no decoder of the ring's
    # own: weaker evidence, so it neither wins a place over another disc nor stands on a
    # disc crowding another (``pipeline``: a figure's head beside its base is sampled
    # over that base's sticker)
    by_print: bool = False

    @property
    def decoded(self) -> bool:
        """Whether the ring's own decoders read its sticker (not the frame's print):
        the readings that say a sticker is taken (each is printed once)."""
        return self.tag == "read" and self.sticker is not None and not self.by_print


class VoteDecoder:
    def __init__(self, config: VisionConfig, players: list[str],
                 symbol_class: dict[int, int]) -> None:
        """``players``: the players' names, their colours classes 1..n of the samples;
        ``symbol_class``: each tag symbol's sample class (the colour symbol's is the
        owner's, which depends on the ring)."""
        self.cfg = config
        self.players = players
        self.symbol_class = symbol_class

    def decide_many(self, dense: np.ndarray, glare: np.ndarray,
                     hidden: tuple[int, ...] = (),
                     seen: np.ndarray | None = None) -> list[Identity]:
        """Owner and id of every ring at once. ``dense``: (rings, radii, angles) sample
        classes; ``glare``: per ring, whether the paper around it is clipped; ``hidden``:
        how many wedges a figure may hide, tried in turn, for decoding again the rings
        not read at first (empty: none)."""
        need = self.cfg.tag_margin
        n = len(dense)
        edge = edges(dense)
        # Figures stand in the middle and hide the tag from the inside out, so the outer
        # band is believed first; the inner band only speaks where the outer is hidden
        # and does not contradict it.
        band = radii_within(*OWNER_BAND, edge)
        band[~band.any(axis=1)] = True
        # A player's colour where a figure is expected to stand (``seen``) is as likely
        # the figure's paint: it counts for as little as the view believes it.
        by_angle = 1.0 if seen is None else seen[:, None, :]
        counts = np.stack([(((dense == k + 1) & band[:, :, None]) * by_angle).sum(axis=(1, 2))
                           for k in range(len(self.players))], axis=1)
        total_color = counts.sum(axis=1)
        best = counts.argmax(axis=1)
        share = counts[np.arange(n), best] / np.maximum(total_color, 1)
        has_owner = (total_color >= 4) & (share >= self.cfg.min_owner_share)
        owner_conf = np.round(share * np.minimum(1.0, total_color / 25), 3)
        # Soft decoding: every classified sample votes, outer ones (less often hidden by
        # the figure) with more weight; the codeword and rotation that explain the votes
        # best win, if they beat every other codeword by a clear margin.
        weights = np.clip((RADII_SHARES / edge - 0.5) * 2.5, 0.0, 1.0)
        weights[0.95 * edge < RADII_SHARES] = 0.0  # the blurred edge itself
        mine = (best + 1)[:, None, None]
        shared = [self.symbol_class[s] for s in range(1, tags.SYMBOLS)]  # ink, accents

        def tally(rings: np.ndarray, weights: np.ndarray, own: np.ndarray | None = None
                  ) -> np.ndarray:
            """Votes (rings, angles, symbols): each symbol's samples, weighted by radius;
            ``own``: per ring, the class that shows the owner's colour (default: the
            colour that dominates its outer band)."""
            colour = mine[rings] if own is None else own[:, None, None]
            return np.stack([((dense[rings] == c) * weights[rings][:, :, None]).sum(axis=1)
                             for c in (colour, *shared)], axis=2).astype(np.float32)

        votes = tally(np.arange(n), weights)
        col_sum = votes[:, :, tags.COLOUR].sum(axis=1)
        plain = (col_sum > 0) & (votes[:, :, 1:].sum(axis=(1, 2)) < 0.05 * col_sum)
        pattern, lead, agreement = tags.decode_many(votes)
        sure = (pattern >= 0) & (lead >= need) & (agreement >= self.cfg.tag_agreement)
        # What the whole ring's votes favour, sure or not: a second opinion for the fit.
        favoured = np.where(lead >= self.cfg.fit_agreed_votes_margin, pattern, -1)
        # Not sure: perhaps the figure hides a few wedges and looks like some symbol
        # there. Decoded again with the run of wedges that fits worst left out: first
        # the shortest run in ``hidden``, then longer ones for the rings still unsure.
        # The figure stands on the centre and hides the ring from the inside out, so
        # these decodings count only the outer samples, the least often hidden.
        decided = sure.copy()  # read at first, or by a decoding with wedges hidden
        unsure = np.flatnonzero(has_owner & ~plain & ~sure)
        outer = np.where(self.cfg.hidden_inner * edge <= RADII_SHARES, weights, 0.0)
        if len(unsure):
            got, p2, l2, a2 = self._decode_hiding(tally(unsure, outer), hidden)
            done = unsure[got]
            pattern[done], lead[done], agreement[done] = p2[got], l2[got], a2[got]
            decided[done] = True
        # A ring whose colour is split between the players (a figure painted in the
        # other player's colour, or hiding most of the owner's wedges): each player's
        # reading is tried in turn, the other's colour then counting for nothing; when
        # they agree on the pattern, the owner is the one player whose colour lies in
        # that pattern's colour wedges (``_owner_by_fit``), and otherwise nobody.
        second = total_color - counts[np.arange(n), best]
        split = np.flatnonzero((total_color >= 4) & (
            ~has_owner | (second >= self.cfg.contest_share * total_color)))
        rescued: dict[int, tuple[int, int, float, float]] = {}
        if len(split):
            sure_by, votes_by = [], []
            for q in range(len(self.players)):
                own = np.full(len(split), q + 1)
                v = tally(split, outer, own)
                votes_by.append(v)
                pq, lq, aq = tags.decode_many(v)
                ok = (pq >= 0) & (lq >= need) & (aq >= self.cfg.tag_agreement)
                left = np.flatnonzero(~ok)
                if len(left):
                    got, p2, l2, a2 = self._decode_hiding(v[left], hidden)
                    done = left[got]
                    pq[done], lq[done], aq[done] = p2[got], l2[got], a2[got]
                    ok[done] = True
                sure_by.append((ok, pq, lq, aq))
            for i, k in enumerate(split):
                sure = [q for q, (ok, *_) in enumerate(sure_by) if ok[i]]
                patterns = {int(sure_by[q][1][i]) for q in sure}
                if len(patterns) != 1:
                    continue  # no reading, or readings that disagree: not guessed
                pat = patterns.pop()
                q = self._owner_by_fit(np.stack([v[i] for v in votes_by]), pat)
                if q is not None and q in sure:
                    _, pq, lq, aq = sure_by[q]
                    rescued[int(k)] = (q, pat, float(lq[i]), float(aq[i]))
        split_set = set(split.tolist())
        out = []
        for k in range(n):
            if k in rescued:
                q, pat, lead_k, agree_k = rescued[k]
                conf = min(1.0, lead_k / max(1e-6, 2 * need)) * agree_k
                out.append(Identity(self.players[q], round(conf, 3),
                                    tags.player_ids(q).start + pat, "read", round(conf, 3)))
                continue
            if not has_owner[k]:
                out.append(Identity(None, 0.0, None, "unreadable", 0.0))
                continue
            if k in split_set:  # contested colours and no one reading: not guessed
                out.append(Identity(self.players[best[k]], float(owner_conf[k]), None,
                                    "unreadable", 0.0))
                continue
            owner, conf_o = self.players[best[k]], float(owner_conf[k])
            if plain[k]:
                # Under a glare spot black wedges wash out to grey: no ink seen is not
                # "no sticker".
                out.append(Identity(owner, conf_o, None, "unreadable", 0.0) if glare[k]
                           else Identity(owner, conf_o, None, "none", round(conf_o, 3)))
                continue
            # The colour says whose sticker it is, so only that player's ids compete.
            if not decided[k] or agreement[k] < self.cfg.tag_agreement:
                out.append(Identity(owner, conf_o, None, "unreadable", 0.0,
                                    int(favoured[k]) if favoured[k] >= 0 else None))
                continue
            conf = min(1.0, float(lead[k]) / max(1e-6, 2 * need)) \
                * float(agreement[k])
            tag_id = tags.player_ids(int(best[k])).start + int(pattern[k])
            out.append(Identity(owner, conf_o, tag_id, "read", round(conf, 3)))
        return out

    def _decode_hiding(self, votes: np.ndarray, hidden: tuple[int, ...]
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Rings decoded with a run of ``hidden[0]`` wedges left out, then the ones still
        unsure with ``hidden[1]``, ...: (read at ``hidden_margin``, pattern, lead,
        agreement), one entry per ring of ``votes``."""
        n = len(votes)
        got = np.zeros(n, bool)
        pattern, lead = np.full(n, -1), np.zeros(n)
        agreement = np.zeros(n)
        left = np.arange(n)
        for wedges in hidden:
            if not len(left):
                break
            p, m, a = tags.decode_many(votes[left], wedges * ANGLES // tags.SECTORS)
            ok = m >= self.cfg.hidden_margin
            done = left[ok]
            pattern[done], lead[done], agreement[done], got[done] = p[ok], m[ok], a[ok], True
            left = left[~ok]
        return got, pattern, lead, agreement

    def _owner_by_fit(self, votes: np.ndarray, pattern: int) -> int | None:
        """Whose colour fits ``pattern``'s colour wedges on one ring. ``votes``: the
        ring's votes (angles, symbols) read as each player's in turn, one per player:
        they differ only in the colour column. The pattern is turned to fit the ink and
        the accents (the same on every player's stickers), and a player's colour fits
        when its samples lie in the colour wedges, not across the others as a figure's
        do. None unless exactly one player's colour fits."""
        colour_at = colour_angles(votes[0], pattern)
        fitting = []
        for q, seen in enumerate(votes[:, :, tags.COLOUR]):
            inside, outside = float(seen[colour_at].sum()), float(seen[~colour_at].sum())
            if inside >= 2.0 and inside - outside >= self.cfg.split_fit * (inside + outside):
                fitting.append(q)
        return fitting[0] if len(fitting) == 1 else None
