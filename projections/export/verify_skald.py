#!/usr/bin/env python3
"""Check a Skald export offline, with the standard library (Ed25519 through PyNaCl or
cryptography if installed): `python3 verify_skald.py [--trust KEY] [--trust-file FILE] EXPORT`.
Exit 0 verified, 1 consistent but not signed by a key you trust, or tampered / not whole, 2 a
usage error, 3 not a Skald export. Skald's docs say what it checks ("Checking an export
yourself")."""
import hashlib
import json
import re
import sys

GENESIS, DOMAIN = "0" * 64, b"skald/commitment/v1\x00"
ENVELOPE = {"stream": str, "seq": int, "recorded_at": str, "actor": str, "event": dict}
ENVELOPE |= {"prev_hash": str, "hash": str}  # the keys of an event's line, in this order
HIDDEN = ["audience", "commitment", "value", "salt"]  # a hidden value's keys, in this order
RECEIPT = {"stream": str, "seq": int, "head": str, "public_key": str, "signature": str}
SEAL = {"stream": str, "seq": int, "head": str, "record": str, "readable": str, "check": str}
SEAL |= {"page": str, "public_key": str, "signature": str}  # an HTML page's seal, in this order
HEAD, KEPT, END = "the signed head", "kept receipt", "end"  # END: an unsigned end, proves nothing
LABELS = {"receipt": HEAD, "kept_receipt": KEPT, "end": END}  # a trailer line's key: whose
VERIFIED, CONSISTENT = "verified", "consistent, but not signed by a key you trust"
TAMPERED, HEX = "tampered / not whole", re.compile(r"(?:[0-9a-fA-F]{2})*")
PARTS = {"record": (r'<script type="application/json" id="skald-record">(.*?)</script>', "record"),
         "readable": (r'<noscript id="skald-readable">(.*?)</noscript>', "readable part"),
         "check": (r"<script>(.*?)</script>", "self-check")}  # what a page's seal covers
# A fingerprint's words, one a byte: the same list as Skald's and the page's check.
WORDS = re.findall(r"[a-z]+", """
acorn actor album amber anchor angle ankle apple apron arrow atlas attic axle badge bagel baker
bamboo banjo barn basin beacon beard bison blade bloom bottle brick bridge broom brush bucket bugle
button cabin cactus camel canal candle canoe carpet castle cedar chalk cherry chess cider circus
clock cloud clover cobra comet compass copper cotton cradle crane crayon crown daisy dancer dingo
donkey dragon drum dune eagle easel echo elbow ember engine fabric falcon fence fiddle finch flame
flask flint flute forest fossil fox frog fudge garden garlic gecko ghost giant ginger glove goat
goose grape gravel guitar hammer harbor harp hazel helmet heron honey hook hornet hotel igloo iron
island ivory ivy jacket jaguar jelly jewel jigsaw kayak kettle kitten kiwi koala ladder ladle
lagoon lake lamp lantern lava lemon lentil lily lizard lobster locket lotus magnet mango maple
marble meadow melon mirror mitten monkey mosaic muffin napkin nectar needle nest nickel noodle
nutmeg oak oasis ocean olive onion orbit orchid otter owl oyster paddle palace panda paper parrot
peach pebble pencil pepper piano pickle pigeon pillow pilot pine planet pocket pony poppy potato
prism puzzle quail quartz quill quilt rabbit radish raft raven ribbon rice river robin rocket ruby
rudder saddle salmon sandal saucer scarf shark shell silver sled sloth snail socket spider spoon
squid stamp statue sugar summit swan sword table tiger toast tomato torch tower tuba tulip tundra
tunnel turkey turtle unicorn urchin valley velvet violin vulture wagon walnut walrus wand wasp
water willow window wizard wolf yacht yarn yogurt zebra zipper""")
class Tampered(Exception):
    """(stream, seq, reason): a stream's first bad seq (None: the page around it), and why."""
def canonical(value):  # compact UTF-8 JSON, keys in file order (a lone surrogate matches no hash)
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.encode("utf-8", "surrogatepass")
def sealed(value, found):  # `value` as everyone sees it: hidden values sealed (listed in `found`)
    if isinstance(value, dict) and list(value) == HIDDEN:
        found.append(value)
        sealed(value["value"], found)
        return {**value, "value": None, "salt": None}
    if isinstance(value, dict):
        return {key: sealed(item, found) for key, item in value.items()}
    return [sealed(item, found) for item in value] if isinstance(value, list) else value
