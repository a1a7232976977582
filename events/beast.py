"""Beast events. Hidden values are Secrets with their audience; names never leak them.

Hands: hand 0 is the Beast, hands 1.. are the hunters (a 2-player hunter seat controls
two). The Beast's steps, hand and drafted cards are for the Beast's seat; hunters' hands,
drafted cards and traps are for every hunter seat (they share hands); draft packs for
their holder; deck orders for nobody. Reveal events (`BeastRevealed`, `TrapTriggered`)
carry the values in the clear. Barriers mark what revealed information or used chance;
a card played or discarded face up out of a hand the other side could not see is one too
(`revealed=True`: the table saw it and cannot un-see it).

Events carry exactly what the table shows: a trail is a token on a location, not a mark on
one of the face-down movement cards, so `TrailsPlaced` names locations only (sorted, so
their order says nothing of the cards' order), and a triggered trap is named by its zone,
card and habitat, and (rules version 7 on) by `among`, its place among the traps of its
zone in the order set: two traps in a zone may look the same to a viewer, and every view
lists the traps in the order set, so the table sees which one went (the place within the
zone, not in the whole list: it says nothing of how other zones' traps are ordered). Older
logs lack it and are read as before (the first trap that matches). Fields that did more
(`TrailsPlaced.cards`, `TrapTriggered.index`) are kept, optional, for logs from rules
version 1; they are no longer written.
"""

from __future__ import annotations

import msgspec

from skald.events.base import Event
from skald.events.secret import Secret


class Step(msgspec.Struct, frozen=True):
    """One Beast movement card: its direction (N, E, S, W, X = No Movement) and where it leads."""

    direction: str
    location: str


class TrapCard(msgspec.Struct, frozen=True):
    """A face-down trap: the card and the habitat token under it."""

    card: str
    habitat: str
    damage: int = 1


class GameSetUp(Event, frozen=True, tag="beast.game_set_up"):
    """Contract, characters, who controls each hunter, and whether it is a first game."""

    barrier = True
    contract: str
    beast: str
    hunters: tuple[str, ...]
    controllers: tuple[int, ...]
    first_time: bool = False


class DeckShuffled(Event, frozen=True, tag="beast.deck_shuffled"):
    """A deck (action, item, talent) was shuffled; its order is nobody's to see.

    An item or talent deck is shuffled from its face-down discards when it runs out."""

    barrier = True
    deck: str
    order: Secret[tuple[str, ...]]


class RowDealt(Event, frozen=True, tag="beast.row_dealt"):
    """Cards from the top of the item or talent deck were added to its face-up row."""

    barrier = True
    deck: str
    cards: tuple[str, ...]


class BeastMoved(Event, frozen=True, tag="beast.beast_moved"):
    """The Beast laid one movement card face down."""

    card: Secret[Step]


class TrailsPlaced(Event, frozen=True, kw_only=True, tag="beast.trails_placed"):
    """A check for trails: a trail token on each of `locations` (one per matching active
    card, so a location may repeat), sorted; none when nothing matched.

    Which active card each token stands for is the Beast's to know: the reducer works it out
    from the Beast's cards. `cards` (their indices) appears only in version 1 logs."""

    barrier = True
    cards: tuple[int, ...] | None = None  # field order is part of the hash
    locations: tuple[str, ...]


class BeastRevealed(Event, frozen=True, tag="beast.beast_revealed"):
    """The Beast showed its active movement cards; they and all trails are discarded."""

    barrier = True
    cards: tuple[Step, ...]
    location: str
    cause: str


class HunterPlaced(Event, frozen=True, tag="beast.hunter_placed"):
    """A hunter was placed in a settlement (at the start or when returning at night)."""

    hand: int
    location: str


class HunterMoved(Event, frozen=True, tag="beast.hunter_moved"):
    """A hunter moved one step."""

    hand: int
    location: str


class PackDealt(Event, frozen=True, tag="beast.pack_dealt"):
    """A draft pack was dealt to a seat."""

    barrier = True
    seat: int
    pack: Secret[tuple[str, ...]]


class CardSetAside(Event, frozen=True, tag="beast.card_set_aside"):
    """4 players: one action card set aside for the Beast."""

    barrier = True
    card: Secret[str]


class CardDrafted(Event, frozen=True, tag="beast.card_drafted"):
    """A seat kept a card from its pack for one of its hands (`pooled`: two players, the
    hunter player's pick, assigned to one of its hunters after the draft)."""

    seat: int
    hand: int
    card: Secret[str]
    pooled: bool = False


