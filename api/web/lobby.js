// The lobby: find games (by game, by state, tournament games under their tournament, a page
// at a time), create a game or a tournament, and hand out each seat's link (its token in
// the fragment, never in a request line).
"use strict";

(() => {
  const { el, json, path, gameName, linkItem } = Skald;
  const $ = (id) => document.getElementById(id);
  const PAGE = 25;
  const paging = { offset: 0, next: null };
  let tournamentIds = [];

  function stateOf(summary) {
    if (summary.outcome) return `finished (${summary.outcome.termination})`;
    if (!summary.to_act.length) return "waiting";
    return `${summary.to_act.map((seat) => summary.players[seat]).join(", ")} to act`;
  }

  function wanted(summary) {
    const state = $("filter-state").value;
    if (state === "finished") return Boolean(summary && summary.outcome);
    if (state === "to-act") return Boolean(summary && !summary.outcome && summary.to_act.length);
    return true;
  }

  const inTournament = (id) => tournamentIds.some((tid) => id.startsWith(`${tid}.r`));

  function gameRow(item, summary) {
    return el(
      "tr",
      { "data-game": item.id, "data-kind": item.game },
      el("td", {}, el("a", { href: path`/play/${item.id}`, class: "game-link" }, gameName(item.game)),
        el("span", { class: "id note" }, ` ${item.id}`)),
      el("td", {}, summary ? summary.players.join(", ") : ""),
      el("td", { class: "state" }, summary ? stateOf(summary) : ""),
      el("td", {}, item.seq),
      el("td", {}, new Date(item.created_at).toLocaleString()),
    );
  }

  async function listGames() {
    const body = document.querySelector("#games tbody");
    const game = $("filter-game").value;
    const query = `/games?limit=${PAGE}&offset=${paging.offset}${game ? `&game=${encodeURIComponent(game)}` : ""}`;
    try {
      const page = await json(query);
      const withTournaments = $("filter-tournament").checked;
      const items = page.items.filter((item) => withTournaments || !inTournament(item.id));
      const summaries = await Promise.all(items.map((item) => json(path`/games/${item.id}`).catch(() => null)));
      const rows = items.map((item, i) => [item, summaries[i]]).filter(([, summary]) => wanted(summary));
      body.replaceChildren(...rows.map(([item, summary]) => gameRow(item, summary)));
      if (!rows.length) body.replaceChildren(el("tr", {}, el("td", { colspan: 5 }, page.items.length ? "No game on this page matches." : "No games yet.")));
      paging.next = page.next_offset;
      $("older").disabled = page.next_offset === null;
      $("newer").disabled = paging.offset === 0;
      $("page-info").textContent = page.items.length ? `games ${paging.offset + 1}–${paging.offset + page.items.length}` : "";
    } catch (error) {
      $("message").textContent = error.message;
    }
  }

  function tableItem(table) {
    const result = table.outcome && table.outcome.ranking
      ? table.outcome.ranking.map((group, i) => `${i + 1}. ${group.map((who) => (typeof who === "number" ? table.seats[who] : who)).join(" = ")}`).join(", ")
      : table.status;
    return el("li", { "data-game": table.game },
      el("a", { href: path`/play/${table.game}` }, `Table ${table.table}: ${table.seats.join(", ")}`), ` · ${result}`);
  }

  async function listTournaments() {
    const box = $("tournaments");
    try {
      const page = await json("/tournaments?limit=30");
      tournamentIds = page.items.map((item) => item.id);
      const summaries = await Promise.all(page.items.map((item) => json(path`/tournaments/${item.id}`).catch(() => null)));
      box.replaceChildren(
        ...page.items.map((item, i) => {
          const s = summaries[i];
          const heading = s
            ? `${s.name || s.id} · ${gameName(s.game)} · ${s.format} · ${s.paired.length} of ${s.rounds} rounds · ${s.players.length} players`
            : item.name || item.id;
          return el(
            "details",
            { class: "tournament-row", "data-tournament": item.id },
            el("summary", {}, heading, " · ", el("a", { href: path`/tournaments/${item.id}/page`, class: "tournament-link" }, "open")),
            s ? s.paired.map((paired) =>
              el("section", {}, el("h3", {}, `Round ${paired.round}${paired.complete ? " · complete" : " · in play"}`),
                el("ul", { class: "tables" }, paired.tables.map(tableItem)))) : null,
          );
        }),
      );
      if (!page.items.length) box.replaceChildren(el("p", { class: "note" }, "No tournaments yet."));
    } catch (error) {
      $("message").textContent = error.message;
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

  const names = (value) => value.split(",").map((name) => name.trim()).filter(Boolean);

  async function create(event) {
    event.preventDefault();
    $("message").textContent = "";
    try {
      const body = {
        game: $("game").value,
        players: names($("players").value),
        options: parseOptions($("options").value),
      };
      const seed = $("seed").value.trim();
      if (seed) body.seed = seed;
      const created = await json("/games", { method: "POST", body });
      $("links").replaceChildren(
        ...created.seats.map((seat) => linkItem(`${seat.name} (seat ${seat.seat})`, path`/play/${created.id}` + `#token=${encodeURIComponent(seat.token)}`)),
        linkItem("Referee", path`/play/${created.id}` + `#token=${encodeURIComponent(created.referee_token)}`),
        linkItem("Spectators", path`/play/${created.id}`),
      );
      $("created").hidden = false;
      $("links").querySelector("a").focus();
      listGames();
    } catch (error) {
      $("message").textContent = error.message;
    }
  }

  async function createTournament(event) {
    event.preventDefault();
    $("t-message").textContent = "";
    try {
      const body = {
        game: $("t-game").value,
        format: $("t-format").value,
        players: names($("t-players").value),
        rounds: Number($("t-rounds").value),
        table_size: Number($("t-table-size").value),
      };
      const name = $("t-name").value.trim();
      const seed = $("t-seed").value.trim();
      if (name) body.name = name;
      if (seed) body.seed = seed;
      const created = await json("/tournaments", { method: "POST", body });
      const page = path`/tournaments/${created.id}/page`;
      $("t-links").replaceChildren(
        linkItem("Organiser (the desk)", `${page}#token=${encodeURIComponent(created.organiser_token)}`),
        ...created.players.map((player) => linkItem(player.name, `${page}#token=${encodeURIComponent(player.token)}`)),
        linkItem("Everyone else", page),
      );
      $("t-created").hidden = false;
      $("t-links").querySelector("a").focus();
      listTournaments();
    } catch (error) {
      $("t-message").textContent = error.message;
    }
  }

  async function refresh() {
    await listTournaments();
    await listGames();
  }

  $("new-game").addEventListener("submit", create);
  $("new-tournament").addEventListener("submit", createTournament);
  $("refresh").addEventListener("click", refresh);
  for (const id of ["filter-game", "filter-state", "filter-tournament"]) {
    $(id).addEventListener("change", () => { paging.offset = 0; listGames(); });
  }
  $("older").addEventListener("click", () => { if (paging.next !== null) { paging.offset = paging.next; listGames(); } });
  $("newer").addEventListener("click", () => { paging.offset = Math.max(0, paging.offset - PAGE); listGames(); });
  refresh();
})();
