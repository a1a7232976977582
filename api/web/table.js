// A game's table: the board as the viewer sees it, its legal moves (on the board and as a
// list), undo/redo, replay, live updates, switching viewer, the audit, and the annotated
// history (notes on their moves, markup on the board, variations; see notes.js). Everything
// shown comes from the service already projected for this page's viewer.
"use strict";

(() => {
  const { el, json, text, path, request, ApiError, AUDIT_LATER } = Skald;
  const $ = (id) => document.getElementById(id);
  const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
  const base = path`/games/${gameId}`;
  const state = {
    game: "", players: [], viewerName: "", seat: null, referee: false, head: null,
    latest: 0, at: null, toAct: [], outcome: null, partial: "", lookAs: null,
    legal: [], ticket: 0, autoplay: null,
    variation: null, vat: null, notesLoaded: false,
    log: { who: null, upTo: 0, over: false, lines: [] }, // readTable: the page's copy of the log
    board: { key: null, svg: "" }, // readTable: the drawing of the position shown
  };
  const notes = SkaldNotes;
  const controls = SkaldControls; // the legal moves, undo/redo, sending (controls.js)

  // In a variation (read-only replay) the replay steps through its seqs instead.
  const lastSeq = () => (state.variation ? state.variation.seq : state.latest);
  const atEnd = () => (state.variation ? state.vat === null : state.at === null);
  const shownSeq = () => {
    if (state.variation) return state.vat === null ? state.variation.seq : state.vat;
    return state.at === null ? state.latest : state.at;
  };

  function say(textValue, kind) {
    const box = $("message");
    box.className = kind === "info" ? "message info" : "message";
    box.textContent = textValue || "";
  }

  function query(extra) {
    const params = new URLSearchParams();
    if (state.variation) {
      params.set("variation", state.variation.id);
      params.set("at", String(shownSeq()));
    } else if (state.at !== null) params.set("at", String(state.at));
    if (state.lookAs) params.set("as", state.lookAs);
    for (const [k, v] of Object.entries(extra || {})) params.set(k, v);
    const q = params.toString();
    return q ? `?${q}` : "";
  }

  // -- reading ---------------------------------------------------------------------------

  // refresh(): bring the page to what the service holds now. Loads run one at a time and
  // coalesce (a refresh asked for while one runs is done once, right after it); the promise
  // settles once the page shows everything asked for until then. While the live channel is
  // open its frames say where the game is (no summary read); then one read brings what
  // changed (readTable), and the notes are read only when asked (the notes' own actions,
  // the channel's welcome and its notes frames, a variation).
  const loads = { asked: 0, done: 0, running: null, notes: false };

  function refresh(options) {
    loads.asked += 1;
    if (options && options.notes) loads.notes = true;
    if (!loads.running) {
      loads.running = (async () => {
        while (loads.done < loads.asked) {
          const asked = loads.asked;
          const notesToo = loads.notes;
          loads.notes = false;
          await load(notesToo);
          loads.done = asked;
        }
        loads.running = null;
      })();
    }
    return loads.running;
  }

  const refreshAll = () => refresh({ notes: true });

  async function readNotes() {
    const [annotated, branches] = await Promise.all([json(`${base}/annotations`), json(`${base}/variations`)]);
    notes.update(annotated.annotations, branches.variations);
    state.notesLoaded = true;
    if (state.variation) {
      const wanted = state.variation.id;
      state.variation = branches.variations.find((v) => v.id === wanted) || null;
      if (!state.variation) {
        state.vat = null;
        say(`This game has no variation “${wanted}” that you may see: showing the game itself.`, "info");
      }
      else if (state.vat !== null && state.vat >= state.variation.seq) state.vat = null;
    }
  }

  // What the page draws, in one read (GET /games/ID/table): the board for the position
  // shown (read again only when that position, the viewer looked as, or the game's end
  // changed), the log up to the last seq (the page's copy, with only the lines since its
  // end read again: a few before it too, as a section's end line names its final position
  // from the lines just before it; read whole once the game is over), and a seat's legal
  // moves with undo and redo when it may act. Resolves to [svg, lines, legal or null].
  const OVERLAP = 30;
  async function readTable(mayAct) {
    const who = state.lookAs || "";
    const over = Boolean(state.outcome);
    const boardKey = query() + (over ? "#over" : "") + (state.at === null && !state.variation ? `#${state.latest}` : "");
    const log = state.log;
    const sameLog = log.who === who && log.over === over;
    const needBoard = state.board.key !== boardKey;
    const needLines = !state.variation && !(sameLog && log.upTo === state.latest);
    if (!needBoard && !needLines && !mayAct) return [state.board.svg, state.variation ? state.variation.lines : log.lines, null];
    const from = sameLog ? Math.max(1, Math.min(log.upTo, state.latest) - OVERLAP) : 1;
    const extra = {};
    if (!needBoard) extra.board = "false";
    if (needLines) Object.assign(extra, { from: String(from), upto: String(state.latest) });
    if (mayAct) extra.legal = "true";
    const read = await json(`${base}/table${query(extra)}`);
    if (needBoard) state.board = { key: boardKey, svg: read.board };
    if (needLines) {
      const lines = (sameLog ? log.lines.filter((line) => line.seq < from) : []).concat(read.lines);
      state.log = { who, upTo: state.latest, over, lines };
    }
    return [state.board.svg, state.variation ? state.variation.lines : state.log.lines, read.legal];
  }

  async function load(notesToo) {
    const ticket = ++state.ticket;
    try {
      if (!channel.synced) {
        const summary = await json(base);
        state.latest = summary.seq;
        state.toAct = summary.to_act;
        state.outcome = summary.outcome;
        state.partial = summary.partial || ""; // a partial copy: nobody acts, ever
      }
      if (state.at !== null && state.at >= state.latest) state.at = null;
      const notesRead = notesToo || !state.notesLoaded || state.variation ? readNotes() : null;
      if (state.variation) await notesRead; // its seq and lines come with the variations
      const mayAct = !state.variation && state.seat !== null && state.at === null && !state.outcome && !state.partial; // undo/redo too
      const [[svg, lines, legal]] = await Promise.all([readTable(mayAct), notesRead]);
      if (ticket !== state.ticket) return; // a newer load is under way
      state.legalAnswer = legal && legal.seq === state.latest ? legal : null;
      heard(state.legalAnswer);
      state.legal = state.legalAnswer ? state.legalAnswer.moves : [];
      if (controls.boardChanged(svg, state.legal)) drawBoard(svg);
      else $("board").querySelectorAll("g.markup").forEach((layer) => layer.remove());
      notes.drawMarks($("board").querySelector("svg"), stream(), shownSeq());
      drawLog(lines);
      notes.drawPanels(notesContext());
      drawStatus();
      drawPlay();
      showPossible(ticket);
    } catch (error) {
      if (ticket === state.ticket) say(error.message);
    }
  }

  // Where the page is in the annotated history: the stream shown and its anchor words.
  function stream() {
    return state.variation ? state.variation.id : "game";
  }

  function notesContext() {
    return {
      base, stream: stream(), seq: shownSeq(), variation: state.variation, players: state.players,
      canWrite: Boolean(Skald.token()) && (state.seat !== null || state.referee), referee: state.referee,
      legal: state.variation || state.at !== null ? [] : state.legal,
      say, refresh: refreshAll, openVariation, closeVariation,
    };
  }

  function openVariation(id, seq) {
    stopAutoplay();
    closeMenu();
    state.variation = { id, seq: seq || 1, lines: [] };
    state.vat = null;
    refresh();
  }

  function closeVariation() {
    stopAutoplay();
    state.variation = null;
    state.vat = null;
    refresh();
  }

  // -- the board -------------------------------------------------------------------------

  function placesOf(moves, board) {
    const names = new Set([...board.querySelectorAll("[data-at]")].map((node) => node.dataset.at));
    const places = new Map();
    for (const move of moves) {
      for (const word of move.split(/\s+/)) {
        if (!names.has(word)) continue;
        if (!places.has(word)) places.set(word, []);
        if (!places.get(word).includes(move)) places.get(word).push(move);
      }
    }
    return places;
  }

  // What could be true for this page's viewer (GET /possible, as it stood at the shown
  // seq), read while its panel is open: its text, and where the hidden Beast may be shaded
  // on the board with their count (the hunters' view). The referee, who sees everything,
  // has no such panel of its own; looking as a seat (or a spectator), it reads that one's:
  // what Bob could have known at this seq.
  function showPossible(ticket) {
    const panel = $("possible");
    const asReferee = state.lookAs ? state.lookAs === "referee" : state.referee;
    panel.hidden = Boolean(state.variation || asReferee);
    if (panel.hidden || !panel.open) return;
    const params = new URLSearchParams();
    if (state.at !== null) params.set("at", state.at);
    if (state.lookAs) params.set("as", state.lookAs);
    const query = params.toString() ? `?${params}` : "";
    json(`${base}/possible${query}`).catch(() => null).then((known) => {
      if (ticket === state.ticket) drawPossible(known);
    });
  }

  function possiblePlaces(known) {
    // Beast: `beast` lists [location, share] where the hidden Beast may be (null when seen)
    if (known && Array.isArray(known.beast)) return known.beast.map((pair) => pair[0]);
    return [];
  }

  function drawPossible(answer) {
    if (!answer) return;
    if ($("possible-text").textContent !== answer.text) $("possible-text").textContent = answer.text;
    const places = possiblePlaces(answer.possible);
    $("possible-count").textContent = places.length
      ? `The Beast may be on ${places.length === 1 ? "1 location" : `${places.length} locations`}, outlined on the board.`
      : "";
    const svg = $("board").querySelector("svg");
    for (const place of places) {
      svg && svg.querySelectorAll(`[data-at="${CSS.escape(place)}"]`).forEach((node) => node.classList.add("possible-place"));
    }
  }

  // A board place's printed name by its notation (`hamburg-port` -> `Hamburg`), from the
  // titles of the board's places (those named apart from their notation).
  const placeNames = new Map();

  function drawBoard(svgText) {
    const parsed = new DOMParser().parseFromString(svgText, "image/svg+xml");
    const svg = document.importNode(parsed.documentElement, true);
    const holder = $("board");
    holder.replaceChildren(svg);
    const places = placesOf(state.legal, svg);
    state.places = places;
    for (const node of svg.querySelectorAll("g.place[data-at] > title")) {
      const cut = node.textContent.lastIndexOf(" ("); // `Hägar's fjord (west) (home)`
      if (cut > 0) placeNames.set(node.parentNode.dataset.at, node.textContent.slice(0, cut));
    }
    for (const [at, moves] of places) {
      const nodes = svg.querySelectorAll(`[data-at="${CSS.escape(at)}"]`);
      nodes.forEach((node, i) => {
        node.classList.add("playable");
        if (i === nodes.length - 1) { // the topmost: what a pointer hits
          node.setAttribute("tabindex", "0");
          node.setAttribute("role", "button");
          node.setAttribute("aria-label", `${at}: ${moves.length === 1 ? moves[0] : `${moves.length} moves`}`);
        }
      });
    }
  }

  function onBoardActivate(event) {
    const node = event.target.closest && event.target.closest("[data-at]");
    if (node && notes.picking()) {
      event.preventDefault();
      return notes.pick(node.dataset.at);
    }
    if (!node || !state.places || !controls.ready()) return;
    const moves = state.places.get(node.dataset.at);
    if (!moves) return;
    event.preventDefault();
    if (moves.length === 1) play(moves[0]);
    else openMenu(moves, node);
  }

  function openMenu(moves, anchor) {
    const menu = $("menu");
    const box = anchor.getBoundingClientRect();
    menu.replaceChildren(
      ...moves.map((move) => el("button", { type: "button", class: "move", onclick: () => { closeMenu(); play(move); } }, move)),
      el("button", { type: "button", onclick: closeMenu }, "Cancel"),
    );
    menu.style.left = `${Math.min(box.right + 4, window.innerWidth - 220)}px`;
    menu.style.top = `${Math.max(8, Math.min(box.top, window.innerHeight - 40 * (moves.length + 1)))}px`;
    menu.hidden = false;
    menu.returnFocus = anchor;
    menu.querySelector("button").focus();
  }

  function closeMenu() {
    const menu = $("menu");
    if (menu.hidden) return;
    menu.hidden = true;
    if (menu.returnFocus && menu.returnFocus.isConnected) menu.returnFocus.focus();
  }

  // -- status, moves, log ----------------------------------------------------------------

  function names(seats) {
    return seats.map((seat) => state.players[seat]).join(", ");
  }

  function drawStatus() {
    const parts = [`Seq ${shownSeq()} of ${lastSeq()}`, `viewing as ${state.lookAs || state.viewerName}`];
    if (state.variation) {
      const v = state.variation;
      parts.unshift(`Variation ${v.id}${v.name ? ` “${v.name}”` : ""} from ${v.parent === "game" ? "" : `${v.parent}@`}${v.at} by ${v.author}${v.hypothetical ? " (hypothetical)" : ""}`);
    }
    if (state.partial) parts.push(state.partial);
    if (state.outcome) {
      // The log's last line tells the end in the game's words (who won, how, with the
      // scores named); before the log has it, the winners.
      const lines = state.log.lines;
      const last = lines.length ? lines[lines.length - 1] : null;
      parts.push(last && last.seq === state.latest ? last.text : `The game is over: ${names(state.outcome.ranking[0] || [])} won.`);
    } else if (state.toAct.length) {
      const you = state.seat !== null && state.toAct.includes(state.seat) ? " (you)" : "";
      parts.push(`${names(state.toAct)} to act${you}`);
    }
    if (state.at !== null && !state.variation) parts.push("replaying");
    $("status").textContent = parts.join(" · ");
    $("position").textContent = `${shownSeq()} / ${lastSeq()}`;
    // The share panel (share.js) links to the position shown.
    document.dispatchEvent(new CustomEvent("skald:position", {
      detail: { seq: shownSeq(), latest: lastSeq(), variation: state.variation ? state.variation.id : null, lookAs: state.lookAs },
    }));
    $("jump-seq").max = String(lastSeq());
    $("last").textContent = state.variation ? "Last ⇥" : "Live ⇥";
    drawAuditOffer();
  }

  // The audit is the referee's while the game runs and everyone's after it (reveal=end):
  // before that a seat or spectator is told so beside buttons that are off, not refused.
  function drawAuditOffer() {
    const open = state.referee || Boolean(state.outcome);
    for (const id of ["open-audit", "audit-full"]) {
      const button = $(id);
      button.disabled = !open;
      button.title = open ? "" : AUDIT_LATER;
    }
    $("audit-why").textContent = open ? "" : AUDIT_LATER;
  }

  function drawPlay() {
    const section = $("play");
    section.hidden = state.seat === null;
    if (state.seat === null) return;
    const live = state.at === null && !state.variation;
    let hint = state.places && state.places.size
      ? "Click a highlighted place on the board, or a move below."
      : "Choose one of the moves below.";
    if (state.variation) hint = "Showing a variation: back to the game to play.";
    else if (!live) hint = "Replaying: press Live to play.";
    else if (state.outcome) hint = "The game is over.";
    else if (state.partial) hint = "A partial copy: it can never be continued.";
    else if (!state.legal.length) hint = `Waiting for ${names(state.toAct) || "the table"}.`;
    $("play-hint").textContent = hint;
    controls.draw(state.legalAnswer, live);
  }

  function drawLog(lines) {
    const shown = shownSeq();
    const list = $("lines");
    list.replaceChildren(
      ...lines.map((line) =>
        el(
          "li",
          { class: line.seq === shown ? "current" : line.seq > shown ? "later" : null, "data-seq": line.seq },
          el("button", { type: "button", onclick: () => goTo(line.seq) }, `${line.seq}. ${line.actor}: ${line.text}`),
          line.final ? el("button", { type: "button", class: "final", onclick: () => goTo(line.final) }, "final position") : null,
          notes.onMove(stream(), line.seq),
        ),
      ),
    );
    const current = list.querySelector(".current");
    if (current) list.scrollTop = Math.max(0, current.offsetTop - list.offsetTop - list.clientHeight / 2);
  }

  // -- acting ----------------------------------------------------------------------------

  const play = (move) => controls.play(move);

  // -- replay ----------------------------------------------------------------------------

  function goTo(seq) {
    closeMenu();
    const target = Math.max(1, Math.min(seq, lastSeq()));
    if (state.variation) state.vat = target >= lastSeq() ? null : target;
    else state.at = target >= state.latest ? null : target;
    refresh();
  }

  const first = () => goTo(1);
  const back = () => goTo(shownSeq() - 1);
  const forward = () => goTo(shownSeq() + 1);
  const last = () => goTo(lastSeq());

  function stopAutoplay() {
    clearTimeout(state.autoplay);
    state.autoplay = null;
    $("autoplay").setAttribute("aria-pressed", "false");
    $("autoplay").textContent = "Autoplay";
  }

  function toggleAutoplay() {
    if (state.autoplay) return stopAutoplay();
    if (atEnd()) goTo(1);
    $("autoplay").setAttribute("aria-pressed", "true");
    $("autoplay").textContent = "Stop";
    const tick = () => {
      if (atEnd()) return stopAutoplay();
      forward();
      state.autoplay = setTimeout(tick, Number($("speed").value));
    };
    state.autoplay = setTimeout(tick, Number($("speed").value));
  }

  function onKey(event) {
    if (event.key === "Escape") return closeMenu();
    const tag = event.target.tagName;
    if (["INPUT", "SELECT", "TEXTAREA"].includes(tag)) return;
    if ((event.key === "Enter" || event.key === " ") && event.target.closest && event.target.closest("#board [data-at]")) {
      return onBoardActivate(event);
    }
    const keys = { ArrowLeft: back, ArrowRight: forward, Home: first, End: last };
    if (keys[event.key] && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      stopAutoplay();
      keys[event.key]();
    }
  }

  // -- live ------------------------------------------------------------------------------

  // One live channel per page (/games/ID/play; the token in its first message, never in the
  // URL): one update frame after every decision by anyone, which says where the game is
  // (its seq, whose turn, the outcome: the page reads no summary while the channel is open),
  // and the page's own decisions go over it, one message each with the seq the controls
  // showed (`decide`). Only while the channel is down do decisions go over REST. It ends
  // with the game; a lost channel reconnects, backing off, and resumes after the page's seq.
  const channel = { socket: null, open: false, synced: false, pending: null };
  const REFUSED = { version_conflict: 409, forbidden: 403, unauthorized: 401, not_found: 404 };

  // Sends one decision (route "moves", "undo" or "redo"; body as the REST route's) made at
  // `seq`; settles once the page shows its outcome: accepted (the page has drawn the update
  // it made) or refused (an ApiError: 409 when the game moved on first).
  // Each decision is signed by the seat's own key in this browser (seatkey.js) over the
  // chain head at `seq`, which the page keeps from its last read or update.
  async function decide(route, body, seq) {
    const signed = await sign(route, body, seq);
    const sent = Object.assign({ expected_seq: seq }, body, signed ? { signed } : {});
    if (!channel.open) {
      return request(`${base}/${route}`, { method: "POST", body: sent }).then(() => refresh());
    }
    return new Promise((resolve, reject) => {
      channel.pending = { seq, resolve, reject };
      const type = route === "moves" ? "move" : route;
      channel.socket.send(JSON.stringify(Object.assign({ type }, sent)));
    });
  }

  function sign(route, body, seq) {
    if (state.seat === null || !state.head || state.head.seq !== seq) return Promise.resolve(null);
    const kind = route === "moves" ? "move" : route;
    return SkaldSeatKey.sign(gameId, state.seat, seq, state.head.hash, kind, kind === "move" ? body.move : "", state.head.keys);
  }

  // The chain head at a seq, and the seats' keys, as a read or an update told them.
  function heard(answer) {
    if (answer && answer.head) state.head = { seq: answer.seq, hash: answer.head, keys: answer.keys || [] };
  }

  // A refused decision's error; after a conflict the page reads where the game is (its
  // update frame may not have come yet).
  function refusal(frame) {
    if (frame.error === "version_conflict") channel.synced = false;
    return new ApiError(REFUSED[frame.error] || 422, frame);
  }

  // The first event after the pending decision's seq tells whether it was this seat's:
  // then the decision landed; another seat's means the game moved on first (its error frame
  // may still be on its way). A second device of the same seat acting at the same instant
  // looks like this page's own decision until its error frame arrives (then said below).
  function settle(frame) {
    const pending = channel.pending;
    if (!pending || frame.seq <= pending.seq) return;
    channel.pending = null;
    const next = frame.events.find((envelope) => envelope.seq === pending.seq + 1);
    const ours = !next || next.actor === String(state.seat);
    const shown = refresh();
    if (ours) pending.resolve(shown);
    else pending.reject(new ApiError(409, { message: "the game moved on", current_seq: frame.seq }));
  }

  function onFrame(message) {
    const frame = JSON.parse(message.data);
    if (frame.type === "welcome") {
      channel.synced = true; // from now on every decision past the hello's seq is told
      // Notes are told from now on: read what came before (while it was down too); then
      // the page is live (body[data-live], which tests wait for).
      refreshAll().then(() => { document.body.dataset.live = "true"; });
    } else if (frame.type === "notes") {
      refreshAll(); // what this viewer may read of the annotations or variations changed
    } else if (frame.type === "update") {
      if (frame.seq >= state.latest) {
        state.latest = frame.seq;
        heard(frame);
        state.toAct = state.partial ? [] : frame.to_act;
        state.outcome = frame.outcome;
        channel.synced = true;
      }
      if (channel.pending) settle(frame);
      else refresh();
    } else if (frame.type === "error" && channel.pending) {
      const pending = channel.pending;
      channel.pending = null;
      pending.reject(refusal(frame));
    } else if (frame.type === "error" && frame.error === "version_conflict") {
      channel.synced = false;
      say(`The game moved on (it is at seq ${frame.current_seq}) before your decision reached it; the page has reloaded: look again and retry.`, "info");
      refresh();
    } else if (frame.type === "error") {
      say(frame.error === "store_unavailable" ? "The live channel was interrupted; reconnecting." : frame.message, "info");
    }
  }

  function live() {
    let pause = 500;
    const connect = () => {
      const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${base}/play`);
      channel.socket = socket;
      socket.onopen = () => {
        pause = 500;
        channel.open = true;
        socket.send(JSON.stringify(Object.assign({ type: "hello", after: state.latest, notes: true }, Skald.token() ? { token: Skald.token() } : {})));
      };
      socket.onmessage = onFrame;
      socket.onclose = (event) => {
        Object.assign(channel, { socket: null, open: false, synced: false });
        delete document.body.dataset.live;
        if (channel.pending) channel.pending.reject(new ApiError(0, { message: "the live channel closed before the service answered; the page has reloaded: look again" }));
        channel.pending = null;
        if (state.outcome || [1000, 4400, 4401, 4404].includes(event.code)) return; // over, or refused
        setTimeout(() => refresh().then(connect), pause);
        pause = Math.min(pause * 2, 10000);
      };
    };
    connect();
  }

  // -- the audit -------------------------------------------------------------------------

  function seqButton(seq) {
    return el("button", { type: "button", class: "seq", onclick: () => goTo(seq) }, `seq ${seq}`);
  }

  async function openAudit() {
    const box = $("audit");
    try {
      const report = await json(`${base}/audit?format=json`);
      const anomalies = report.anomalies.length
        ? report.anomalies.map((a) => el("li", {}, seqButton(a.seq), ` ${a.rule}${a.detail ? `: ${a.detail}` : ""}`))
        : [el("li", {}, "none")];
      box.replaceChildren(
        el("p", { class: "verdict" }, report.verdict),
        el("button", { type: "button", id: "full-audit", onclick: openFullAudit }, "Read the full audit"),
        el("p", { class: "note" }, report.fairness),
        el("h3", {}, "Anomalies by seq"),
        el("ul", { id: "anomalies" }, anomalies),
        el("h3", {}, "Who knew what, when"),
        ...report.knowledge.map((seat) =>
          el(
            "details",
            { class: "knowledge" },
            el("summary", {}, `${seat.player} learned ${seat.learned.length === 1 ? "1 hidden value" : `${seat.learned.length} hidden values`}`),
            el("ul", {}, seat.learned.map((item) => el("li", {}, seqButton(item.seq), ` ${item.told || item.value}`))),
          ),
        ),
      );
    } catch (error) {
      const why = error.status === 403 ? AUDIT_LATER : error.message;
      box.replaceChildren(el("p", { class: "message" }, why));
    }
  }

  // The full audit page, fetched with this page's token and opened as a page of its own.
  async function openFullAudit() {
    const page = await text(`${base}/audit?format=html`);
    window.open(URL.createObjectURL(new Blob([page], { type: "text/html" })), "_blank");
  }

  // -- start -----------------------------------------------------------------------------

  function viewerChoices() {
    const choices = [["", `me (${state.viewerName})`]];
    if (state.viewerName !== "spectator") choices.push(["spectator", "spectator"]);
    if (state.referee) state.players.forEach((name) => choices.push([name, name]));
    $("viewer").replaceChildren(...choices.map(([value, label]) => el("option", { value }, label)));
    $("viewer").disabled = choices.length < 2;
  }

  // A link the service refuses (a token not of this game, no such game): what went wrong
  // and what to do, and none of the game's controls (there is no game here to drive).
  function refused(error) {
    for (const node of document.querySelectorAll("main > *, .board-area > *, header label")) node.hidden = true;
    $("message").closest(".board-area").hidden = false;
    $("message").hidden = false;
    $("title").textContent = "this link opens no game";
    const next = {
      401: "Ask whoever set up the game for your seat's link again.",
      403: "This table opens to you once its round is over.",
      404: "Check the link, or find the game in the lobby.",
    }[error.status];
    const said = error.message.replace(/\.$/, "").replace(/^./, (first) => first.toUpperCase());
    say(next ? `${said}. ${next}` : error.message);
    document.body.dataset.refused = "true";
  }

  async function start() {
    try {
      const view = await json(`${base}/view`);
      state.game = view.game;
      state.players = view.players;
      state.viewerName = view.viewer;
      state.referee = view.viewer === "referee";
      const seat = view.players.indexOf(view.viewer);
      state.seat = Skald.token() && seat >= 0 ? seat : null;
      if (state.seat !== null) await SkaldSeatKey.load(gameId, state.seat); // signs at once later
      state.latest = view.seq;
      state.partial = view.partial || "";
      // A shared link opens the position it names: ?at=SEQ, ?variation=vN (&at=SEQ in it).
      const asked = new URLSearchParams(location.search);
      const askedAt = Number(asked.get("at")) || null;
      if (asked.get("variation")) {
        state.variation = { id: asked.get("variation"), seq: askedAt || 1, lines: [] };
        state.vat = askedAt;
      } else if (askedAt !== null && askedAt < state.latest) state.at = askedAt;
      else if (askedAt !== null && askedAt > state.latest) {
        say(`This link names seq ${askedAt}, but the game is at seq ${state.latest}: showing where it is now.`, "info");
      }
      $("title").textContent = Skald.gameName(view.game);
      $("game-id").textContent = `game ${gameId}`;
      document.title = `${Skald.gameName(view.game)} · ${view.viewer} · Skald`;
    } catch (error) {
      return refused(error);
    }
    viewerChoices();
    $("viewer").addEventListener("change", () => { state.lookAs = $("viewer").value || null; refresh(); });
    $("possible").addEventListener("toggle", () => showPossible(state.ticket));
    $("board").addEventListener("click", onBoardActivate);
    document.addEventListener("keydown", onKey);
    $("first").addEventListener("click", first);
    $("back").addEventListener("click", back);
    $("forward").addEventListener("click", forward);
    $("last").addEventListener("click", last);
    $("jump").addEventListener("submit", (event) => { event.preventDefault(); goTo(Number($("jump-seq").value) || 1); });
    $("autoplay").addEventListener("click", toggleAutoplay);
    controls.start(() => ({ base, say, refresh, decide }));
    // A move in words: the service's (a tile by its printed name), else places by name.
    controls.naming((move) => {
      const said = state.legalAnswer && state.legalAnswer.words && state.legalAnswer.words[move];
      return said || move.split(" ").map((word) => placeNames.get(word) || word).join(" ");
    });
    $("open-audit").addEventListener("click", openAudit);
    notes.start(notesContext);
    await refreshAll();
    live();
  }

  start();
})();