class CardAssigned(Event, frozen=True, tag="beast.card_assigned"):
    """Two players, after the draft: the hunter player gave a drafted card to a hunter."""

    hand: int
    card: Secret[str]


class PacksPassed(Event, frozen=True, tag="beast.packs_passed"):
    """Every pack moved one seat clockwise; each is seen by its new holder only."""

    barrier = True
    packs: tuple[Secret[tuple[str, ...]], ...]


class HandDealt(Event, frozen=True, tag="beast.hand_dealt"):
    """A hand received action cards without a draft (first game, set-aside card)."""

    barrier = True
    hand: int
    cards: Secret[tuple[str, ...]]


class DayBegan(Event, frozen=True, tag="beast.day_began"):
    """The draft is over; the day starts with the Beast."""

    day: int


class CardPlayed(Event, frozen=True, tag="beast.card_played"):
    """A hand played a card into a slot (any, ability, reaction).

    A trap item is played face down: `card` is "trap" and the name is in `hidden`.
    """

    hand: int
    card: str
    slot: str
    hidden: Secret[str] | None = None
    revealed: bool = False

    @property
    def barrier(self) -> bool:  # type: ignore[override]
        """The card (or that it is a trap) came out of a hand the other side could not see."""
        return self.revealed

    @property
    def name(self) -> str:
        """The card's name (reducers see full events)."""
        return self.hidden.get() if self.hidden is not None else self.card


class EffectChosen(Event, frozen=True, tag="beast.effect_chosen"):
    """For a 'choose one' card: the effect chosen."""

    index: int


class EffectProgressed(Event, frozen=True, tag="beast.effect_progressed"):
    """The current card's effect `index` advanced one decision, or is done (or skipped)."""

    index: int
    done: bool


class CardResolved(Event, frozen=True, tag="beast.card_resolved"):
    """The top card finished resolving and went to its discard."""

    card: str


class ReactionWindowOpened(Event, frozen=True, tag="beast.reaction_window_opened"):
    """A hunter's card may be answered by a Beast reaction before it resolves."""

    trigger: str


class ReactionWindowClosed(Event, frozen=True, tag="beast.reaction_window_closed"):
    """The Beast declined to react (or finished reacting)."""


class ReactionsInvited(Event, frozen=True, tag="beast.reactions_invited"):
    """The Beast's card may be answered by a hunter's reaction before it resolves; the
    hunters in `hands` (the living ones holding items) are asked in turn."""

    trigger: str
    hands: tuple[int, ...]


class ReactionDeclined(Event, frozen=True, tag="beast.reaction_declined"):
    """A hunter let the Beast's card resolve; the window closes after the last one."""

    hand: int


class CardDiscarded(Event, frozen=True, tag="beast.card_discarded"):
    """A hand discarded a card face up (to flee); `revealed` when it came out of a hand the
    other side could not see (an action card), which makes it an undo barrier."""

    hand: int
    card: str
    revealed: bool = False

    @property
    def barrier(self) -> bool:  # type: ignore[override]
        """The card came out of a hidden hand."""
        return self.revealed


class CardDiscardedFaceDown(Event, frozen=True, tag="beast.card_discarded_face_down"):
    """A hand discarded an item or talent face down (to flee): only its side learns which
    (rulebook "Card types and Discard": these go face down next to their deck)."""

    hand: int
    card: Secret[str]


class TurnEnded(Event, frozen=True, tag="beast.turn_ended"):
    """A hand's turn ended; `passed` when it passed."""

    hand: int
    passed: bool


class Searched(Event, frozen=True, tag="beast.searched"):
    """A hunter searched a location; `found` tells whether the Beast was there."""

    barrier = True
    hand: int
    location: str
    found: bool


class ZoneDisclosed(Event, frozen=True, tag="beast.zone_disclosed"):
    """The Beast told which zone(s) its actual location lies in."""

    barrier = True
    zones: tuple[str, ...]


class Damaged(Event, frozen=True, tag="beast.damaged"):
    """A target took damage. kind: beast, hunter, piece, summon, tower; ref names it."""

    kind: str
    ref: str
    amount: int
    by: str


class Killed(Event, frozen=True, tag="beast.killed"):
    """A target died and left the map."""

    kind: str
    ref: str
    by: str


class HunterLooted(Event, frozen=True, tag="beast.hunter_looted"):
    """The Beast took a random action card from the hunter it killed: the players see
    which (the Beast takes it, the hunters saw that hand), spectators do not."""

    barrier = True
    hand: int
    card: Secret[str]


