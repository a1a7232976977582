"""Hägar ruft zum Beutefest told in the rulebook's words: throws of the rune sticks, walks
and voyages by the places' names, plunder, storms, fate cards, ambushes and the Loot Feast.

A loot piece is shown by its kind and printed value (`Gold (5)`), only to a reader who
may see it (its holder; after an ambush both Vikings; everyone at the feast); the others
read that a piece was taken. Places are named as on the board (`Hägar's fjord (east)`),
the unnamed sea and road spaces by their region and number. Vikings are shown by their
player's name, with their colour (as drawn on the board) beside their sentences.
"""

from __future__ import annotations

import functools
from typing import Any

from skald.core.hagar.board import place_name
from skald.core.hagar.data import board_data, cards, pieces
from skald.events.common import Outcome
from skald.events.hagar import (
    AmbushEnded,
    ArrowsHealed,
    ArrowShot,
    ChestRobbed,
    CityPlundered,
    CrossroadsReached,
    DirectionsAnnounced,
    DragonFled,
    FateDrawn,
    FateShuffled,
    FeastCalled,
    FeastScored,
    GiftsJudged,
    LootBroughtHome,
    LootDealt,
    LootDropped,
    LootForced,
    LootJettisoned,
    LootRevealed,
    LootRobbed,
    MeadDrunk,
    OdinFlew,
    RoadBonus,
    RoadsideLootFound,
    RoadsideLootLeft,
    RoadsideLootTaken,
    ShipDocked,
    ShipSailed,
    StartChosen,
    SticksThrown,
    StormStruck,
    ThorPleased,
    TieThrown,
    TurnEnded,
    TurnSkipped,
    UncertaintyThrown,
    VikingBoarded,
    VikingsMet,
    VikingWalked,
)
from skald.projections.narrative.common import known, listing, outcome_words, plural, seat_deed
from skald.projections.narrative.legend import numbers_in

COLOUR_WORDS = ("brown", "green", "gray", "blue", "red", "purple")
"""The seats' colours in words, in the order the board draws them (`boards.svg`)."""

FATE_NAMES = {
    "dragon": "a dragon",
    "odin": "Odin",
    "arrow": "an arrow",
    "mead": "a night in the mead hall",
    "thor": "Thor is pleased",
    "healer": "a wandering healer",
    "heavy": "heavy loot",
    "road": "a good road",
}


FATE_CARDS = {
    "dragon": "dragon",
    "odin": "Odin",
    "arrow": "arrow",
    "mead": "mead hall",
    "thor": "Thor",
    "healer": "healer",
    "heavy": "heavy loot",
    "road": "good road",
}
"""The fate cards by name, as a list of the deck names them (`mead hall ×3`)."""


@functools.cache
def _places() -> dict[str, tuple[str, str]]:
    return {space.id: (space.name, space.kind) for space in board_data().spaces}


def place_words(space: str) -> str:
    """A place by its printed name, or an unnamed space by its region: `Baltic sea 4`."""
    return place_name(space)


def loot_words(piece: int) -> str:
    """A loot piece by its kind and printed value: `Gold (5)`, `Old cheese (0)`."""
    if not 0 <= piece < len(pieces()):  # a forged log's piece: said as what it is
        return f"a piece no game holds ({piece})"
    known_piece = pieces()[piece]
    return f"{known_piece.name} ({known_piece.value})"


def lots_words(ids: tuple[int, ...]) -> str:
    return listing([loot_words(p) for p in ids]) or "nothing"


def fate_words(card: int) -> str:
    """A fate card by what it shows."""
    if not 0 <= card < len(cards()):  # a forged log's card
        return f"a card no deck holds ({card})"
    return FATE_NAMES.get(cards()[card].kind, cards()[card].kind)


