#!/usr/bin/env python3
"""Check a Skald export offline: `python3 verify_skald.py game.jsonl` (or game.html).
Its hash chains, every revealed commitment, the end mark (cut short or added to: tampered),
the signed head and the receipts players kept, with the standard library; Ed25519 signatures
through PyNaCl or cryptography if installed, else reported as not checked. Exit 0 verified,
1 tampered, 3 not a Skald export. The format: Skald's README ("Checking an export yourself");
`skald verify --file` and the HTML export's own page give the same verdict."""

import hashlib
import json
import re
import sys

GENESIS = "0" * 64
DOMAIN = b"skald/commitment/v1\x00"
ENVELOPE = {"stream": str, "seq": int, "recorded_at": str, "actor": str, "event": dict}
ENVELOPE |= {"prev_hash": str, "hash": str}  # the keys of an event's line, in this order
HIDDEN = ["audience", "commitment", "value", "salt"]  # a hidden value's keys, in this order
RECEIPT = {"stream": str, "seq": int, "head": str, "public_key": str, "signature": str}
HEAD, KEPT, END = "the signed head", "kept receipt", "end"  # END: an unsigned end, proves nothing
LABELS = {"receipt": HEAD, "kept_receipt": KEPT, "end": END}  # a trailer line's key: whose
HEX = re.compile(r"(?:[0-9a-fA-F]{2})*")
RECORD = re.compile(r'<script type="application/json" id="skald-record">(.*?)</script>', re.S)
class Tampered(Exception):
    """(stream, seq, reason): a stream's first bad seq, and why."""
def canonical(value):
    """Compact UTF-8 JSON, keys in file order (a lone surrogate passes, matching no hash)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.encode("utf-8", "surrogatepass")

def sealed(value, found):
    """`value` as everyone sees it: hidden values sealed (appended to `found`, outer first)."""
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

def is_record(value, kinds):
    """A JSON object with exactly the keys of `kinds`, in that order, of those types."""
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

def check_envelope(envelope, stream, seq, prev_hash, tally):
    """One link of a chain: its place, its hash, its revealed values. Returns its hash."""
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

def check_receipt(receipt, label, game, hashes, verify_signature):
    """That the game's chain `hashes` extends `receipt`. Returns its public key."""
    last = len(hashes)
    if not is_record(receipt, RECEIPT):
        raise Tampered(game, last, f"{label} is not a receipt (stream, seq, head, key, signature)")
    seq = receipt["seq"]
    if verify_signature is not None:
        signed = canonical({"head": receipt["head"], "seq": seq, "stream": receipt["stream"]})
        key, signature = unhex(receipt["public_key"]), unhex(receipt["signature"])
        try:
            genuine = bool(key and signature and verify_signature(key, signature, signed))
        except Exception:  # every refusal of the library is a signature that does not verify
            genuine = False
        if not genuine:
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
    return receipt["public_key"]

def check_lines(lines, header, tally, verify_signature):
    """Every chain in file order (the game's first), then the signed head and kept receipts."""
    game, chains, receipts, stream = header["id"], {}, {HEAD: [], KEPT: [], END: []}, header["id"]
    ended = 0  # after the end mark (signed head, or unsigned end), its seq: nothing may follow
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
    tally["events"] = sum(len(hashes) for hashes in chains.values())
    if not chains:
        raise Tampered(game, 1, f"the export holds no event of game {game}")
    if not ended:
        raise Tampered(game, len(chains[game]) + 1, "no end mark (signed head): it was cut short")
    for head in receipts[HEAD]:
        tally["signer"] = check_receipt(head, HEAD, game, chains[game], verify_signature)
    for number, receipt in enumerate(receipts[KEPT], start=1):
        check_receipt(receipt, f"{KEPT} {number}", game, chains[game], verify_signature)
        tally["receipts"] += 1

def verify(text: str) -> dict:
    """The verdict on an export's text: a dict with `ok` and the fields `words` prints."""
    html = RECORD.search(text) if text.lstrip().startswith("<") else None
    lines = parse(html.group(1)) if html else text.split("\n")
    header = parse(lines[0]) if isinstance(lines, list) and lines else None
    if not isinstance(header, dict) or [header.get("format"), type(header.get("id"))] != [
            "skald-history", str]:
        return {"ok": False, "export": False, "reason": "not a Skald export (skald-history)"}
    game, verify_signature = header["id"], ed25519()
    verdict = {"ok": True, "export": True, "game": game, "signer": "", "receipts": 0, "events": 0,
               "commitments": 0, "sealed": 0, "signatures": "skipped" if not verify_signature
               else "checked"}
    try:
        check_lines(lines, header, verdict, verify_signature)
    except Tampered as error:
        verdict.update(ok=False, **dict(zip(("stream", "seq", "reason"), error.args, strict=True)))
    return verdict

def words(verdict: dict) -> str:
    """The verdict in words, as `skald verify --file` and the HTML export's page say it."""
    if not verdict["export"]:
        return f"NOT VERIFIED: {verdict['reason']}"
    if not verdict["ok"]:
        where = "" if verdict["stream"] == verdict["game"] else f" of {verdict['stream']}"
        return f"TAMPERED at seq {verdict['seq']}{where}: {verdict['reason']}"
    signer, receipts, sealed = verdict["signer"], verdict["receipts"], verdict["sealed"]
    parts = [count(verdict["events"], "event"), count(verdict["commitments"], "commitment")]
    parts.append(f"head signed by {signer[:16]}…" if signer else "head not signed")
    parts += [f"extends {count(receipts, 'kept receipt')}"] if receipts else []
    unchecked = [f"{count(sealed, 'hidden value')} this viewer may not see"][:sealed]
    if verdict["signatures"] == "skipped" and (signer or receipts):
        unchecked.append("signatures (no Ed25519 library here: pip install pynacl)")
    unchecked = f"; not checked: {', '.join(unchecked)}" if unchecked else ""
    return f"Verified: {', '.join(parts)}{unchecked}"

def count(number, word):  # "1 event", "2 events"
    return f"{number} {word}{'s' * (number != 1)}"

def main(argv):
    if len(argv) != 2:
        sys.exit("usage: python3 verify_skald.py EXPORT.jsonl|EXPORT.html")
    with open(argv[1], encoding="utf-8") as source:
        verdict = verify(source.read())
    print(words(verdict))
    return 0 if verdict["ok"] else 1 if verdict["export"] else 3

if __name__ == "__main__":
    sys.exit(main(sys.argv))