def unhex(text):  # the bytes of a hex string, or None
    return bytes.fromhex(text) if isinstance(text, str) and HEX.fullmatch(text) else None
def parse(text):  # the JSON value of `text` (NaN and Infinity are not JSON), or None
    try:
        return json.loads(text, parse_constant=lambda word: 1 / 0)
    except (ValueError, TypeError, ZeroDivisionError, RecursionError):
        return None
def is_record(value, kinds):  # a JSON object with exactly the keys of `kinds`, in order, typed
    return isinstance(value, dict) and list(value) == list(kinds) and all(
        type(value[key]) is kind for key, kind in kinds.items())
def ed25519():  # a check (key, signature, message) -> bool, or None without an Ed25519 library
    try:
        from nacl.signing import VerifyKey
        return lambda key, sig, msg: VerifyKey(key).verify(msg, sig) == msg
    except ImportError:
        try:
            from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey as K
            return lambda key, sig, msg: K.from_public_bytes(key).verify(sig, msg) is None
        except ImportError:
            return None
def genuine(signed, fields, verify_signature):  # its signature over those of its fields holds
    key, signature = unhex(signed["public_key"]), unhex(signed["signature"])
    try:  # every refusal of the library is a signature that does not verify
        message = canonical({field: signed[field] for field in fields})
        return bool(key and signature and verify_signature(key, signature, message))
    except Exception:
        return False
def fingerprint(key):  # to compare aloud: SHA-256 of the key, 8 bytes in hex, the next 4 as words
    digest = hashlib.sha256(unhex(key) or b"").digest()
    groups = [digest[i:i + 2].hex() for i in (0, 2, 4, 6)]
    return " ".join(groups + [WORDS[byte] for byte in digest[8:12]])
def trusted(entries):  # the keys and fingerprints one trusts, each spelt one way; else ValueError
    found = {" ".join(re.findall(r"[0-9a-z]+", entry.lower())) for entry in entries}
    for said in found:
        if not re.fullmatch(r"[0-9a-f]{64}|([0-9a-f]{4} ){4}[a-z]+( [a-z]+){3}", said) or any(
                word not in WORDS for word in said.split()[4:]):
            raise ValueError(f"--trust {said!r}: neither a key (64 hex digits) nor a fingerprint")
    return found
def check_envelope(envelope, stream, seq, prev_hash, tally):  # one link of a chain; its hash
    if envelope["seq"] != seq:
        raise Tampered(stream, seq, f"expected seq {seq}, found {envelope['seq']}")
    if envelope["prev_hash"] != prev_hash:
        raise Tampered(stream, seq, "prev_hash does not match the previous event's hash")
    public = {key: envelope[key] for key in ("actor", "event", "recorded_at", "seq", "stream")}
    public["event"] = sealed(envelope["event"], hidden := [])
    body = bytes.fromhex(prev_hash) + canonical(public)
    if hashlib.sha256(body).hexdigest() != envelope["hash"]:
        raise Tampered(stream, seq, "hash mismatch: the event or its envelope was changed")
    for value in hidden:
        salt = unhex(value["salt"])
        tally["sealed" if value["salt"] is None else "commitments"] += 1
        digest = hashlib.sha256(DOMAIN + (salt or b"") + canonical(value["value"])).hexdigest()
        if value["salt"] is not None and (salt is None or digest != value["commitment"]):
            short = str(value["commitment"])[:12]
            raise Tampered(stream, seq, f"a hidden value does not match its commitment {short}…")
    return envelope["hash"]
def check_receipt(receipt, label, game, hashes, verify_signature):  # `hashes` extend it
    last = len(hashes)
    if not is_record(receipt, RECEIPT):
        raise Tampered(game, last, f"{label} is not a receipt (stream, seq, head, key, signature)")
    seq = receipt["seq"]
    if verify_signature and not genuine(receipt, ("head", "seq", "stream"), verify_signature):
        raise Tampered(game, seq, f"{label}'s signature does not match its contents")
    if receipt["stream"] != game:
        raise Tampered(game, seq, f"{label} is for game {receipt['stream']}, not {game}")
    if not 1 <= seq <= last:
        bad, why = (1, "seqs begin at 1") if seq < 1 else (last + 1, f"the record ends at {last}")
        raise Tampered(game, bad, f"{label} covers seq {seq}, but {why}")
    if hashes[seq - 1] != receipt["head"]:
        why = f"the head at seq {seq} is {hashes[seq - 1][:12]}…, not {receipt['head'][:12]}…"
        raise Tampered(game, seq, f"the record does not extend {label}: {why}")
    if label == HEAD and seq < last:
        raise Tampered(game, seq + 1, f"{label} covers seq {seq}, the record goes on to {last}")
