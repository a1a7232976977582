// A seat's own entropy at a table with entropy=seats (what `skald entropy` does, in the
// page): a secret text of 16+ characters (a random one offered), its SHA-256 commitment
// computed here in the browser and sent as `entropy commit HEX`, then, once every seat has
// committed (the service's legal move becomes `entropy reveal TEXT`), the text revealed.
// The text is kept in this browser's localStorage until it is revealed, so a reload or a
// closed tab does not lose it; the storage key names the game and a hash of the seat's
// token, never the token. Old tables (scheme 1) take the text itself: `entropy TEXT`.
"use strict";

const SkaldEntropy = (() => {
  const $ = (id) => document.getElementById(id);
  const MIN_LENGTH = 16; // core/secrecy.py ENTROPY_MIN_LENGTH
  const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
  const mine = { mode: null, send: null, busy: false, key: null };

  // -- SHA-256 ----------------------------------------------------------------------------

  // Web Crypto where the page is a secure context (https, or this machine); else the same
  // function in plain script (a phone reaching the table over the local network by http).
  async function sha256(text) {
    const bytes = new TextEncoder().encode(text);
    const digest = window.crypto && crypto.subtle ? new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)) : sha256Plain(bytes);
    return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
  }

  const K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ]);

  function sha256Plain(bytes) {
    const length = bytes.length;
    const padded = new Uint8Array(((length + 9 + 63) >> 6) << 6);
    padded.set(bytes);
    padded[length] = 0x80;
    const view = new DataView(padded.buffer);
    view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
    view.setUint32(padded.length - 4, (length << 3) >>> 0);
    const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
    const w = new Uint32Array(64);
    const rotr = (x, n) => (x >>> n) | (x << (32 - n));
    for (let block = 0; block < padded.length; block += 64) {
      for (let i = 0; i < 16; i++) w[i] = view.getUint32(block + 4 * i);
      for (let i = 16; i < 64; i++) {
        const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
        const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
      }
      let [a, b, c, d, e, f, g, hh] = h;
      for (let i = 0; i < 64; i++) {
        const t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
        const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        [hh, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
      }
      [a, b, c, d, e, f, g, hh].forEach((value, i) => { h[i] = (h[i] + value) >>> 0; });
    }
    const out = new Uint8Array(32);
    const outView = new DataView(out.buffer);
    h.forEach((value, i) => outView.setUint32(4 * i, value));
    return out;
  }

  // -- what this browser keeps -------------------------------------------------------------

  async function storageKey() {
    if (mine.key === null) mine.key = `skald.entropy.${gameId}.${(await sha256(Skald.token() || "")).slice(0, 16)}`;
    return mine.key;
  }

  async function kept() {
    try {
      return JSON.parse(localStorage.getItem(await storageKey()) || "null");
    } catch (ignored) {
      return null;
    }
  }

  async function keep(record) {
    const key = await storageKey();
    try {
      if (record) localStorage.setItem(key, JSON.stringify(record));
      else localStorage.removeItem(key);
    } catch (ignored) {
      // private browsing without storage: the text box still holds the text
    }
  }

  function randomText() {
    const bytes = crypto.getRandomValues(new Uint8Array(16)); // 128 bits, as `skald entropy`
    return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  }

  // -- the panel --------------------------------------------------------------------------

  const clean = () => $("entropy-text").value.trim();

  async function showHash() {
    const text = clean();
    const record = await kept();
    let words = text.length < MIN_LENGTH ? `type ${MIN_LENGTH - text.length} more characters` : await sha256(text);
    if (mine.mode === "reveal" && record && record.commitment && text.length >= MIN_LENGTH) {
      words += words === record.commitment ? " (matches your commitment)" : " (does NOT match your commitment)";
    }
    $("entropy-hash").textContent = words;
  }

  // Draws the panel for the entropy templates among this seat's legal moves (none: no
  // entropy owed now). `send(route, body, done)` is the page's one way to send a decision.
  async function draw(templates, send) {
    mine.send = send;
    const template = templates[0] || "";
    const record = await kept();
    const mode = template.startsWith("entropy commit") ? "commit" : template.startsWith("entropy reveal") ? "reveal" : template ? "plain" : null;
    const waiting = !mode && record && record.committed && !record.revealed;
    $("entropy").hidden = !mode && !waiting;
    $("entropy-form").hidden = !mode;
    if (mode !== mine.mode && mode) $("entropy-text").value = (record && record.text) || (mode === "commit" || mode === "plain" ? randomText() : "");
    mine.mode = mode;
    const hints = {
      commit: "Before the first draw every seat commits to a secret text: only its SHA-256 is sent now, so nobody (not even the server) can choose the chance to suit them. Keep the offered random text or type your own.",
      reveal: "Every seat has committed: reveal your text now. It must be the very text you committed to.",
      plain: "This table takes each seat's entropy as a text of your own.",
    };
    $("entropy-hint").textContent = mode ? hints[mode] : "Committed. Waiting for the other seats to commit; then you reveal your text here.";
    $("entropy-send").textContent = mode === "reveal" ? "Reveal my text" : mode === "commit" ? "Commit" : "Send";
    if (mode) await showHash();
    busy(mine.busy);
  }

  async function submit(event) {
    event.preventDefault();
    const text = clean();
    if (text.length < MIN_LENGTH) {
      $("entropy-hash").textContent = `the text needs at least ${MIN_LENGTH} characters`;
      return;
    }
    if (mine.mode === "commit") {
      const commitment = await sha256(text);
      // Kept before it is sent: the text must outlive the page once the commitment is in.
      await keep({ text, commitment, committed: true });
      await mine.send("moves", { move: `entropy commit ${commitment}` }, "Committed: the others see only the hash until every seat reveals.");
    } else if (mine.mode === "reveal") {
      const record = (await kept()) || {};
      await keep({ ...record, text, revealed: true }); // (the panel closes as the page reloads)
      if (await mine.send("moves", { move: `entropy reveal ${text}` }, "Revealed.")) await keep(null);
      else await keep({ ...record, text });
    } else if (mine.mode === "plain") {
      await mine.send("moves", { move: `entropy ${text}` }, "Entropy sent.");
    }
  }

  function busy(on) {
    mine.busy = on;
    $("entropy-send").disabled = on;
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("entropy-form").addEventListener("submit", submit);
    $("entropy-text").addEventListener("input", showHash);
  });

  return { draw, busy, sha256, sha256Plain };
})();
