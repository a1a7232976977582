"""A signing key's fingerprint, for people to compare aloud, and the keys a reader trusts.

A fingerprint is the SHA-256 of the key's 32 bytes: the first 8 bytes as four groups of
four hex digits, then the next 4 bytes as words from a fixed list of 256 short English
words, one a byte (`1a4c 09f3 77be c2d0 otter lamp violin acorn`). Every part must match:
the words are not a spelling of the hex, they add 32 bits to its 64. `skald serve` prints
the store's at start, the lobby shows it and `GET /key` answers it; every verifier takes it
(`--trust`, the page's `#trust=` fragment) as well as the key in hex.

The same list is in the reference verifier (projections/export/verify_skald.py) and the HTML
page's check (projections/export/selfcheck.js); tests/test_fingerprint.py keeps them equal.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

WORDS: tuple[str, ...] = tuple(
    re.findall(
        r"[a-z]+",
        """
    acorn actor album amber anchor angle ankle apple apron arrow atlas attic axle badge bagel
    baker bamboo banjo barn basin beacon beard bison blade bloom bottle brick bridge broom brush
    bucket bugle button cabin cactus camel canal candle canoe carpet castle cedar chalk cherry
    chess cider circus clock cloud clover cobra comet compass copper cotton cradle crane crayon
    crown daisy dancer dingo donkey dragon drum dune eagle easel echo elbow ember engine fabric
    falcon fence fiddle finch flame flask flint flute forest fossil fox frog fudge garden garlic
    gecko ghost giant ginger glove goat goose grape gravel guitar hammer harbor harp hazel
    helmet heron honey hook hornet hotel igloo iron island ivory ivy jacket jaguar jelly jewel
    jigsaw kayak kettle kitten kiwi koala ladder ladle lagoon lake lamp lantern lava lemon
    lentil lily lizard lobster locket lotus magnet mango maple marble meadow melon mirror mitten
    monkey mosaic muffin napkin nectar needle nest nickel noodle nutmeg oak oasis ocean olive
    onion orbit orchid otter owl oyster paddle palace panda paper parrot peach pebble pencil
    pepper piano pickle pigeon pillow pilot pine planet pocket pony poppy potato prism puzzle
    quail quartz quill quilt rabbit radish raft raven ribbon rice river robin rocket ruby rudder
    saddle salmon sandal saucer scarf shark shell silver sled sloth snail socket spider spoon
    squid stamp statue sugar summit swan sword table tiger toast tomato torch tower tuba tulip
    tundra tunnel turkey turtle unicorn urchin valley velvet violin vulture wagon walnut walrus
    wand wasp water willow window wizard wolf yacht yarn yogurt zebra zipper
    """,
    )
)
"""256 short distinct English words (none written with hex digits alone), one a byte."""

_HEX_KEY = re.compile(r"[0-9a-f]{64}")
_SPOKEN = re.compile(r"(?:[0-9a-f]{4} ){4}[a-z]+(?: [a-z]+){3}")


def key_fingerprint(public_key: str) -> str:
    """The fingerprint of a public key given in hex: `1a4c 09f3 77be c2d0 otter lamp violin
    acorn`."""
    digest = hashlib.sha256(bytes.fromhex(public_key)).digest()
    groups = [digest[at : at + 2].hex() for at in (0, 2, 4, 6)]
    return " ".join(groups + [WORDS[byte] for byte in digest[8:12]])


def spelt_one_way(entry: str) -> str:
    """A key or fingerprint as the verifiers compare it: lower case, its letters and digits
    in runs joined by single spaces (`1A4C-09F3-…` and `1a4c 09f3 …` are the same)."""
    return " ".join(re.findall(r"[0-9a-z]+", entry.lower()))


def trust_entry_problem(entry: str) -> str:
    """What is wrong with `entry` as a trusted key ("" when it is a key in hex or a
    fingerprint whose words are all from the list)."""
    said = spelt_one_way(entry)
    if _HEX_KEY.fullmatch(said) or (
        _SPOKEN.fullmatch(said) and all(word in WORDS for word in said.split()[4:])
    ):
        return ""
    return (
        f"{entry!r} is neither a key (64 hex digits) nor a fingerprint (four groups of four "
        "hex digits, then four words)"
    )


def trusted_keys(entries: Iterable[str]) -> list[str]:
    """The entries of a trust file: one key or fingerprint a line; blank lines and lines
    beginning with `#` are skipped."""
    return [line.strip() for line in entries if line.strip() and not line.strip().startswith("#")]
