// The HTML export's self-check: the page verifies the record it carries, offline.
//
// The same checks, in the same order and with the same words, as the reference verifier
// (projections/export/verify_skald.py, printed by `skald verifier`) and `skald verify
// --file`: every chain of the embedded jsonl export (#skald-record, one string a line)
// re-hashed with Web Crypto's SHA-256 from the lines' JSON, every revealed commitment, the
// signed head against the store's key (Ed25519 in Web Crypto), every receipt a player kept.
// The verdict goes in words into #skald-verdict, and as JSON into its data-verdict. Nothing
// is fetched: the page's Content-Security-Policy allows this script by its hash alone.
"use strict";
(async () => {
  const GENESIS = "0".repeat(64);
  const DOMAIN = "skald/commitment/v1\u0000";
  const ENVELOPE = { stream: "str", seq: "int", recorded_at: "str", actor: "str", event: "dict",
    prev_hash: "str", hash: "str" };
  const HIDDEN = ["audience", "commitment", "value", "salt"];
  const RECEIPT = { stream: "str", seq: "int", head: "str", public_key: "str", signature: "str" };
  const HEAD = "the signed head", KEPT = "kept receipt", END = "end";  // END proves nothing
  const LABELS = { receipt: HEAD, kept_receipt: KEPT, end: END };
  const HEX = /^(?:[0-9a-fA-F]{2})*$/;
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
  const sha256 = async (bytes) => Array.from(new Uint8Array(
    await crypto.subtle.digest("SHA-256", bytes)), (b) => b.toString(16).padStart(2, "0")).join("");

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
      const digest = await sha256(concat(utf8.encode(DOMAIN), salt || new Uint8Array(0),
        utf8.encode(canonical(value.value))));
      if (value.salt !== null && (salt === null || digest !== value.commitment)) {
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
    if (verifySignature !== null) {
      const signed = utf8.encode(canonical({ head: receipt.head, seq, stream: receipt.stream }));
      const key = unhex(receipt.public_key), signature = unhex(receipt.signature);
      let genuine;
      try {
        genuine = Boolean(key && key.length && signature && signature.length &&
          await verifySignature(key, signature, signed));
      } catch (error) {
        genuine = false;
      }
      if (!genuine) throw new Tampered(game, seq, `${label}'s signature does not match its contents`);
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
    return receipt.public_key;
  }

  async function checkLines(lines, header, tally, verifySignature) {
    const game = header.id, chains = new Map(), receipts = { [HEAD]: [], [KEPT]: [], [END]: [] };
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
    }
    tally.events = [...chains.values()].reduce((n, hashes) => n + hashes.length, 0);
    if (chains.size === 0) throw new Tampered(game, 1, `the export holds no event of game ${game}`);
    if (!ended) throw new Tampered(game, chains.get(game).length + 1, "no end mark (signed head): it was cut short");
    for (const head of receipts[HEAD]) {
      tally.signer = await checkReceipt(head, HEAD, game, chains.get(game), verifySignature);
    }
    let number = 0;
    for (const receipt of receipts[KEPT]) {
      number += 1;
      await checkReceipt(receipt, `${KEPT} ${number}`, game, chains.get(game), verifySignature);
      tally.receipts += 1;
    }
  }

  async function verify(lines) {
    const header = Array.isArray(lines) && lines.length ? parse(lines[0]) : undefined;
    if (!isDict(header) || header.format !== "skald-history" || typeof header.id !== "string") {
      return { ok: false, export: false, reason: "not a Skald export (skald-history)" };
    }
    const verifySignature = await ed25519();
    const verdict = { ok: true, export: true, game: header.id, signer: "", receipts: 0, events: 0,
      commitments: 0, sealed: 0, signatures: verifySignature ? "checked" : "skipped" };
    try {
      await checkLines(lines, header, verdict, verifySignature);
    } catch (error) {
      if (!(error instanceof Tampered)) throw error;
      Object.assign(verdict, { ok: false, stream: error.stream, seq: error.seq, reason: error.reason });
    }
    return verdict;
  }

  const count = (number, word) => `${number} ${word}${number !== 1 ? "s" : ""}`;
  function words(verdict) {
    if (!verdict.export) return `NOT VERIFIED: ${verdict.reason}`;
    if (!verdict.ok) {
      const where = verdict.stream === verdict.game ? "" : ` of ${verdict.stream}`;
      return `TAMPERED at seq ${py(verdict.seq)}${where}: ${verdict.reason}`;
    }
    const { signer, receipts, sealed: hidden } = verdict;
    const parts = [count(verdict.events, "event"), count(verdict.commitments, "commitment")];
    parts.push(signer ? `head signed by ${signer.slice(0, 16)}…` : "head not signed");
    if (receipts) parts.push(`extends ${count(receipts, "kept receipt")}`);
    const unchecked = hidden ? [`${count(hidden, "hidden value")} this viewer may not see`] : [];
    if (verdict.signatures === "skipped" && (signer || receipts)) {
      unchecked.push("signatures (this browser has no Ed25519: run verify_skald.py)");
    }
    return `Verified: ${parts.join(", ")}${unchecked.length ? `; not checked: ${unchecked.join(", ")}` : ""}`;
  }

  const shown = document.getElementById("skald-verdict");
  const record = document.getElementById("skald-record");
  let verdict;
  try {
    verdict = await verify(parse(record ? record.textContent : ""));
  } catch (error) {
    verdict = { ok: false, export: false, reason: `the check could not run (${error})` };
  }
  shown.textContent = words(verdict);
  shown.className = verdict.ok ? "verified" : "tampered";
  shown.dataset.verdict = JSON.stringify(verdict);
})();