def check_lines(lines, header, tally, verify_signature, trust):  # the game's envelopes, hashes
    """Every chain in file order (the game's first), then the signed head, the kept receipts."""
    game, chains, receipts, stream = header["id"], {}, {HEAD: [], KEPT: [], END: []}, header["id"]
    ended, envelopes = 0, []  # after the end mark (signed head, or unsigned end), its seq
    for number, text in enumerate(lines[1:], start=2):
        if isinstance(text, str) and not text.strip(" \t\r\n"):  # JSON's blanks only
            continue
        if ended:
            raise Tampered(game, ended, f"line {number} follows the end mark")
        line = parse(text)
        if isinstance(line, dict) and len(line) == 1 and next(iter(line)) in LABELS:
            receipts[LABELS[key := next(iter(line))]].append(line[key])
            ended = len(chains.get(game, ())) + 1 if key != "kept_receipt" else 0
            continue
        seq = len(chains.get(stream, ())) + 1  # where a line that is no next event is named
        if not is_record(line, ENVELOPE):
            raise Tampered(stream, seq, f"line {number} is not an event envelope")
        if line["stream"] != stream or not chains:
            new = line["stream"]
            known = re.fullmatch(re.escape(game) + r"(~notes|~v[1-9][0-9]*)?", new)
            if new in chains or (new == game) == bool(chains) or not known:
                raise Tampered(stream, seq, f"line {number}: stream {new} is out of place")
            stream, chains[new], made = new, [], line["event"].get("game")
            if stream == game and made != header.get("game"):
                raise Tampered(game, 1, f"the header says {header.get('game')}, the record {made}")
        hashes = chains[stream]
        prev_hash = hashes[-1] if hashes else GENESIS
        hashes.append(check_envelope(line, stream, len(hashes) + 1, prev_hash, tally))
        envelopes += [line] if stream == game else []
    tally["events"] = sum(len(hashes) for hashes in chains.values())
    if not chains:
        raise Tampered(game, 1, f"the export holds no event of game {game}")
    if not ended:
        raise Tampered(game, len(chains[game]) + 1, "no end mark (signed head): it was cut short")
    tally["head"] = "unsigned" if receipts[END] else ""  # an unsigned end proves nothing
    for head in receipts[HEAD]:
        check_receipt(head, HEAD, game, chains[game], verify_signature)
        tally.update(key_of(head, verify_signature, trust), head="signed")
    for number, receipt in enumerate(receipts[KEPT], start=1):  # counted by key
        check_receipt(receipt, f"{KEPT} {number}", game, chains[game], verify_signature)
        by = [kept for kept in tally["receipts"] if kept["key"] == receipt["public_key"]]
        tally["receipts"] += [] if by else [key_of(receipt, verify_signature, trust, count=0)]
        (by or tally["receipts"][-1:])[0]["count"] += 1
    return envelopes, chains[game]
def key_of(signed, verify_signature, trust, **more):  # who signed; is it a key the reader trusts?
    key, fingerprinted = signed["public_key"], fingerprint(signed["public_key"])
    trusts = bool(verify_signature) and (key.lower() in trust or fingerprinted in trust)
    return {"key": key, "fingerprint": fingerprinted, "trusted": trusts, **more}
