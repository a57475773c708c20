"""The static game: the catalog, the battlefield, each player's warband (the hero first,
then the characters of the War Camp) and battle deck. Checked when made: a warband the
hero's Leadership cannot lead, or a deck too small to draw a starting hand from, is a
``SetupError`` naming the problem."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from table.quoting import quote

from .battlefield import Battlefield
from .catalog import Catalog, CatalogError, Creature
from .errors import SetupError

PLAYERS = ("p1", "p2")
START_DRAW, START_RETURN = 7, 3  # draw seven, return three: a starting hand of four
MAX_DECK = 60


@dataclass(frozen=True)
class Game:
    catalog: Catalog
    battlefield: Battlefield
    warbands: Mapping[str, tuple[str, ...]]  # creature names; index i is p#i
    decks: Mapping[str, tuple[str, ...]]  # support card codes, one per card

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        return self  # frozen, and shared by every state of the match

    def creature(self, ref: str) -> Creature:
        p, i = ref.split("#")
        return self.catalog.creature(self.warbands[p][int(i)])

    @classmethod
    def make(cls, catalog: Catalog, battlefield: Battlefield,
             warbands: Mapping[str, Sequence[str]],
             decks: Mapping[str, Sequence[str]] | None = None) -> Game:
        wb: dict[str, tuple[str, ...]] = {}
        dk: dict[str, tuple[str, ...]] = {}
        for p in PLAYERS:
            names = tuple(warbands.get(p, ()))
            check_warband(catalog, names, p)
            wb[p] = names
            cards = decks.get(p) if decks else None
            dk[p] = check_deck(catalog, cards if cards is not None
                               else sample_deck(battlefield), p)
        return cls(catalog, battlefield, wb, dk)


def check_warband(catalog: Catalog, names: Sequence[str], p: str) -> None:
    """The hero first; the rest characters within the hero's Leadership per rank."""
    if not names:
        raise SetupError(f"{p}: a warband needs a hero")
    try:
        creatures = [catalog.creature(n) for n in names]
    except CatalogError as e:
        raise SetupError(f"{p}: {e}") from None
    hero, rest = creatures[0], creatures[1:]
    if hero.kind != "hero":
        raise SetupError(f"{p}: the warband starts with its hero, not {quote(hero.name)}")
    for c in rest:
        if c.kind == "hero":
            raise SetupError(f"{p}: one hero per warband ({quote(c.name)} is a second)")
        if c.kind == "minion":
            raise SetupError(f"{p}: {quote(c.name)} is a minion: minions come only when "
                             "an ability summons them")
    by_rank = Counter(c.rank for c in rest)
    for rank, n in sorted(by_rank.items()):
        allowed = hero.leadership.get(rank, 0)
        if n > allowed:
            raise SetupError(f"{p}: {hero.name} leads {allowed} character(s) of rank "
                             f"{rank}, not {n}")


def check_deck(catalog: Catalog, cards: Sequence[str], p: str) -> tuple[str, ...]:
    """A battle deck by card names or codes, as codes; at least seven cards."""
    if not isinstance(cards, list | tuple) or len(cards) > MAX_DECK:
        raise SetupError(f"{p}: a battle deck is a list of at most {MAX_DECK} cards")
    try:
        codes = tuple(catalog.card_by_name(c).code for c in cards)
    except CatalogError as e:
        raise SetupError(f"{p}: deck: {e}") from None
    if len(codes) < START_DRAW:
        raise SetupError(f"{p}: a battle deck needs at least {START_DRAW} cards to draw "
                         f"the starting hand from, not {len(codes)}")
    return codes


def sample_deck(battlefield: Battlefield) -> list[str]:
    return [name for name, n in battlefield.deck.items() for _ in range(int(n))]
