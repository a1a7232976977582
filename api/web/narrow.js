// The board on a phone. Boards are drawn with a side panel beside the places (Beowulf's
// hands and scores right of its grid, Hägar's beside its map), the group they mark
// data-panel; scaled to a phone's width as one picture, their places would be too small for
// a finger. On a narrow screen this shows the places' part of the drawing at the full width
// (the drawing's viewBox cut to it) and a copy of the side panel under it (a picture only:
// no places, hidden from screen readers, who read the panel in the board itself). Places
// drawn with a hit circle (Hägar's small spaces) get one a finger wide while playable. It watches #board, so the page needs no hook:
// whenever the page draws a new board, this lays it out again.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const narrow = window.matchMedia("(max-width: 700px)");
  const MARGIN = 6;

  const boxOf = (node) => {
    try {
      return node.getBBox();
    } catch (ignored) {
      return null; // not rendered
    }
  };

  // The drawing's two parts: its side panel (the group the board marks data-panel) and
  // everything else (the places), each as a viewBox of its own, cut to what it covers.
  function split(svg) {
    const full = svg.dataset.viewBox || svg.getAttribute("viewBox");
    const panelNode = svg.querySelector("[data-panel]");
    if (!full || !panelNode) return null;
    const [x0, y0, width, height] = full.split(/[\s,]+/).map(Number);
    const panel = boxOf(panelNode);
    if (!panel || panel.width + panel.height === 0) return null;
    const rest = [...svg.children].filter((node) => node !== panelNode && !node.matches("title, desc, defs, g.markup"));
    const boxes = rest.map(boxOf).filter((box) => box && box.width + box.height > 0);
    if (!boxes.length) return null;
    const cut = Math.min(panel.x, x0 + width);
    const bottom = Math.min(y0 + height, Math.max(...boxes.map((box) => box.y + box.height)) + MARGIN);
    const top = Math.max(y0, panel.y - MARGIN);
    return {
      full,
      places: `${x0} ${y0} ${cut - x0} ${bottom - y0}`,
      panel: `${cut - MARGIN} ${top} ${x0 + width - cut + MARGIN} ${Math.min(y0 + height, panel.y + panel.height + MARGIN) - top}`,
    };
  }

  // A finger's width for every playable place drawn with a hit circle (Hägar's spaces):
  // 44 px across or more as the drawing is shown now, but never over the middle of another
  // playable place (at most half the way to the nearest), never less than it is drawn.
  function growHits(svg) {
    const matrix = svg.getScreenCTM();
    const scale = matrix ? matrix.a : 0;
    if (!scale) return;
    const hits = [...svg.querySelectorAll("circle.hit")];
    for (const hit of hits) if (!hit.dataset.r) hit.dataset.r = hit.getAttribute("r");
    const centre = (hit) => [Number(hit.getAttribute("cx")), Number(hit.getAttribute("cy"))];
    const playable = hits.filter((hit) => hit.closest(".playable"));
    for (const hit of hits) {
      let wanted = Number(hit.dataset.r);
      if (playable.includes(hit)) {
        const [x, y] = centre(hit);
        const apart = Math.min(...playable.filter((other) => other !== hit).map((other) => Math.hypot(centre(other)[0] - x, centre(other)[1] - y)));
        wanted = Math.max(wanted, Math.min(FINGER / 2 / scale, apart / 2));
      }
      hit.setAttribute("r", String(wanted));
    }
  }
  const FINGER = 46; // px: the hit circle's width on screen (44 and a little)

  // A viewBox and the size that keeps its proportions (the size's ratio is the picture's).
  function show(svg, viewBox, size) {
    const [, , width, height] = viewBox.split(/[\s,]+/).map(Number);
    const [w, h] = size ? size.split(" ") : [width, height];
    svg.setAttribute("viewBox", viewBox);
    svg.setAttribute("width", String(w));
    svg.setAttribute("height", String(h));
  }

  function layOut() {
    const svg = $("board").querySelector("svg");
    const holder = $("board-panel");
    if (!svg || !holder) return;
    if (!svg.dataset.viewBox) {
      svg.dataset.viewBox = svg.getAttribute("viewBox") || "";
      svg.dataset.size = `${svg.getAttribute("width")} ${svg.getAttribute("height")}`;
    }
    const parts = narrow.matches ? split(svg) : null;
    if (!parts) {
      if (svg.dataset.viewBox) show(svg, svg.dataset.viewBox, svg.dataset.size);
      svg.classList.remove("cut");
      holder.replaceChildren();
      holder.hidden = true;
      growHits(svg);
      return;
    }
    show(svg, parts.places);
    svg.classList.add("cut");
    const copy = svg.cloneNode(true);
    show(copy, parts.panel);
    copy.setAttribute("aria-hidden", "true");
    copy.classList.remove("cut");
    for (const node of copy.querySelectorAll("[data-at], [tabindex], [id]")) {
      node.removeAttribute("data-at");
      node.removeAttribute("tabindex");
      node.removeAttribute("role");
      node.removeAttribute("id");
      node.classList.remove("playable");
    }
    for (const node of copy.querySelectorAll("[data-seat]")) node.removeAttribute("data-seat");
    for (const node of copy.querySelectorAll("g.markup")) node.remove();
    holder.replaceChildren(copy);
    holder.hidden = false;
    growHits(svg);
  }

  let queued = false;
  const soon = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; layOut(); });
  };

  document.addEventListener("DOMContentLoaded", () => {
    new MutationObserver(soon).observe($("board"), { childList: true });
    narrow.addEventListener("change", soon);
  });
})();