def check_seal(text, game, hashes, key, verify_signature):  # an HTML page's seal (Skald's docs)
    found = re.search(r'<script type="application/json" id="skald-seal">(.*?)</script>', text, re.S)
    seal = parse(found.group(1)) if found else None
    if not is_record(seal, SEAL) or [seal["stream"], seal["seq"], seal["head"]] != [
            game, len(hashes), hashes[-1]]:
        raise Tampered(game, None, "the page has no seal for its record's head")
    if seal["public_key"] != key:
        raise Tampered(game, None, f"the page is sealed by {seal['public_key'] or 'no key'}, "
                       f"its head signed by {key or 'no key'}")
    if key and verify_signature and not genuine(seal, sorted(list(SEAL)[:7]), verify_signature):
        raise Tampered(game, None, "the page's seal's signature does not match its contents")
    for field, (pattern, name) in PARTS.items():  # the SHA-256 of each part, as written
        part = re.search(pattern, text, re.S)
        if not part or hashlib.sha256(part.group(1).encode()).hexdigest() != seal[field]:
            raise Tampered(game, None, f"the page's {name} was changed after it was sealed")
    rest = (text[:found.start(1)] + text[found.end(1):]).encode()  # all but the seal's own text
    if hashlib.sha256(rest).hexdigest() != seal["page"]:
        raise Tampered(game, None, "the page was changed after it was sealed")
DECISIONS = {"skald.move_made": "move", "skald.decision_undone": "undo",
             "skald.decision_redone": "redo", "skald.entropy_committed": "move",
             "skald.entropy_added": "move"}
def decision_text(event, scheme):  # what its seat signed (core/identity.py); None: not shown
    kind, hidden = event["type"], event.get("hidden_move") or {}
    if kind == "skald.move_made":
        return event["move"] if "move" in event else hidden.get("value")
    if kind == "skald.entropy_committed":
        return "entropy commit " + event["commitment"]
    if kind == "skald.entropy_added":
        return "entropy " + "reveal " * (scheme >= 2) + event["entropy"]
    return ""
def check_seats(envelopes, verify_signature):  # each seat signature, as core/identity.py
    created = envelopes[0]["event"] if envelopes else {}  # says; problems and counts per seat
    players, scheme = created.get("players", []), created.get("scheme", 1)
    keys, problems, seats = {}, [], {name: {"decisions": 0, "signed": 0} for name in players}
    for envelope in envelopes:
        event = envelope["event"]
        kind, seat = DECISIONS.get(event["type"]), event.get("seat")
        if kind is None or not isinstance(seat, int) or not 0 <= seat < len(players):
            continue
        signed, by, who = event.get("signed"), event.get("by") or {}, players[seat]
        seats[who]["decisions"] += 1
        if signed is None:
            if keys.get(seat) and by.get("kind", "player") == "player":
                problems.append((envelope["seq"], f"{who}'s decision is not signed by the seat"))
            continue
        key = keys.get(seat) or signed.get("key", "")
        nonce = signed.get("nonce") or (signed.get("sealed_nonce") or {}).get("value")
        text = decision_text(event, scheme)
        lines = ["skald/decision/1", f"game {envelope['stream']}", f"seat {seat}",
                 f"seq {envelope['seq'] - 1}", f"head {envelope['prev_hash']}", f"kind {kind}",
                 f"digest {signed['digest']}", f"key {key}"]
        if (keys.get(seat) and signed.get("key")) or not key:
            problems.append((envelope["seq"], f"{who}'s seat registers a second key or none"))
        elif None not in (nonce, text) and hashlib.sha512(
                f"{nonce}\n{text}".encode()).hexdigest() != signed["digest"]:
            problems.append((envelope["seq"], f"{who}'s signed digest is not that of the move"))
        elif verify_signature and not genuine_seat(key, signed, "\n".join(lines), verify_signature):
            problems.append((envelope["seq"], f"{who}'s signature does not verify"))
        else:
            keys.setdefault(seat, key)
            seats[who]["signed"] += 1
    return problems, seats
def genuine_seat(key, signed, message, verify_signature):  # a seat's signature holds
    try:
        return bool(verify_signature(unhex(key), unhex(signed["signature"]), message.encode()))
    except Exception:
        return False
