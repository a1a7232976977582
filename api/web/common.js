// Skald's pages: what the lobby and the table share. No framework, no network but our own.
// Tokens live in the URL fragment (#token=...), which browsers never send to the server,
// and travel only in the Authorization header.
"use strict";

const Skald = (() => {
  class ApiError extends Error {
    constructor(status, body) {
      super(body && body.message ? body.message : `request failed (${status})`);
      this.status = status;
      this.code = body && body.error;
      this.currentSeq = body && body.current_seq;
    }
  }

  function fragment() {
    return new URLSearchParams(location.hash.replace(/^#/, ""));
  }

  function token() {
    return fragment().get("token");
  }

  function headers(extra) {
    const result = Object.assign({ Accept: "application/json" }, extra || {});
    const given = token();
    if (given) result.Authorization = `Bearer ${given}`;
    return result;
  }

  async function request(path, options) {
    const opts = options || {};
    const init = { method: opts.method || "GET", headers: headers(opts.headers) };
    if (opts.body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(opts.body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (error) {
      throw new ApiError(0, { message: "the service cannot be reached; is skald serve running?" });
    }
    if (!response.ok) {
      let body = null;
      try {
        body = await response.json();
      } catch (ignored) {
        body = null;
      }
      throw new ApiError(response.status, body);
    }
    return response;
  }

  async function json(path, options) {
    return (await request(path, options)).json();
  }

  async function text(path, options) {
    return (await request(path, options)).text();
  }

  // el("li", {class: "x", onclick: fn}, "text", child...): text is always text, never markup.
  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else if (name === "class") node.className = value;
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  // The games by their proper names (each game's Rules.title; tests/test_web_table.py
  // checks they agree); ids are for links and small print.
  const GAMES = { beowulf: "Beowulf: The Movie Board Game", beast: "Beast", hagar: "Hägar ruft zum Beutefest" };
  const gameName = (id) => GAMES[id] || id;

  // One link to hand out: who it is for, the address in full (to read out or copy), and a
  // button copying it.
  function linkItem(label, href) {
    const absolute = new URL(href, location.href).href;
    return el(
      "li",
      {},
      el("span", { class: "who" }, label),
      " ",
      el("a", { href, class: "seat-link" }, absolute),
      " ",
      el("button", { type: "button", class: "copy", onclick: () => navigator.clipboard && navigator.clipboard.writeText(absolute) }, "Copy"),
    );
  }

  function path(strings, ...values) {
    return strings.reduce((out, part, i) => out + part + (i < values.length ? encodeURIComponent(values[i]) : ""), "");
  }

  // Why the audit is not open to this viewer yet (the table page and its share panel).
  const AUDIT_LATER = "The audit opens after the game, or at any time with the referee's link.";

  return { ApiError, fragment, token, headers, request, json, text, el, path, gameName, linkItem, AUDIT_LATER };
})();
