// The seat's own key in this browser: an Ed25519 key per game and seat, made when the page
// takes the seat and kept in IndexedDB; every decision the page sends
// is signed with it (core/identity.py says the message), and the first one registers the
// key in the game's log. tweetnacl (tweetnacl.min.js, vendored) does the signing and the
// SHA-512, so a phone at the club's LAN address (plain http, where Web Crypto's Ed25519 is
// missing) signs as a laptop at 127.0.0.1 does.
"use strict";

const SkaldSeatKey = (() => {
  const DB = "skald-seat-keys";
  const STORE = "keys";
  const encoder = new TextEncoder();

  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const unhex = (text) => new Uint8Array(text.match(/../g).map((pair) => parseInt(pair, 16)));

  function open() {
    return new Promise((resolve, reject) => {
      const asked = indexedDB.open(DB, 1);
      asked.onupgradeneeded = () => asked.result.createObjectStore(STORE);
      asked.onsuccess = () => resolve(asked.result);
      asked.onerror = () => reject(asked.error);
    });
  }

  async function stored(name, make) {
    const db = await open();
    const read = await new Promise((resolve, reject) => {
      const got = db.transaction(STORE).objectStore(STORE).get(name);
      got.onsuccess = () => resolve(got.result);
      got.onerror = () => reject(got.error);
    });
    if (read || !make) return read || null;
    const seed = hex(nacl.randomBytes(32));
    await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, "readwrite");
      tx.objectStore(STORE).put(seed, name);
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    return seed;
  }

  // The seat's key pair in this browser; made now when the seat has none registered yet.
  // Kept in memory once read, so a decision after the first is signed without waiting on
  // IndexedDB: nothing the channel tells the page can come between a tap and its message.
  const pairs = new Map();
  async function pair(gameId, seat, registered) {
    const name = `${gameId}/${seat}`;
    if (!pairs.has(name)) {
      const seed = await stored(name, !registered);
      if (!seed) return null;
      pairs.set(name, nacl.sign.keyPair.fromSeed(unhex(seed)));
    }
    return pairs.get(name);
  }

  // The seat's key from the moment the page takes the seat (made now if this browser has
  // none), read into memory before any decision.
  function load(gameId, seat) {
    return pair(gameId, seat, "").catch(() => null);
  }

  // `signed` for a decision made at `seq` (chain head `head`), or null where this seat has
  // no key and none may be made. `kind`: move, undo or redo; `text`: the move as `legal`
  // lists it (empty for undo and redo). `keys`: [seat, key] of the seats that registered.
  async function sign(gameId, seat, seq, head, kind, text, keys) {
    const found = (keys || []).find(([who]) => who === seat);
    const registered = found ? found[1] : "";
    const keyPair = await pair(gameId, seat, registered);
    const key = keyPair ? hex(keyPair.publicKey) : "";
    if (!keyPair || (registered && key !== registered)) {
      throw new Error("This seat signs its decisions with a key another browser or device holds: play it from there.");
    }
    const nonce = hex(nacl.randomBytes(32));
    const digest = hex(nacl.hash(encoder.encode(`${nonce}\n${text}`)));
    const message = ["skald/decision/1", `game ${gameId}`, `seat ${seat}`, `seq ${seq}`, `head ${head}`,
      `kind ${kind}`, `digest ${digest}`, `key ${key}`].join("\n");
    const signature = hex(nacl.sign.detached(encoder.encode(message), keyPair.secretKey));
    return Object.assign({ digest, signature, nonce }, registered ? {} : { key });
  }

  return { sign, load };
})();