def verify(text: str, trust=()) -> dict:  # the verdict on an export (ValueError: a bad trust)
    trust, page = trusted(trust), text.lstrip().startswith("<")
    text = text.replace("\r\n", "\n").replace("\r", "\n") if page else text  # as a browser reads
    html = re.search(PARTS["record"][0], text, re.S) if page else None
    lines = parse(html.group(1)) if html else text.split("\n")
    header = parse(lines[0]) if isinstance(lines, list) and lines else None
    if not isinstance(header, dict) or [header.get("format"), type(header.get("id"))] != [
            "skald-history", str]:
        return {"verdict": "not an export", "ok": False, "export": False,
                "reason": "not a Skald export (skald-history)"}
    game, verify_signature = header["id"], ed25519()
    verdict = {"verdict": TAMPERED, "ok": False, "export": True, "game": game, "head": "",
               "key": "", "fingerprint": "", "trusted": False, "receipts": [], "seats": {},
               "events": 0, "commitments": 0, "sealed": 0,
               "signatures": "checked" if verify_signature else "skipped"}
    try:
        envelopes, hashes = check_lines(lines, header, verdict, verify_signature, trust)
        if page:
            check_seal(text, game, hashes, verdict["key"], verify_signature)
        problems, verdict["seats"] = check_seats(envelopes, verify_signature)
        for seq, reason in problems[:1]:
            raise Tampered(game, seq, reason)
    except Tampered as error:
        return verdict | dict(zip(("stream", "seq", "reason"), error.args, strict=True))
    ok = verdict["head"] == "signed" and verdict["trusted"]
    return verdict | {"verdict": VERIFIED if ok else CONSISTENT, "ok": ok}
def words(verdict: dict) -> str:  # the verdict in words, as `skald verify --file` and pages say
    if not verdict["export"]:
        return f"NOT VERIFIED: {verdict['reason']}"
    skipped, head = verdict["signatures"] == "skipped", verdict["head"]
    said = {"signed": f"the head is signed by {whose(verdict, skipped)}", "": "",
            "unsigned": "the head is unsigned"}[head]
    if verdict["verdict"] == TAMPERED:
        where = f" of {verdict['stream']}" if verdict["stream"] != verdict["game"] else ""
        where = "" if verdict["seq"] is None else f" at seq {verdict['seq']}{where}"
        return f"{TAMPERED}{where}: {verdict['reason']}" + (f"; {said}" if said else "")
    parts = [said, f"{count(verdict['events'], 'event')}, "
             f"{count(verdict['commitments'], 'commitment')}"]
    parts += [f"{name}: {count(seat['decisions'], 'decision')}, {seat['signed']} signed by the "
              f"seat's own key" for name, seat in verdict["seats"].items() if seat["decisions"]]
    for kept in verdict["receipts"]:
        by = "the head's key" if kept["key"] == verdict["key"] else whose(kept, skipped)
        parts.append(f"extends {count(kept['count'], 'kept receipt')} signed by {by}")
    unchecked = [f"{count(verdict['sealed'], 'hidden value')} this viewer may not see"]
    unchecked = unchecked[:verdict["sealed"]]
    if skipped and (head == "signed" or verdict["receipts"]):
        unchecked.append("signatures (no Ed25519 library here: pip install pynacl)")
    unchecked = f"; not checked: {', '.join(unchecked)}" if unchecked else ""
    return f"{verdict['verdict']}: {'; '.join(parts)}{unchecked}"
def whose(signed, skipped):  # "KEY (FINGERPRINT), a key you trust"
    trust = "" if skipped else ", a key you trust" if signed["trusted"] else ", not a key you trust"
    return f"{signed['key']} ({signed['fingerprint']}){trust}"
def count(number, word):  # "1 event", "2 events"
    return f"{number} {word}{'s' * (number != 1)}"
def main(argv):  # verify_skald.py [--trust KEY]... [--trust-file FILE]... EXPORT
    args, trust, usage = argv[1:], [], "usage: " + __doc__.split("`")[1].removeprefix("python3 ")
    while len(args) > 2 and args[0] in ("--trust", "--trust-file"):
        if args[0] == "--trust":
            trust.append(args[1])
        else:  # one key or fingerprint a line (# begins a comment)
            with open(args[1], encoding="utf-8") as lines:
                trust += [line for line in lines if line.strip()[:1] not in ("", "#")]
        args = args[2:]
    if len(args) != 1 or args[0].startswith("--"):
        return print(usage, file=sys.stderr) or 2  # exit 2: a usage error, as `skald`'s
    with open(args[0], encoding="utf-8") as source:
        text = source.read()
    try:
        verdict = verify(text, trust)
    except ValueError as error:
        return print(f"{usage}\n{error}", file=sys.stderr) or 2
    print(words(verdict))
    return 0 if verdict["ok"] else 1 if verdict["export"] else 3
if __name__ == "__main__":
    sys.exit(main(sys.argv))
