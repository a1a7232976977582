"""The narrative, over random engine games of every game (the conformance suite's games,
with their random undos): every event has a sentence for every viewer, in the game's
words (no event tag, field name or id), and a viewer's sentences ignore what it may not
see (the values hidden from it doctored, as the conformance suite doctors them).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from skald.core.beast.data import contracts
from skald.core.beowulf.printed import tile_words
from skald.core.hagar.data import board_data, pieces
from skald.events.beowulf import TileDrawn
from skald.events.envelope import Envelope
from skald.events.secret import redact
from skald.events.viewer import REFEREE, SPECTATOR, Viewer, seat_viewer
from skald.projections.hagar.narrative import loot_words, place_words
from skald.projections.narrative import INTERNAL_WORDS, Narrator
from skald.projections.narrative.common import humane
from tests.test_conformance import doctor_hidden, full_log, played

GAMES = ("beowulf", "beast", "hagar")
FOLDER = Path(__file__).parent.parent / "fixtures" / "annotated"
UNITS = (
    r"(?:points?|waves?|pieces?|lightning|cards?|arrows?|wounds?|grudges?|ancient|action"
    r"|tiles?|saga|diamonds?|×)"
)


def every_viewer(game: str) -> list[Viewer]:
    record = played(game)
    players = record.engine.load(record.game_id).players
    return [*(seat_viewer(s) for s in range(len(players))), SPECTATOR, REFEREE]


def told(game: str, envelopes: list[Envelope[Any]], viewer: Viewer) -> list[str]:
    record = played(game)
    players = record.engine.load(record.game_id).players
    return Narrator(game, players).tell(redact(env, viewer) for env in envelopes)


def internal(sentence: str, game: str) -> list[str]:
    """What in a sentence is an internal name or id."""
    found = [m.group(0) for m in INTERNAL_WORDS.finditer(sentence)]
    found += re.findall(r"\b(?:beowulf|beast|hagar|skald)\.\w+", sentence)
    if game == "hagar":  # a number must be a count, a printed value or a place's number
        bare = sentence
        for space in board_data().spaces:
            bare = bare.replace(place_words(space.id), "")
        for piece in pieces():
            bare = bare.replace(loot_words(piece.id), "")
        bare = re.sub(r"\(\d+\)", "", bare)
        found += [m.group(0) for m in re.finditer(rf"(?<!place )\b\d+\b(?! {UNITS})", bare)]
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_event_has_a_sentence_in_the_games_words_for_every_viewer(game: str) -> None:
    envelopes = full_log(game)
    for viewer in every_viewer(game):
        sentences = told(game, envelopes, viewer)
        assert len(sentences) == len(envelopes)
        for envelope, sentence in zip(envelopes, sentences, strict=True):
            where = f"{game} seq {envelope.seq} as {viewer.name}: {sentence!r}"
            assert sentence, where
            assert sentence != humane(envelope.event), where
            assert not internal(sentence, game), (where, internal(sentence, game))


@pytest.mark.parametrize("game", GAMES)
def test_a_viewers_narrative_ignores_what_it_may_not_see(game: str) -> None:
    envelopes = full_log(game)
    rnd = random.Random(3)
    differs = False
    for viewer in every_viewer(game):
        doctored = [doctor_hidden(env, viewer, rnd) for env in envelopes]
        shown = told(game, envelopes, viewer)
        assert told(game, doctored, viewer) == shown, viewer.name
        differs |= shown != told(game, envelopes, REFEREE)
    assert differs, f"{game}: every viewer was told everything"


def test_a_drawn_tile_is_named_for_its_holder_only() -> None:
    envelopes = full_log("beowulf")
    drawn = next(env for env in envelopes if isinstance(env.event, TileDrawn))
    holder = drawn.event.seat
    players = played("beowulf").engine.load(played("beowulf").game_id).players
    face = tile_words(drawn.event.tile.get())
    for viewer in every_viewer("beowulf"):
        sentence = told("beowulf", envelopes[: drawn.seq], viewer)[-1]
        sees = viewer.referee or holder in viewer.seats
        assert sentence.startswith(f"{players[holder]} drew a tile")
        assert (f"({face})" in sentence) == sees, (viewer.name, sentence)


@pytest.mark.parametrize("suffix", ["md", "html"])
@pytest.mark.parametrize("game", GAMES)
def test_the_readable_golden_exports_speak_the_games_words(game: str, suffix: str) -> None:
    text = (FOLDER / f"{game}.{suffix}").read_text(encoding="utf-8")
    words = re.sub(r"<svg.*?</svg>", "", text, flags=re.S)  # the boards draw, they do not say
    words = re.sub(r"<style>.*?</style>", "", words, flags=re.S)
    # The self-check's embedded record and script, and its verdict (which names the
    # verifier's command), are evidence for programs, not the page's words.
    words = re.sub(r"<script.*?</script>", "", words, flags=re.S)
    words = re.sub(r'<p id="skald-verdict".*?</p>', "", words, flags=re.S)
    words = re.sub(r"<[^>]+>", " ", words)  # the HTML's own markup
    assert not [m.group(0) for m in INTERNAL_WORDS.finditer(words)]
    assert "A game of " in words  # the deal and the moves are told


def test_the_beast_contract_is_named_by_its_title() -> None:
    """`The contract is The Great Cleansing.`, as the card reads, not its id with spaces
    (`great cleansing`, found by a review)."""
    record = played("beast")
    players = record.engine.load(record.game_id).players
    told = Narrator("beast", players).tell(full_log("beast"))
    setup = next(line for line in told if "The contract is" in line)
    titles = {contract.title for contract in contracts().values()}
    assert any(f"The contract is {title}." in setup for title in titles), setup
