// The lobby: list games, create one, hand out each seat's link (its token in the fragment).
"use strict";

(() => {
  const { el, json, path } = Skald;
  const message = document.getElementById("message");

  function stateOf(summary) {
    if (summary.outcome) return `over (${summary.outcome.termination})`;
    if (!summary.to_act.length) return "waiting";
    return `${summary.to_act.map((seat) => summary.players[seat]).join(", ")} to act`;
  }

  async function listGames() {
    const body = document.querySelector("#games tbody");
    try {
      const page = await json("/games?limit=30");
      const summaries = await Promise.all(
        page.items.map((item) => json(path`/games/${item.id}`).catch(() => null)),
      );
      body.replaceChildren(
        ...page.items.map((item, i) => {
          const summary = summaries[i];
          return el(
            "tr",
            { "data-game": item.id },
            el("td", {}, el("a", { href: path`/play/${item.id}` }, `${item.title || item.game} · ${item.id}`)),
            el("td", {}, summary ? summary.players.join(", ") : ""),
            el("td", {}, item.seq),
            el("td", {}, summary ? stateOf(summary) : ""),
            el("td", {}, new Date(item.created_at).toLocaleString()),
          );
        }),
      );
      if (!page.items.length) body.replaceChildren(el("tr", {}, el("td", { colspan: 5 }, "No games yet.")));
    } catch (error) {
      message.textContent = error.message;
    }
  }

  async function listTournaments() {
    const body = document.querySelector("#tournaments tbody");
    try {
      const page = await json("/tournaments?limit=30");
      body.replaceChildren(
        ...page.items.map((item) =>
          el(
            "tr",
            { "data-tournament": item.id },
            el("td", {}, el("a", { href: path`/tournaments/${item.id}/page` }, `${item.name || item.id} · ${item.id}`)),
            el("td", {}, item.seq),
            el("td", {}, new Date(item.created_at).toLocaleString()),
          ),
        ),
      );
      if (!page.items.length) body.replaceChildren(el("tr", {}, el("td", { colspan: 3 }, "No tournaments yet.")));
    } catch (error) {
      message.textContent = error.message;
    }
  }

  function parseOptions(textValue) {
    const options = {};
    for (const pair of textValue.split(/[\s,]+/).filter(Boolean)) {
      const at = pair.indexOf("=");
      if (at < 1) throw new Error(`option ${JSON.stringify(pair)} is not K=V`);
      options[pair.slice(0, at)] = pair.slice(at + 1);
    }
    return options;
  }

  function linkItem(label, href) {
    const absolute = new URL(href, location.href).href;
    return el(
      "li",
      {},
      el("span", { class: "who" }, label),
      " ",
      el("a", { href, class: "seat-link" }, absolute),
      " ",
      el("button", { type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(absolute) }, "Copy"),
    );
  }

  async function create(event) {
    event.preventDefault();
    message.textContent = "";
    try {
      const body = {
        game: document.getElementById("game").value,
        players: document.getElementById("players").value.split(",").map((name) => name.trim()).filter(Boolean),
        options: parseOptions(document.getElementById("options").value),
      };
      const seed = document.getElementById("seed").value.trim();
      if (seed) body.seed = seed;
      const created = await json("/games", { method: "POST", body });
      const links = document.getElementById("links");
      links.replaceChildren(
        ...created.seats.map((seat) => linkItem(`${seat.name} (seat ${seat.seat})`, path`/play/${created.id}` + `#token=${encodeURIComponent(seat.token)}`)),
        linkItem("Referee", path`/play/${created.id}` + `#token=${encodeURIComponent(created.referee_token)}`),
        linkItem("Spectators", path`/play/${created.id}`),
      );
      document.getElementById("created").hidden = false;
      links.querySelector("a").focus();
      listGames();
    } catch (error) {
      message.textContent = error.message;
    }
  }

  document.getElementById("new-game").addEventListener("submit", create);
  document.getElementById("refresh").addEventListener("click", () => { listGames(); listTournaments(); });
  listGames();
  listTournaments();
})();
