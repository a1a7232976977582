// The board on a phone. Some boards are drawn with a side panel beside the places (Beowulf's
// hands and scores right of its grid, Hägar's beside its map); scaled to a phone's width as
// one picture, their places would be too small for a finger. On a narrow screen this shows
// the places' part of the drawing at the full width (the drawing's viewBox cut to it) and a
// copy of the side panel under it (a picture only: no places, hidden from screen readers,
// who read the panel in the board itself). It watches #board, so the page needs no hook:
// whenever the page draws a new board, this lays it out again.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const narrow = window.matchMedia("(max-width: 700px)");
  const SHAPES = "text, rect, circle, ellipse, path, line, polyline, polygon, image, use";
  const MARGIN = 6;

  const boxOf = (node) => {
    try {
      return node.getBBox();
    } catch (ignored) {
      return null; // not rendered
    }
  };

  // Where the places end: the right edge of everything that starts among them.
  function split(svg) {
    const full = svg.dataset.viewBox || svg.getAttribute("viewBox");
    if (!full) return null;
    const [x0, y0, width, height] = full.split(/[\s,]+/).map(Number);
    const places = [...svg.querySelectorAll("[data-at]")].map(boxOf).filter(Boolean);
    if (!places.length) return null;
    const placesRight = Math.max(...places.map((box) => box.x + box.width));
    const shapes = [...svg.querySelectorAll(SHAPES)].filter((node) => !node.closest("g.markup, defs, marker, title"));
    const boxes = shapes.map(boxOf).filter((box) => box && box.width + box.height > 0);
    const cut = Math.max(placesRight, ...boxes.filter((box) => box.x < placesRight).map((box) => box.x + box.width)) + MARGIN;
    const panel = boxes.filter((box) => box.x >= cut - MARGIN);
    if (!panel.length || cut > x0 + width * 0.85) return null; // no side panel worth moving
    const bottom = (list) => Math.min(y0 + height, Math.max(...list.map((box) => box.y + box.height)) + MARGIN);
    const left = boxes.filter((box) => box.x < cut);
    const top = Math.max(y0, Math.min(...panel.map((box) => box.y)) - MARGIN);
    return {
      full,
      places: `${x0} ${y0} ${cut - x0} ${bottom(left) - y0}`,
      panel: `${cut - MARGIN} ${top} ${x0 + width - cut + MARGIN} ${bottom(panel) - top}`,
    };
  }

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