class HagarNarrator:
    """Sentences for Hägar's events, for one reader."""

    def __init__(self, players: tuple[str, ...]) -> None:
        self.players = players

    def name(self, seat: int) -> str:
        return self.players[seat] if 0 <= seat < len(self.players) else f"seat {seat}"

    def actor(self, seat: int) -> str:
        """`Dag (blue)`."""
        return f"{self.name(seat)} ({COLOUR_WORDS[seat % len(COLOUR_WORDS)]})"

    def move_words(self, move: str) -> str:
        """A move in notation with its places and seats by name (`sail Biscay sea 2`,
        `shoot Bob`) and a card's place as a place (`jettison the piece in place 2`)."""
        verb, *rest = move.split() or [""]
        if verb in ("shoot", "rob", "force") and rest and rest[0].isdigit():
            rest[0] = self.name(int(rest[0]))
        if verb in ("jettison", "force") and rest and rest[-1].isdigit():
            rest[-1] = f"the piece in place {rest[-1]}"
        words = [place_words(word) if word in _places() else word for word in rest]
        if verb == "announce" and len(words) == 2:
            return f"announce {words[0]} (even), {words[1]} (odd)"
        return " ".join([verb, *words])

    def deed(self, event: Any, seat: int) -> bool:
        """Whether `event` is `seat`'s doing (the Viking it names); the feast's judging is
        the game's."""
        return seat_deed(event, seat) and not isinstance(event, GiftsJudged)

    def say(self, event: Any) -> str | None:
        """The sentence for a Hägar event, or None for another game's."""
        text = self._moving(event) or self._turns(event) or self._loot(event)
        return text or self._fate(event) or self._feast(event)

    def _moving(self, event: Any) -> str | None:
        name = self.name
        match event:
            case StartChosen(seat=seat, harbour=harbour):
                return f"{name(seat)} starts from {place_words(harbour)}."
            case SticksThrown(seat=seat, points=points, waves=waves, lightning=lightning):
                bolts = f" and {plural(lightning, 'lightning bolt')}" if lightning else ""
                return (
                    f"{name(seat)} threw the rune sticks: {plural(points, 'point')}, "
                    f"{plural(waves, 'wave')}{bolts}."
                )
            case VikingWalked(seat=seat, path=path):
                start, end = place_words(path[0]), place_words(path[-1])
                return f"{name(seat)} walked from {start} to {end}."
            case ShipSailed(seat=seat, path=path, aboard=aboard):
                whose = f"{name(seat)} sailed" if aboard else f"{name(seat)}'s empty ship sailed"
                return f"{whose} from {place_words(path[0])} to {place_words(path[-1])}."
            case ShipDocked(seat=seat, harbour=harbour):
                return f"{name(seat)}'s ship docked at {place_words(harbour)}."
            case VikingBoarded(seat=seat, harbour=harbour, loaded=loaded):
                cargo = f", loading {plural(loaded, 'piece')}" if loaded else ""
                return f"{name(seat)} boarded his ship at {place_words(harbour)}{cargo}."
            case LootBroughtHome(seat=seat, count=count):
                return f"{name(seat)} brought {plural(count, 'piece')} of loot home."
            case CrossroadsReached(seat=seat, space=space, mode=mode):
                who = name(seat) if mode == "walk" else f"{name(seat)}'s ship"
                return f"{who} reached the crossroads at {place_words(space)}."
            case DirectionsAnnounced(seat=seat, even=even, odd=odd):
                return (
                    f"{name(seat)} announced: on an even throw to {place_words(even)}, "
                    f"on an odd one to {place_words(odd)}."
                )
            case StormStruck(seat=seat, space=space, waves=waves):
                return (
                    f"A storm at {place_words(space)} drives {name(seat)}'s ship "
                    f"{plural(waves, 'wave')} further."
                )
        return None

    def _turns(self, event: Any) -> str | None:
        name = self.name
        match event:
            case VikingsMet(seat=seat, space=space, others=others):
                met = listing([name(s) for s in others])
                return f"{name(seat)} met {met} at {place_words(space)} and may ambush."
            case AmbushEnded(seat=seat):
                return f"{name(seat)} let the ambush pass."
            case TurnEnded(seat=seat, next=after, again=again):
                if again:
                    return f"{name(seat)} takes another turn."
                return f"{name(seat)}'s turn is over; {name(after)} is next."
            case TurnSkipped(seat=seat):
                return f"{name(seat)} sleeps off the mead and misses this turn."
            case UncertaintyThrown(seat=seat, question=question, chosen=chosen):
                return f"The rune sticks settled {name(seat)}'s {question}: {place_words(chosen)}."
        return None

    def _loot(self, event: Any) -> str | None:
        name = self.name
        match event:
            case LootDealt(stacks=stacks):
                shown = known(stacks)
                detail = ""
                if shown:
                    detail = ": " + "; ".join(
                        f"{place_words(city)} {lots_words(tuple(stack))}" for city, stack in shown
                    )
                return f"The loot was shuffled face down onto the cities{detail}."
            case CityPlundered(seat=seat, city=city, piece=piece):
                shown = known(piece)
                what = loot_words(shown) if shown is not None else "the top piece"
                return f"{name(seat)} plundered {place_words(city)} and took {what}."
            case ChestRobbed(seat=seat, piece=piece):
                return f"{name(seat)} robbed a {loot_words(piece)} at the Byzantine camp."
            case RoadsideLootFound(seat=seat, space=space):
                return f"{name(seat)} found loot lying at {place_words(space)}."
            case RoadsideLootLeft(seat=seat, space=space):
                return f"{name(seat)} left the loot lying at {place_words(space)}."
            case RoadsideLootTaken(seat=seat, space=space, piece=piece):
                shown = known(piece)
                what = loot_words(shown) if shown is not None else "it"
                return f"{name(seat)} picked up the loot at {place_words(space)}: {what}."
            case LootDropped(seat=seat, space=space, count=count, pieces=dropped):
                shown = known(dropped)
                what = f" ({lots_words(shown)})" if shown else ""
                where = place_words(space)
                return f"{name(seat)} dropped {plural(count, 'piece')}{what} at {where}."
            case LootJettisoned(seat=seat, piece=piece):
                shown = known(piece)
                what = loot_words(shown) if shown is not None else "a piece of cargo"
                return f"The storm took {what} from {name(seat)}'s ship."
            case LootRobbed(seat=seat, victim=victim, at_sea=at_sea, piece=piece):
                shown = known(piece)
                what = f" ({loot_words(shown)})" if shown is not None else ""
                where = "at sea" if at_sea else "on land"
                source = ""
                if at_sea and event.from_cargo is not None:  # rules version 5 on
                    source = " from his ship" if event.from_cargo else " from his hands"
                return (
                    f"{name(seat)} ambushed {name(victim)} {where} and took a piece{source}{what}."
                )
            case LootForced(seat=seat, victim=victim, piece=piece):
                shown = known(piece)
                what = f" ({loot_words(shown)})" if shown is not None else ""
                return f"{name(seat)} forced a piece{what} on {name(victim)}."
        return None

    def _fate(self, event: Any) -> str | None:
        name = self.name
        match event:
            case FateShuffled(reason=reason, returned=returned):
                back = f" with {plural(len(returned), 'card')} back in" if returned else ""
                why = {"setup": "", "discard": " from the discards", "arrows": ""}.get(reason, "")
                return f"The fate deck was shuffled{why}{back}."
            case FateDrawn(seat=seat, card=card):
                return f"Lightning on land: {name(seat)} drew a fate card: {fate_words(card)}."
            case DragonFled(seat=seat, ship=ship):
                return f"{name(seat)} fled in fright to his ship at {place_words(ship)}."
            case OdinFlew(seat=seat, to=to, loaded=loaded):
                where = "onto his ship" if to == "ship" else f"into {place_words(to)}"
                with_loot = f" with {plural(loaded, 'piece')}" if loaded else ""
                return f"Odin carried {name(seat)}{with_loot} {where}."
            case ArrowShot(seat=seat, target=target):
                return f"{name(seat)} handed an arrow to {name(target)}."
            case MeadDrunk(seat=seat):
                return f"{name(seat)} will miss his next turn."
            case ThorPleased(seat=seat):
                return f"{name(seat)} takes another turn after this one."
            case RoadBonus(seat=seat, points=points):
                return f"A good road: {name(seat)} moves {plural(points, 'point')} more."
            case ArrowsHealed(seat=seat, cards=healed):
                return f"A healer pulled {plural(len(healed), 'arrow')} out of {name(seat)}."
        return None

    def _feast(self, event: Any) -> str | None:
        name = self.name
        match event:
            case FeastCalled(seat=seat, reason=reason):
                return f"{name(seat)} called the Loot Feast ({reason})."
            case LootRevealed(holdings=holdings):
                shown = [
                    f"{name(h.seat)}: home {lots_words(h.home)}; ship {lots_words(h.cargo)}; "
                    f"carried {lots_words(h.carried)}"
                    for h in holdings
                ]
                return "Every piece was turned face up. " + ". ".join(shown) + "."
            case GiftsJudged(seat=seat, gifts=gifts, points=points):
                judged = listing(
                    [
                        f"{loot_words(g)} {plural(p, 'point')}"
                        for g, p in zip(gifts, points, strict=False)
                    ]
                )
                if not gifts:
                    return f"{name(seat)} brought his wife no gift."
                return f"{name(seat)}'s wife judged his gifts: {judged}."
            case TieThrown(seats=seats, points=points):
                thrown = listing(
                    [f"{name(s)} {plural(p, 'point')}" for s, p in zip(seats, points, strict=False)]
                )
                return f"The tied Vikings threw the sticks: {thrown}."
            case FeastScored(scores=scores, ranking=ranking):
                outcome = Outcome(termination="feast", ranking=ranking, scores=scores)
                return f"The feast is scored: {outcome_words(outcome, name)}."
        return None


def narrator(players: tuple[str, ...]) -> HagarNarrator:
    """The Hägar narrator for a table."""
    return HagarNarrator(players)


FATE_KINDS = ("hagar.fate_shuffled", "hagar.fate_drawn", "hagar.arrow_shot", "hagar.arrows_healed")
"""The events whose numbers are fate cards (every other number is a loot piece)."""


def legend_entries(kind: str, value: str) -> dict[str, str]:
    """`fate card N` or `loot piece N` and its face for every number in a recorded value."""
    fate = kind in FATE_KINDS
    entries: dict[str, str] = {}
    for number in numbers_in(value):
        if fate and 0 <= number < len(cards()):
            entries[f"fate card {number}"] = fate_words(number)
        elif not fate and 0 <= number < len(pieces()):
            entries[f"loot piece {number}"] = loot_words(number)
    return entries
