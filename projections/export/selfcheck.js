// The HTML export's self-check: the page verifies the record it carries and its own seal, offline.
//
// The same checks, in the same order and with the same words, as the reference verifier
// (projections/export/verify_skald.py, printed by `skald verifier`) and `skald verify
// --file`: every chain of the embedded jsonl export (#skald-record, one string a line)
// re-hashed with Web Crypto's SHA-256 from the lines' JSON, every revealed commitment, the
// signed head (Ed25519 in Web Crypto), every receipt a player kept (counted by its key), and
// the page's seal (#skald-seal): signed by the head's key, over the SHA-256 of the record's,
// the readable part's and this script's text, and a page laid out as it was written. The
// verdict is "verified" only when the head is signed by a key the reader trusts: the
// `#trust=KEY-OR-FINGERPRINT` fragment of the page's address, or the "check against a key"
// box. The verdict goes in words into #skald-verdict, and as JSON into its data-verdict;
// the readable part (#skald-readable, a <noscript> whose text a browser keeps as written) is
// shown in #skald-shown when the page is whole. Nothing is fetched: the page's
// Content-Security-Policy allows this script by its hash alone. A page can be edited
// together with this script: the page says so, and the independent checks are the others.
"use strict";
(async () => {
  const me = document.currentScript;  // read now: it is only set while the script starts
  const GENESIS = "0".repeat(64);
  const DOMAIN = "skald/commitment/v1\u0000";
  const ENVELOPE = { stream: "str", seq: "int", recorded_at: "str", actor: "str", event: "dict",
    prev_hash: "str", hash: "str" };
  const HIDDEN = ["audience", "commitment", "value", "salt"];
  const RECEIPT = { stream: "str", seq: "int", head: "str", public_key: "str", signature: "str" };
  const SEAL = { stream: "str", seq: "int", head: "str", record: "str", readable: "str",
    check: "str", page: "str", public_key: "str", signature: "str" };
  const HEAD = "the signed head", KEPT = "kept receipt", END = "end";  // END proves nothing
  const LABELS = { receipt: HEAD, kept_receipt: KEPT, end: END };
  const VERIFIED = "verified", CONSISTENT = "consistent, but not signed by a key you trust";
  const TAMPERED = "tampered / not whole";
  const PARTS = { record: "the page's record", readable: "the page's readable part",
    check: "the page's self-check", page: "the page" };  // what the seal's digests cover
  const HEX = /^(?:[0-9a-fA-F]{2})*$/;
  const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-";
  const HONEST = "A file like this one can be edited together with its own check: in a dispute, " +
    "the independent check is <code>skald verify --file</code> or the reference script " +
    "(<code>skald verifier</code>), with the club's key.";
  const LAYOUT = ['P id="skald-verdict" role="status"', 'P id="skald-honest"',
    'NOSCRIPT id="skald-readable"', 'DIV id="skald-shown"',
    'SCRIPT type="application/json" id="skald-record"',
    'SCRIPT type="application/json" id="skald-seal"', "SCRIPT"].join("\n");
  // A fingerprint's words, one a byte: the same list as Skald's and verify_skald.py's.
  const WORDS = (
    "acorn actor album amber anchor angle ankle apple apron arrow atlas attic axle badge bagel " +
    "baker bamboo banjo barn basin beacon beard bison blade bloom bottle brick bridge broom " +
    "brush bucket bugle button cabin cactus camel canal candle canoe carpet castle cedar chalk " +
    "cherry chess cider circus clock cloud clover cobra comet compass copper cotton cradle " +
    "crane crayon crown daisy dancer dingo donkey dragon drum dune eagle easel echo elbow ember " +
    "engine fabric falcon fence fiddle finch flame flask flint flute forest fossil fox frog " +
    "fudge garden garlic gecko ghost giant ginger glove goat goose grape gravel guitar hammer " +
    "harbor harp hazel helmet heron honey hook hornet hotel igloo iron island ivory ivy jacket " +
    "jaguar jelly jewel jigsaw kayak kettle kitten kiwi koala ladder ladle lagoon lake lamp " +
    "lantern lava lemon lentil lily lizard lobster locket lotus magnet mango maple marble " +
    "meadow melon mirror mitten monkey mosaic muffin napkin nectar needle nest nickel noodle " +
    "nutmeg oak oasis ocean olive onion orbit orchid otter owl oyster paddle palace panda paper " +
    "parrot peach pebble pencil pepper piano pickle pigeon pillow pilot pine planet pocket pony " +
    "poppy potato prism puzzle quail quartz quill quilt rabbit radish raft raven ribbon rice " +
    "river robin rocket ruby rudder saddle salmon sandal saucer scarf shark shell silver sled " +
    "sloth snail socket spider spoon squid stamp statue sugar summit swan sword table tiger " +
    "toast tomato torch tower tuba tulip tundra tunnel turkey turtle unicorn urchin valley " +
    "velvet violin vulture wagon walnut walrus wand wasp water willow window wizard wolf yacht " +
    "yarn yogurt zebra zipper"
  ).split(" ");
  const utf8 = new TextEncoder();

  class Tampered extends Error {
    constructor(stream, seq, reason) {
      super(reason);
      Object.assign(this, { stream, seq, reason });
    }
  }

  // A number Python would not read as a safe int (a float such as 1e5, or a huge int) keeps
  // its source text: as Python does, the check then compares it as written.
  class Raw {
    constructor(source) {
      this.source = source;
      this.float = /[.eE]/.test(source);
    }
    toString() { return this.source; }
    toJSON() { return this.float ? this.source : Number(this.source); }
  }
  const parse = (text) => {
    try {
      return JSON.parse(text, (key, value, context) =>
        typeof value === "number" && context && context.source !== undefined &&
        (/[.eE]/.test(context.source) || !Number.isSafeInteger(value))
          ? new Raw(context.source) : value);
    } catch (error) {
      return undefined;
    }
  };
  const isDict = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Raw);
  const kind = (v) => typeof v === "string" ? "str" : isDict(v) ? "dict"
    : Number.isInteger(v) || (v instanceof Raw && !v.float) ? "int" : "other";
  const sameKeys = (v, keys) => isDict(v) && Object.keys(v).join("\u0000") === keys.join("\u0000");
  const isRecord = (v, kinds) => sameKeys(v, Object.keys(kinds)) &&
    Object.entries(kinds).every(([key, k]) => kind(v[key]) === k);
  // What Python's str() prints for a JSON value in a message.
  const py = (v) => v === undefined || v === null ? "None" : v === true ? "True" : v === false
    ? "False" : typeof v === "string" || typeof v === "number" || v instanceof Raw ? String(v)
    : JSON.stringify(v);

  // Compact JSON, object keys in the order written (Python's json.dumps, ensure_ascii off).
  const canonical = (v) => v instanceof Raw ? v.source
    : Array.isArray(v) ? `[${v.map(canonical).join(",")}]`
    : isDict(v) ? `{${Object.keys(v).map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`
    : JSON.stringify(v);
  const unhex = (text) => typeof text === "string" && HEX.test(text)
    ? Uint8Array.from(text.match(/../g) || [], (pair) => parseInt(pair, 16)) : null;
  const concat = (...parts) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
    return out;
  };
  const digest = async (bytes) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const sha256 = async (bytes) => hex(await digest(bytes));

  const sealed = (value, found) => {
    if (sameKeys(value, HIDDEN)) {
      found.push(value);
      sealed(value.value, found);
      return { ...value, value: null, salt: null };
    }
    if (isDict(value)) {
      return Object.fromEntries(Object.entries(value).map(([k, item]) => [k, sealed(item, found)]));
    }
    return Array.isArray(value) ? value.map((item) => sealed(item, found)) : value;
  };

  const ed25519 = async () => {
    try {
      await crypto.subtle.importKey("raw", new Uint8Array(32), { name: "Ed25519" }, false, ["verify"]);
    } catch (error) {
      if (error.name === "NotSupportedError") return null;
    }
    return async (key, signature, message) => {
      const imported = await crypto.subtle.importKey("raw", key, { name: "Ed25519" }, false, ["verify"]);
      return crypto.subtle.verify({ name: "Ed25519" }, imported, signature, message);
    };
  };

  // Is `signed`'s signature, over those of its fields, valid for its public key?
  async function genuine(signed, fields, verifySignature) {
    const key = unhex(signed.public_key), signature = unhex(signed.signature);
    const message = utf8.encode(canonical(Object.fromEntries(fields.map((f) => [f, signed[f]]))));
    try {
      return Boolean(key && key.length && signature && signature.length &&
        await verifySignature(key, signature, message));
    } catch (error) {
      return false;
    }
  }

  // A key to compare aloud: SHA-256 of its bytes, 8 in hex (four groups), the next 4 as words.
  async function fingerprint(key) {
    const bytes = await digest(unhex(key) || new Uint8Array(0));
    const groups = [0, 2, 4, 6].map((at) => hex(bytes.slice(at, at + 2)));
    return [...groups, ...Array.from(bytes.slice(8, 12), (b) => WORDS[b])].join(" ");
  }

  // The keys and fingerprints a reader trusts, each spelt one way, and those that are neither.
  function trusted(entries) {
    const found = new Set(), wrong = [];
    for (const entry of entries) {
      const said = (entry.toLowerCase().match(/[0-9a-z]+/g) || []).join(" ");
      const spoken = /^([0-9a-f]{4} ){4}[a-z]+( [a-z]+){3}$/.test(said) &&
        said.split(" ").slice(4).every((word) => WORDS.includes(word));
      if (/^[0-9a-f]{64}$/.test(said) || spoken) found.add(said);
      else if (said) wrong.push(entry);
    }
    return { found, wrong };
  }

  async function keyOf(signed, verifySignature, trust, more = {}) {
    const key = signed.public_key, print = await fingerprint(key);
    const trusts = Boolean(verifySignature) && (trust.has(key.toLowerCase()) || trust.has(print));
    return { key, fingerprint: print, trusted: trusts, ...more };
  }

  async function checkEnvelope(envelope, stream, seq, prevHash, tally) {
    if (envelope.seq !== seq) throw new Tampered(stream, seq, `expected seq ${seq}, found ${py(envelope.seq)}`);
    if (envelope.prev_hash !== prevHash) {
      throw new Tampered(stream, seq, "prev_hash does not match the previous event's hash");
    }
    const hidden = [];
    const pub = { actor: envelope.actor, event: sealed(envelope.event, hidden),
      recorded_at: envelope.recorded_at, seq: envelope.seq, stream: envelope.stream };
    if (await sha256(concat(unhex(prevHash), utf8.encode(canonical(pub)))) !== envelope.hash) {
      throw new Tampered(stream, seq, "hash mismatch: the event or its envelope was changed");
    }
    for (const value of hidden) {
      const salt = unhex(value.salt);
      tally[value.salt === null ? "sealed" : "commitments"] += 1;
      const hash = await sha256(concat(utf8.encode(DOMAIN), salt || new Uint8Array(0),
        utf8.encode(canonical(value.value))));
      if (value.salt !== null && (salt === null || hash !== value.commitment)) {
        const short = py(value.commitment).slice(0, 12);
        throw new Tampered(stream, seq, `a hidden value does not match its commitment ${short}…`);
      }
    }
    return envelope.hash;
  }

  async function checkReceipt(receipt, label, game, hashes, verifySignature) {
    const last = hashes.length;
    if (!isRecord(receipt, RECEIPT)) {
      throw new Tampered(game, last, `${label} is not a receipt (stream, seq, head, key, signature)`);
    }
    const seq = receipt.seq;
    if (verifySignature !== null && !await genuine(receipt, ["head", "seq", "stream"], verifySignature)) {
      throw new Tampered(game, seq, `${label}'s signature does not match its contents`);
    }
    if (receipt.stream !== game) {
      throw new Tampered(game, seq, `${label} is for game ${receipt.stream}, not ${game}`);
    }
    if (!(seq >= 1 && seq <= last)) {
      const [bad, why] = seq < 1 ? [1, "seqs begin at 1"] : [last + 1, `the record ends at ${last}`];
      throw new Tampered(game, bad, `${label} covers seq ${py(seq)}, but ${why}`);
    }
    if (hashes[seq - 1] !== receipt.head) {
      const why = `the head at seq ${seq} is ${hashes[seq - 1].slice(0, 12)}…, not ${receipt.head.slice(0, 12)}…`;
      throw new Tampered(game, seq, `the record does not extend ${label}: ${why}`);
    }
    if (label === HEAD && seq < last) {
      throw new Tampered(game, seq + 1, `${label} covers seq ${seq}, the record goes on to ${last}`);
    }
  }

  // Every chain in file order (the game's first), then the signed head and the kept receipts
  // (counted by key in `tally`). Returns the game's envelopes and its chain's hashes.
  async function checkLines(lines, header, tally, verifySignature, trust) {
    const game = header.id, chains = new Map(), receipts = { [HEAD]: [], [KEPT]: [], [END]: [] };
    const envelopes = [];
    let stream = game, ended = 0; // after the end mark (signed head, or unsigned end), its seq
    for (let index = 1; index < lines.length; index += 1) {
      const number = index + 1, text = lines[index];
      if (typeof text === "string" && /^[ \t\r\n]*$/.test(text)) continue;
      if (ended) throw new Tampered(game, ended, `line ${number} follows the end mark`);
      const line = typeof text === "string" ? parse(text) : undefined;
      const keys = isDict(line) ? Object.keys(line) : [];
      if (keys.length === 1 && Object.hasOwn(LABELS, keys[0])) {
        receipts[LABELS[keys[0]]].push(line[keys[0]]);
        ended = keys[0] !== "kept_receipt" ? (chains.get(game) || []).length + 1 : 0;
        continue;
      }
      const seq = (chains.get(stream) || []).length + 1; // where a line that is no next event is named
      if (!isRecord(line, ENVELOPE)) throw new Tampered(stream, seq, `line ${number} is not an event envelope`);
      if (line.stream !== stream || chains.size === 0) {
        const escaped = game.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        const known = new RegExp(`^${escaped}(~notes|~v[1-9][0-9]*)?$`, "su").test(line.stream);
        if (chains.has(line.stream) || (line.stream === game) === (chains.size > 0) || !known) {
          throw new Tampered(stream, seq, `line ${number}: stream ${line.stream} is out of place`);
        }
        stream = line.stream;
        chains.set(stream, []);
        const made = Object.hasOwn(line.event, "game") ? line.event.game : null;
        const said = Object.hasOwn(header, "game") ? header.game : null;
        if (stream === game && made !== said) {
          throw new Tampered(game, 1, `the header says ${py(said)}, the record ${py(made)}`);
        }
      }
      const hashes = chains.get(stream);
      const prevHash = hashes.length ? hashes[hashes.length - 1] : GENESIS;
      hashes.push(await checkEnvelope(line, stream, hashes.length + 1, prevHash, tally));
      if (stream === game) envelopes.push(line);
    }
    tally.events = [...chains.values()].reduce((n, hashes) => n + hashes.length, 0);
    if (chains.size === 0) throw new Tampered(game, 1, `the export holds no event of game ${game}`);
    if (!ended) throw new Tampered(game, chains.get(game).length + 1, "no end mark (signed head): it was cut short");
    if (receipts[END].length) tally.head = "unsigned";  // an unsigned end proves nothing
    for (const head of receipts[HEAD]) {
      await checkReceipt(head, HEAD, game, chains.get(game), verifySignature);
      Object.assign(tally, await keyOf(head, verifySignature, trust), { head: "signed" });
    }
    let number = 0;
    for (const receipt of receipts[KEPT]) {
      number += 1;
      await checkReceipt(receipt, `${KEPT} ${number}`, game, chains.get(game), verifySignature);
      let by = tally.receipts.find((kept) => kept.key === receipt.public_key);
      if (!by) tally.receipts.push(by = await keyOf(receipt, verifySignature, trust, { count: 0 }));
      by.count += 1;
    }
    return [envelopes, chains.get(game)];
  }

  // Is the page laid out as it was written: nothing added around its parts, its sentence
  // about itself and its Content-Security-Policy (which allows this script alone) as sealed?
  async function laidOut() {
    const outline = (el) => [el.tagName, ...Array.from(el.attributes, (a) => `${a.name}="${a.value}"`)].join(" ");
    const blank = (node) => node.nodeType === Node.ELEMENT_NODE ||
      (node.nodeType === Node.TEXT_NODE && /^[ \t\r\n]*$/.test(node.data));
    const hash = btoa(String.fromCharCode(...await digest(utf8.encode(me.textContent))));
    const [charset, policy, title] = document.head.children;
    return [document.head, document.body].every((part) => [...part.childNodes].every(blank)) &&
      outline(document.documentElement) === 'HTML lang="en"' && document.body.attributes.length === 0 &&
      document.head.children.length === 3 && outline(charset) === 'META charset="utf-8"' &&
      outline(policy) === `META http-equiv="Content-Security-Policy" content="${CSP}${hash}'"` &&
      outline(title) === "TITLE" && [...document.body.children].map(outline).join("\n") === LAYOUT &&
      document.getElementById("skald-honest").innerHTML === HONEST;
  }

  // The page's seal: for the game's last seq and head, by the head's key (none for an unsigned
  // end), over the SHA-256 of the page's parts; and the page laid out as written.
  async function checkSeal(game, hashes, key, verifySignature, parts) {
    const seal = parse(parts.seal);
    if (!isRecord(seal, SEAL) || seal.stream !== game || seal.seq !== hashes.length ||
        seal.head !== hashes[hashes.length - 1]) {
      throw new Tampered(game, null, "the page has no seal for its record's head");
    }
    if (seal.public_key !== key) {
      throw new Tampered(game, null, `the page is sealed by ${seal.public_key || "no key"}, ` +
        `its head signed by ${key || "no key"}`);
    }
    const signed = Object.keys(SEAL).slice(0, 7).sort();
    if (key && verifySignature !== null && !await genuine(seal, signed, verifySignature)) {
      throw new Tampered(game, null, "the page's seal's signature does not match its contents");
    }
    for (const [field, name] of Object.entries(PARTS)) {
      const whole = field === "page" ? parts.laidOut : await sha256(utf8.encode(parts[field])) === seal[field];
      if (!whole) throw new Tampered(game, null, `${name} was changed after it was sealed`);
    }
  }

  // Every seat signature, as core/identity.py says it and verify_skald.py checks it: from
  // the game's decoded envelopes in seq order, the problems found, as [seq, reason], and per
  // seat its decisions and how many its own key signed.
  const DECISIONS = { "skald.move_made": "move", "skald.decision_undone": "undo",
    "skald.decision_redone": "redo", "skald.entropy_committed": "move", "skald.entropy_added": "move" };
  function decisionText(event, scheme) {
    const hidden = event.hidden_move || {};
    if (event.type === "skald.move_made") return "move" in event ? event.move : hidden.value;
    if (event.type === "skald.entropy_committed") return `entropy commit ${event.commitment}`;
    if (event.type === "skald.entropy_added") return `entropy ${scheme >= 2 ? "reveal " : ""}${event.entropy}`;
    return "";
  }
  async function checkSeats(envelopes, verifySignature) {
    const created = envelopes.length ? envelopes[0].event : {};
    const players = created.players || [], scheme = created.scheme || 1;
    const keys = {}, problems = [], seats = {};
    for (const name of players) seats[name] = { decisions: 0, signed: 0 };
    for (const envelope of envelopes) {
      const event = envelope.event, kind = DECISIONS[event.type], seat = event.seat;
      if (!kind || !Number.isInteger(seat) || seat < 0 || seat >= players.length) continue;
      const signed = event.signed, by = event.by || {}, who = players[seat];
      seats[who].decisions += 1;
      if (!signed) {
        if (keys[seat] && (by.kind || "player") === "player") problems.push([envelope.seq, `${who}'s decision is not signed by the seat`]);
        continue;
      }
      const key = keys[seat] || signed.key || "";
      const nonce = signed.nonce || (signed.sealed_nonce || {}).value;
      const moveText = decisionText(event, scheme);
      const message = ["skald/decision/1", `game ${envelope.stream}`, `seat ${seat}`, `seq ${envelope.seq - 1}`,
        `head ${envelope.prev_hash}`, `kind ${kind}`, `digest ${signed.digest}`, `key ${key}`].join("\n");
      if ((keys[seat] && signed.key) || !key) {
        problems.push([envelope.seq, `${who}'s seat registers a second key or none`]);
      } else if (nonce != null && moveText != null &&
          hex(new Uint8Array(await crypto.subtle.digest("SHA-512", utf8.encode(`${nonce}\n${moveText}`)))) !== signed.digest) {
        problems.push([envelope.seq, `${who}'s signed digest is not that of the move`]);
      } else if (verifySignature && !(await seatSignatureHolds(key, signed.signature, message, verifySignature))) {
        problems.push([envelope.seq, `${who}'s signature does not verify`]);
      } else {
        keys[seat] = keys[seat] || key;
        seats[who].signed += 1;
      }
    }
    return [problems, seats];
  }
  async function seatSignatureHolds(key, signature, message, verifySignature) {
    try {
      return Boolean(await verifySignature(unhex(key), unhex(signature), utf8.encode(message)));
    } catch (error) {
      return false;
    }
  }

  async function verify(parts, trust) {
    const lines = parse(parts.record);
    const header = Array.isArray(lines) && lines.length ? parse(lines[0]) : undefined;
    if (!isDict(header) || header.format !== "skald-history" || typeof header.id !== "string") {
      return { verdict: "not an export", ok: false, export: false, reason: "not a Skald export (skald-history)" };
    }
    const verifySignature = await ed25519(), game = header.id;
    const verdict = { verdict: TAMPERED, ok: false, export: true, game, head: "", key: "",
      fingerprint: "", trusted: false, receipts: [], seats: {}, events: 0, commitments: 0,
      sealed: 0, signatures: verifySignature ? "checked" : "skipped" };
    try {
      const [envelopes, hashes] = await checkLines(lines, header, verdict, verifySignature, trust);
      await checkSeal(game, hashes, verdict.key, verifySignature, parts);
      const [problems, seats] = await checkSeats(envelopes, verifySignature);
      verdict.seats = seats;
      for (const [seq, reason] of problems.slice(0, 1)) throw new Tampered(game, seq, reason);
    } catch (error) {
      if (!(error instanceof Tampered)) throw error;
      return Object.assign(verdict, { stream: error.stream, seq: error.seq, reason: error.reason });
    }
    const ok = verdict.head === "signed" && verdict.trusted;
    return Object.assign(verdict, { verdict: ok ? VERIFIED : CONSISTENT, ok });
  }

  const count = (number, word) => `${number} ${word}${number !== 1 ? "s" : ""}`;
  const whose = (signed, skipped) => `${signed.key} (${signed.fingerprint})` +
    (skipped ? "" : signed.trusted ? ", a key you trust" : ", not a key you trust");
  function words(verdict) {
    if (!verdict.export) return `NOT VERIFIED: ${verdict.reason}`;
    const skipped = verdict.signatures === "skipped", head = verdict.head;
    const said = { signed: `the head is signed by ${whose(verdict, skipped)}`, "": "",
      unsigned: "the head is unsigned" }[head];
    if (verdict.verdict === TAMPERED) {
      const of = verdict.stream === verdict.game ? "" : ` of ${verdict.stream}`;
      const where = verdict.seq === null ? "" : ` at seq ${py(verdict.seq)}${of}`;
      return `${TAMPERED}${where}: ${verdict.reason}${said ? `; ${said}` : ""}`;
    }
    const parts = [said, `${count(verdict.events, "event")}, ${count(verdict.commitments, "commitment")}`];
    for (const [name, seat] of Object.entries(verdict.seats)) {
      if (seat.decisions) parts.push(`${name}: ${count(seat.decisions, "decision")}, ${seat.signed} signed by the seat's own key`);
    }
    for (const kept of verdict.receipts) {
      const by = kept.key === verdict.key ? "the head's key" : whose(kept, skipped);
      parts.push(`extends ${count(kept.count, "kept receipt")} signed by ${by}`);
    }
    const unchecked = verdict.sealed ? [`${count(verdict.sealed, "hidden value")} this viewer may not see`] : [];
    if (skipped && (head === "signed" || verdict.receipts.length)) {
      unchecked.push("signatures (this browser has no Ed25519: run verify_skald.py)");
    }
    return `${verdict.verdict}: ${parts.join("; ")}${unchecked.length ? `; not checked: ${unchecked.join(", ")}` : ""}`;
  }

  // What the page carries, read once before anything is drawn: the texts its seal covers, as
  // the browser holds them, and whether the page is laid out as it was written.
  const text = (id) => { const el = document.getElementById(id); return el ? el.textContent : ""; };
  const parts = { record: text("skald-record"), readable: text("skald-readable"),
    check: me ? me.textContent : "", seal: text("skald-seal"), laidOut: await laidOut() };
  const shown = document.getElementById("skald-verdict");
  const heading = document.title;
  const COLOURS = { [VERIFIED]: ["#2a7a2a", "#1d5e1d"], [CONSISTENT]: ["#b07a00", "#7a5200"] };

  // The "check against a key" box, and the keys from the address's #trust= fragment.
  const box = document.createElement("p");
  const label = document.createElement("label"), input = document.createElement("input");
  const button = document.createElement("button"), note = document.createElement("span");
  label.append("Check against a key (hex, or its fingerprint; several: commas) ", input);
  input.id = "skald-trust";
  input.size = 60;
  button.type = "button";
  button.textContent = "Check";
  box.append(label, " ", button, " ", note);

  let drawn = false;
  async function check() {
    const fragment = new URLSearchParams(location.hash.slice(1)).getAll("trust");
    const { found, wrong } = trusted([...fragment, ...input.value.split(/[,;\n]/)]);
    note.textContent = wrong.length ? `neither a key nor a fingerprint: ${wrong.join(", ")}` : "";
    let verdict;
    try {
      verdict = await verify(parts, found);
    } catch (error) {
      verdict = { verdict: "not an export", ok: false, export: false, reason: `the check could not run (${error})` };
    }
    shown.textContent = words(verdict);
    const [border, colour] = COLOURS[verdict.verdict] || ["#b02020", "#8a1515"];
    Object.assign(shown.style, { fontWeight: "bold", padding: ".5rem .8rem", border: `2px solid ${border}`, color: colour });
    shown.className = verdict.ok ? "verified" : verdict.verdict === CONSISTENT ? "consistent" : "tampered";
    if (verdict.export && verdict.verdict !== TAMPERED && !drawn) {  // the readable part it checked
      drawn = true;
      document.getElementById("skald-shown").innerHTML = parts.readable;
    }
    const h1 = document.querySelector("#skald-shown h1");
    document.title = `${verdict.verdict === TAMPERED ? "TAMPERED: " : ""}${drawn && h1 ? h1.textContent : heading}`;
    shown.dataset.verdict = JSON.stringify(verdict);
  }
  await check();
  shown.after(box);
  button.addEventListener("click", check);
  input.addEventListener("keydown", (event) => { if (event.key === "Enter") check(); });
  window.addEventListener("hashchange", check);
})();
