// The annotated history at the table: each note on its move in the log, its markup drawn on
// the board, a form to add one (comment, glyph, audience, marks picked by clicking places),
// and the variations: listed, opened for a read-only replay, and opened from the page at the
// shown seq with moves written in notation. Everything read comes from the service already
// projected for this page's token: a note the viewer may not read does not arrive at all.
"use strict";

const SkaldNotes = (() => {
  const { el, json } = Skald;
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const COLOURS = { red: "#c62828", green: "#2e7d32", blue: "#1565c0", yellow: "#f9a825", black: "#212121", white: "#fafafa" };
  const GLYPHS = ["!", "?", "!!", "??", "!?", "?!", "unclear"];
  const AUDIENCE = { public: "everyone", seat: "their seat", referee: "the referee" };
  const mine = { annotations: [], variations: [], draft: [], pending: null, picking: false, context: null };

  const anchor = (stream, seq) => (stream === "game" ? String(seq) : `${stream}@${seq}`);
  const words = (mark) => [mark.shape, mark.at, mark.to, mark.colour, mark.label].filter(Boolean).join(" ");

  function update(annotations, variations) {
    mine.annotations = annotations;
    mine.variations = variations;
  }

  // -- on the log ------------------------------------------------------------------------

  function describe(note) {
    const parts = [];
    if (note.glyph) parts.push(el("b", { class: "glyph" }, note.glyph), " ");
    if (note.comment) parts.push(el("span", { class: "comment" }, note.comment), " ");
    if (note.marks && note.marks.length) parts.push(el("span", { class: "marks-count" }, `[${note.marks.map(words).join("; ")}]`), " ");
    const audience = note.audience === "public" ? "" : `, for ${AUDIENCE[note.audience] || note.audience}`;
    parts.push(el("span", { class: "by" }, `— ${note.author}${audience}`));
    return parts;
  }

  // The notes anchored at `seq` of `stream`, as a list to hang under its log line (or null).
  function onMove(stream, seq) {
    const here = mine.annotations.filter((note) => note.stream === stream && note.move === seq);
    if (!here.length) return null;
    return el(
      "ul",
      { class: "notes-on", "aria-label": `notes on seq ${seq}` },
      here.map((note) => el("li", { class: "note", "data-note": note.seq, "data-audience": note.audience }, describe(note))),
    );
  }

  // -- on the board ----------------------------------------------------------------------

  function svgEl(tag, attributes) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
    return node;
  }

  function centre(svg, at) {
    const node = svg.querySelector(`[data-at="${CSS.escape(at)}"]`);
    if (!node || typeof node.getBBox !== "function") return null;
    const box = node.getBBox();
    return { x: box.x + box.width / 2, y: box.y + box.height / 2, r: Math.max(8, Math.min(box.width, box.height) * 0.42) };
  }

  function shape(svg, mark, draft) {
    const from = centre(svg, mark.at);
    if (!from) return null;
    const colour = COLOURS[mark.colour] || COLOURS.red;
    const common = { stroke: colour, "stroke-width": 4, fill: "none", "data-mark": mark.shape };
    if (draft) common["stroke-dasharray"] = "6 4";
    let node = null;
    if (mark.shape === "circle") node = svgEl("circle", { ...common, cx: from.x, cy: from.y, r: from.r });
    else if (mark.shape === "cross") {
      const d = from.r * 0.75;
      node = svgEl("path", { ...common, d: `M${from.x - d} ${from.y - d}L${from.x + d} ${from.y + d}M${from.x - d} ${from.y + d}L${from.x + d} ${from.y - d}` });
    } else if (mark.shape === "label") {
      node = svgEl("text", { x: from.x, y: from.y + from.r + 2, fill: colour, "font-size": 14, "font-weight": "bold", "text-anchor": "middle", stroke: "#fff", "stroke-width": 0.6, "paint-order": "stroke", "data-mark": "label" });
      node.textContent = mark.label || "";
    } else if (mark.shape === "arrow") {
      const to = mark.to && centre(svg, mark.to);
      if (!to) return null;
      node = svgEl("line", { ...common, x1: from.x, y1: from.y, x2: to.x, y2: to.y, "marker-end": `url(#skald-head-${mark.colour in COLOURS ? mark.colour : "red"})` });
    }
    if (node) {
      node.setAttribute("data-mark-at", mark.at);
      if (mark.shape !== "label") { // a label's text says it already
        node.append(svgEl("title", {}));
        node.lastChild.textContent = words(mark);
      }
    }
    return node;
  }

  function drawMarks(svg, stream, seq) {
    if (!svg) return;
    const layer = svgEl("g", { class: "markup", "pointer-events": "none" });
    const defs = svgEl("defs", {});
    for (const [name, colour] of Object.entries(COLOURS)) {
      const marker = svgEl("marker", { id: `skald-head-${name}`, markerWidth: 6, markerHeight: 6, refX: 5, refY: 3, orient: "auto" });
      marker.append(svgEl("path", { d: "M0 0L6 3L0 6z", fill: colour }));
      defs.append(marker);
    }
    layer.append(defs);
    for (const note of mine.annotations) {
      if (note.stream !== stream || note.move !== seq) continue;
      for (const mark of note.marks || []) {
        const node = shape(svg, mark, false);
        if (node) layer.append(node);
      }
    }
    for (const mark of mine.draft) {
      const node = shape(svg, mark, true);
      if (node) { node.classList.add("draft"); layer.append(node); }
    }
    svg.append(layer);
    if (mine.picking) {
      svg.classList.add("picking");
      const seen = new Set();
      for (const node of svg.querySelectorAll("[data-at]")) {
        if (seen.has(node.dataset.at)) continue;
        seen.add(node.dataset.at);
        node.classList.add("markable");
        if (!node.hasAttribute("tabindex")) node.setAttribute("tabindex", "0");
        node.setAttribute("aria-label", `mark ${node.dataset.at}`);
      }
    }
  }

  function redrawBoard() {
    const ctx = mine.context();
    const svg = $("board").querySelector("svg");
    if (!svg) return;
    const old = svg.querySelector("g.markup");
    if (old) old.remove();
    drawMarks(svg, ctx.stream, ctx.seq);
  }

  // -- the annotation form ---------------------------------------------------------------

  function picking() {
    return mine.picking;
  }

  function setPicking(on) {
    mine.picking = on;
    mine.pending = null;
    $("mark-pick").setAttribute("aria-pressed", String(on));
    $("mark-pick").textContent = on ? "Done marking" : "Mark places on the board";
    $("mark-hint").textContent = on ? "Click (or Tab to and press Enter on) places of the board; an arrow takes two." : "";
    if (on) redrawBoard(); // every place becomes focusable at once
    else mine.context().refresh();
  }

  function pick(at) {
    const shapeName = $("mark-shape").value;
    const colour = $("mark-colour").value;
    if (shapeName === "arrow" && mine.pending === null) {
      mine.pending = at;
      $("mark-hint").textContent = `Arrow from ${at}: now click where it points.`;
      return;
    }
    const mark = { shape: shapeName, at: shapeName === "arrow" ? mine.pending : at, colour };
    if (shapeName === "arrow") mark.to = at;
    if (shapeName === "label") {
      mark.label = $("mark-label").value.trim();
      if (!mark.label) {
        $("mark-hint").textContent = "A label needs its text: type it first.";
        return;
      }
    }
    mine.pending = null;
    mine.draft.push(mark);
    $("mark-hint").textContent = `Marked: ${words(mark)}.`;
    drawDraft();
    redrawBoard();
  }

  function drawDraft() {
    $("marks").replaceChildren(
      ...mine.draft.map((mark, i) =>
        el("li", {}, el("span", { class: "mark-words" }, words(mark)), " ",
          el("button", { type: "button", "aria-label": `remove ${words(mark)}`, onclick: () => { mine.draft.splice(i, 1); drawDraft(); redrawBoard(); } }, "×")),
      ),
    );
  }

  async function annotate(event) {
    event.preventDefault();
    const ctx = mine.context();
    const body = { at: anchor(ctx.stream, ctx.seq), audience: $("note-audience").value, marks: mine.draft.map(words) };
    const comment = $("note-comment").value.trim();
    if (comment) body.comment = comment;
    if ($("note-glyph").value) body.glyph = $("note-glyph").value;
    ctx.say("");
    try {
      await json(`${ctx.base}/annotations`, { method: "POST", body });
      $("note-comment").value = "";
      $("note-glyph").value = "";
      mine.draft = [];
      drawDraft();
      if (mine.picking) setPicking(false);
      await ctx.refresh();
      ctx.say(`Note added at ${body.at}.`, "info");
    } catch (error) {
      ctx.say(error.message);
    }
  }

  // -- variations ------------------------------------------------------------------------

  async function branch(event) {
    event.preventDefault();
    const ctx = mine.context();
    const moves = $("branch-moves").value.split("\n").map((line) => line.trim()).filter(Boolean);
    const body = { from: anchor(ctx.stream, ctx.seq), moves, name: $("branch-name").value.trim() };
    ctx.say("");
    try {
      const opened = await json(`${ctx.base}/variations`, { method: "POST", body });
      $("branch-moves").value = "";
      $("branch-name").value = "";
      const id = opened.id.split("~").pop();
      ctx.say(`Variation ${id} opened from ${body.from}.`, "info");
      ctx.openVariation(id);
    } catch (error) {
      ctx.say(error.message);
    }
  }

  function addMove(event) {
    event.preventDefault();
    const move = $("branch-move").value.trim();
    if (!move) return;
    const box = $("branch-moves");
    box.value = `${box.value.replace(/\s*$/, "")}${box.value.trim() ? "\n" : ""}${move}`;
    $("branch-move").value = "";
  }

  function drawPanels(ctx) {
    const here = anchor(ctx.stream, ctx.seq);
    $("notes").hidden = !ctx.canWrite; // a seat or the referee; never a spectator
    $("annotate").hidden = !ctx.canWrite;
    $("branch").hidden = !ctx.canWrite;
    $("annotate-at").textContent = `A note on ${ctx.stream === "game" ? "seq " : ""}${here}, the position shown.`;
    $("branch-at").textContent = `Play on from ${ctx.stream === "game" ? "seq " : ""}${here} in a variation of your own (by notation; the other seats never see it while the game runs).`;
    $("note-audience").querySelector('option[value="seat"]').disabled = ctx.referee;
    if (ctx.referee && $("note-audience").value === "seat") $("note-audience").value = "referee";
    const glyph = $("note-glyph");
    if (glyph.options.length !== 1 + GLYPHS.length + ctx.players.length) {
      glyph.replaceChildren(
        el("option", { value: "" }, "none"),
        ...GLYPHS.map((g) => el("option", { value: g }, g)),
        ...ctx.players.map((name, seat) => el("option", { value: `good:${seat}` }, `good for ${name}`)),
      );
    }
    $("branch-legal").replaceChildren(...ctx.legal.map((move) => el("option", { value: move })));
    $("variation-close").hidden = !ctx.variation;
    $("variation-list").replaceChildren(
      ...mine.variations.map((v) =>
        el(
          "li",
          { "data-variation": v.id, class: ctx.variation && ctx.variation.id === v.id ? "current" : null },
          el("button", { type: "button", class: "open-variation", onclick: () => ctx.openVariation(v.id, v.seq) },
            `${v.id}${v.name ? ` “${v.name}”` : ""}`),
          ` from ${v.parent === "game" ? "seq " : `${v.parent}@`}${v.at} by ${v.author}, ${v.lines.length} events${v.hypothetical ? ", hypothetical" : ""}`,
        ),
      ),
    );
    if (!mine.variations.length) $("variation-list").replaceChildren(el("li", { class: "note" }, "none you may see"));
  }

  function start(context) {
    mine.context = context;
    $("annotate").addEventListener("submit", annotate);
    $("branch").addEventListener("submit", branch);
    $("branch-add").addEventListener("click", addMove);
    $("mark-pick").addEventListener("click", () => setPicking(!mine.picking));
    $("variation-close").addEventListener("click", () => mine.context().closeVariation());
    $("mark-shape").addEventListener("change", () => { mine.pending = null; });
  }

  return { start, update, onMove, drawMarks, drawPanels, picking, pick };
})();
