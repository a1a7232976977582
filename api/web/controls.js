// The table page's steady controls: the seat's legal moves as a list, undo and redo, and the
// one way a decision is sent. They change only when the position changes, and in place: a
// move's button is kept (keyed by its text) while it stays legal, so a live refresh never
// re-draws a button under a pointer. A click sends the move that was shown with the seq it
// was shown at; while a decision is in flight every control that decides is disabled and
// says so; a 409 (the game moved on) reloads the page's view and tells the player. Undo and
// redo are enabled from the service's own answer (`GET /games/ID/legal`: undo and redo as
// {allowed, reason}); a refused one stays focusable and says why on hover, focus or tap.
"use strict";

const SkaldControls = (() => {
  const { el, ApiError } = Skald;
  const $ = (id) => document.getElementById(id);
  // seq: the position the controls show (null: none shown); busy: the decision in flight.
  const mine = { seq: null, live: false, answer: null, busy: null, context: null, label: null };
  const TAKE_BACK = { undo: "Undo", redo: "Redo" };

  const isTemplate = (move) => move.startsWith("entropy "); // entropy.js offers these

  // -- sending ---------------------------------------------------------------------------

  // Sends a decision (route "moves", "undo" or "redo") at the seq the controls show, over
  // the page's live channel (REST only while it is down: the page's `decide`); the answer
  // is said in the page's message box once the page shows it. Returns whether the service
  // accepted it.
  async function send(route, body, done) {
    const ctx = mine.context();
    if (mine.busy || mine.seq === null) return false;
    mine.busy = route === "moves" ? named(body.move) : route;
    paint();
    ctx.say(`Sending: ${mine.busy}…`, "info");
    let accepted = false;
    try {
      await ctx.decide(route, body, mine.seq); // settles once the page has drawn the update
      accepted = true;
      ctx.say(done, "info");
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        const where = error.currentSeq ? ` (it is at seq ${error.currentSeq})` : "";
        ctx.say(`The game moved on${where} before this reached it; the page has reloaded: look again and retry.`, "info");
      } else {
        ctx.say(error.message);
      }
      mine.seq = null; // the next answer redraws the controls
    }
    if (!accepted) await ctx.refresh();
    mine.busy = null;
    paint();
    return accepted;
  }

  const named = (move) => (mine.label ? mine.label(move) : move);
  const play = (move) => send("moves", { move }, `Played: ${named(move)}`);

  function takeBack(route) {
    const answer = mine.answer && mine.answer[route];
    if (!mine.live || !answer || !answer.allowed) {
      const why = !mine.live ? "only at the live position" : answer ? answer.reason : "not now";
      return mine.context().say(`${TAKE_BACK[route]} is not possible: ${why}.`, "info");
    }
    return send(route, {}, route === "undo" ? "Undone." : "Redone.");
  }

  // -- drawing ---------------------------------------------------------------------------

  // A move's button: its words (the page's `label`: places by their printed names), the
  // notation it sends as its tooltip.
  function moveItem(move) {
    const label = named(move);
    const button = el("button", { type: "button", class: "move", onclick: () => play(move) }, label);
    if (label !== move) button.title = move;
    return el("li", { "data-move": move }, button);
  }

  // The list of moves, keyed by move text: kept buttons stay the same nodes.
  function drawMoves(moves) {
    const list = $("legal");
    const wanted = new Set(moves);
    for (const item of [...list.children]) if (!wanted.has(item.dataset.move)) item.remove();
    const kept = new Map([...list.children].map((item) => [item.dataset.move, item]));
    moves.forEach((move, i) => {
      const item = kept.get(move) || moveItem(move);
      if (list.children[i] !== item) list.insertBefore(item, list.children[i] || null);
    });
  }

  function drawTakeBack(route) {
    const button = $(route);
    const answer = mine.answer && mine.answer[route];
    const allowed = Boolean(mine.live && answer && answer.allowed);
    const why = allowed ? "" : !mine.live ? "only at the live position" : answer ? answer.reason : "";
    button.setAttribute("aria-disabled", String(!allowed));
    button.title = allowed ? `${TAKE_BACK[route]} the last decision` : `${TAKE_BACK[route]}: ${why}`;
    const note = $(`${route}-why`);
    note.textContent = why ? `${TAKE_BACK[route]}: ${why}` : "";
  }

  // What may change without a new position: whether a decision is in flight.
  function paint() {
    const busy = Boolean(mine.busy);
    $("play").setAttribute("aria-busy", String(busy));
    $("board").classList.toggle("busy", busy);
    for (const button of $("legal").querySelectorAll("button")) button.disabled = busy || !mine.live;
    for (const route of Object.keys(TAKE_BACK)) $(route).disabled = busy;
    if (typeof SkaldEntropy !== "undefined") SkaldEntropy.busy(busy);
  }

  // The controls for the legal answer (null: not this seat's to see now) shown at `live`
  // (the page shows the game's last position). Redrawn only when the answer's seq changes.
  function draw(answer, live) {
    const seq = answer ? answer.seq : null;
    if (seq === mine.seq && live === mine.live && !mine.busy) return;
    mine.seq = seq;
    mine.live = live;
    mine.answer = answer;
    $("legal").dataset.seq = seq === null ? "" : String(seq); // the seq these moves are for
    const moves = answer && live ? answer.moves : [];
    drawMoves(moves.filter((move) => !isTemplate(move)));
    if (typeof SkaldEntropy !== "undefined") SkaldEntropy.draw(moves.filter(isTemplate), send);
    drawTakeBack("undo");
    drawTakeBack("redo");
    paint();
  }

  // Whether the board must be drawn again: only when its drawing or its playable moves
  // changed (a refresh that brings nothing new leaves the board's nodes where they are).
  let boardKey = null;
  function boardChanged(svgText, moves) {
    const key = `${moves.join("\n")}\n${svgText}`;
    if (key === boardKey) return false;
    boardKey = key;
    return true;
  }

  // Whether a board place may be played now (not while a decision is in flight).
  const ready = () => !mine.busy && mine.live && mine.seq !== null;

  function start(context) {
    mine.context = context;
    for (const route of Object.keys(TAKE_BACK)) $(route).addEventListener("click", () => takeBack(route));
  }

  // How a move's button words it (called with the move's notation).
  function naming(label) {
    mine.label = label;
  }

  return { start, draw, play, send, ready, boardChanged, naming };
})();