class GrudgesGained(Event, frozen=True, tag="beast.grudges_gained"):
    """A hand gained (or paid, negative) grudges."""

    hand: int
    amount: int


class PowersGained(Event, frozen=True, tag="beast.powers_gained"):
    """A hand gained (or used, negative) ancient power tokens."""

    hand: int
    amount: int


class Healed(Event, frozen=True, tag="beast.healed"):
    """A hand removed wounds."""

    hand: int
    amount: int


class CardGained(Event, frozen=True, tag="beast.card_gained"):
    """A hand gained an item, talent or action card (from the face-up row or a deck top)."""

    barrier = True
    hand: int
    deck: str
    card: Secret[str]
    from_row: bool


class SummonPlaced(Event, frozen=True, tag="beast.summon_placed"):
    """A summon was placed (or an existing one moved there)."""

    summon: str
    location: str


class SummonMoved(Event, frozen=True, tag="beast.summon_moved"):
    """A summon moved one step."""

    summon: str
    location: str


class SummonActed(Event, frozen=True, tag="beast.summon_acted"):
    """A summon finished its action for the current summon effect."""

    summon: str


class LocationsTransformed(Event, frozen=True, tag="beast.locations_transformed"):
    """Habitat tokens placed on locations."""

    locations: tuple[str, ...]
    habitat: str


class WatchtowerPlaced(Event, frozen=True, tag="beast.watchtower_placed"):
    """A watchtower was placed (moved from `moved_from` when all were on the map)."""

    location: str
    moved_from: str = ""


class TrapSet(Event, frozen=True, tag="beast.trap_set"):
    """A trap was set in a zone; card and habitat are the hunters' secret."""

    zone: str
    trap: Secret[TrapCard]


class TrapTriggered(Event, frozen=True, kw_only=True, tag="beast.trap_triggered"):
    """The Beast was revealed on a trapped zone's habitat; the trap is shown and resolved."""

    barrier = True
    zone: str
    index: int | None = None  # version 1 logs only
    card: str
    habitat: str
    among: int | None = None  # rules version 7 on: its place among its zone's traps


class CardCopied(Event, frozen=True, tag="beast.card_copied"):
    """A hand plays the effect of a card from the common discard (it stays there)."""

    hand: int
    card: str


class NightFell(Event, frozen=True, tag="beast.night_fell"):
    """Every player passed: the night begins (rewards, reset, restore)."""

    night: int


class RewardEarned(Event, frozen=True, tag="beast.reward_earned"):
    """A side met this night's contract requirement (its reward events follow)."""

    side: str
    night: int


class NightReset(Event, frozen=True, tag="beast.night_reset"):
    """Action hands and the face-up item and talent rows discarded, abilities returned,
    wounds removed from pieces and towers. `discarded`: the action cards left in the hands,
    hand by hand, as they go face up onto the common discard (rules version 8 on; empty,
    and so not encoded, when the hands are empty, as in every older log's night)."""

    discarded: tuple[str, ...] = ()


class Upgraded(Event, frozen=True, tag="beast.upgraded"):
    """A hand unlocked an upgrade."""

    hand: int
    upgrade: str


class UpgradesDone(Event, frozen=True, tag="beast.upgrades_done"):
    """A hand finished upgrading for this night."""

    hand: int


class BeastRestored(Event, frozen=True, tag="beast.beast_restored"):
    """The Beast died but the contract gives it another life: full health."""


BeastEvent = (
    GameSetUp
    | DeckShuffled
    | RowDealt
    | BeastMoved
    | TrailsPlaced
    | BeastRevealed
    | HunterPlaced
    | HunterMoved
    | PackDealt
    | CardSetAside
    | CardDrafted
    | CardAssigned
    | PacksPassed
    | HandDealt
    | DayBegan
    | CardPlayed
    | EffectChosen
    | EffectProgressed
    | CardResolved
    | ReactionWindowOpened
    | ReactionWindowClosed
    | ReactionsInvited
    | ReactionDeclined
    | CardDiscarded
    | CardDiscardedFaceDown
    | TurnEnded
    | Searched
    | ZoneDisclosed
    | Damaged
    | Killed
    | HunterLooted
    | GrudgesGained
    | PowersGained
    | Healed
    | CardGained
    | SummonPlaced
    | SummonMoved
    | SummonActed
    | LocationsTransformed
    | WatchtowerPlaced
    | TrapSet
    | TrapTriggered
    | CardCopied
    | NightFell
    | RewardEarned
    | NightReset
    | Upgraded
    | UpgradesDone
    | BeastRestored
)
EVENT_TYPES: tuple[type, ...] = BeastEvent.__args__
