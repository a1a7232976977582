// The lobby: find games (by game, by state, tournament games under their tournament, a page
// at a time), create a game or a tournament, and hand out each seat's link (its token in
// the fragment, never in a request line).
"use strict";

(() => {
  const { el, json, path, gameName, linkItem } = Skald;
  const $ = (id) => document.getElementById(id);
  const PAGE = 25;
  const paging = { offset: 0, next: null };

  function stateOf(summary) {
    if (summary.outcome) return `finished: ${(summary.outcome.ranking[0] || []).map((seat) => summary.players[seat]).join(", ")} won`;
    if (!summary.to_act.length) return "waiting";
    return `${summary.to_act.map((seat) => summary.players[seat]).join(", ")} to act`;
  }

  // When: the whole date and time on a wide screen, a short form on a phone (app.css), the
  // whole one on hover either way.
  function created(at) {
    const moment = new Date(at);
    const whole = moment.toLocaleString();
    const short = moment.toLocaleString([], { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
    return el("td", { class: "created", title: whole },
      el("span", { class: "wide" }, whole), el("span", { class: "short" }, short));
  }

  function gameRow(item, summary) {
    return el(
      "tr",
      { "data-game": item.id, "data-kind": item.game },
      el("td", {}, el("a", { href: path`/play/${item.id}`, class: "game-link" }, gameName(item.game)),
        el("span", { class: "id note" }, ` ${item.id}`)),
      el("td", {}, summary ? summary.players.join(", ") : ""),
      el("td", { class: "state" }, summary ? stateOf(summary) : ""),
      el("td", { class: "seq" }, item.seq),
      created(item.created_at),
    );
  }

  // The filters go to the service, so that they and the page count apply to the whole list.
  async function listGames() {
    const body = document.querySelector("#games tbody");
    const query = new URLSearchParams({ limit: String(PAGE), offset: String(paging.offset) });
    if ($("filter-game").value) query.set("game", $("filter-game").value);
    if ($("filter-state").value) query.set("state", $("filter-state").value);
    if (!$("filter-tournament").checked) query.set("tournaments", "false");
    const filtered = query.has("game") || query.has("state");
    try {
      const page = await json(`/games?${query}`);
      const summaries = await Promise.all(page.items.map((item) => json(path`/games/${item.id}`).catch(() => null)));
      body.replaceChildren(...page.items.map((item, i) => gameRow(item, summaries[i])));
      if (!page.items.length) {
        const none = paging.offset ? "No more games." : filtered ? "No game matches."
          : query.has("tournaments") ? "No game outside a tournament yet." : "No games yet.";
        body.replaceChildren(el("tr", {}, el("td", { colspan: 5 }, none)));
      }
      paging.next = page.next_offset;
      $("older").disabled = page.next_offset === null;
      $("newer").disabled = paging.offset === 0;
      const which = filtered ? "matching games" : "games";
      $("page-info").textContent = page.items.length ? `${which} ${paging.offset + 1}–${paging.offset + page.items.length}` : "";
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

  const FORMATS = { swiss: "Swiss", "round-robin": "round robin", duplicate: "duplicate" };

  // A tournament in a line: its name (the game and format only where the name does not say
  // them), its rounds, the players still in, and where it stands.
  function tournamentHeading(s) {
    const name = s.name || "A tournament";
    const format = FORMATS[s.format] || s.format;
    const said = name.toLowerCase();
    const parts = [name];
    if (!said.includes(gameName(s.game).toLowerCase())) parts.push(gameName(s.game));
    if (!said.includes(format.toLowerCase()) && !said.includes(s.format)) parts.push(format);
    const regular = s.paired.filter((paired) => !paired.final);
    const final = s.paired.find((paired) => paired.final);
    const allPaired = regular.length >= s.rounds && (!s.final_table || final);
    const over = allPaired && s.paired.every((paired) => paired.complete);
    parts.push(`${regular.length} of ${s.rounds} round${s.rounds === 1 ? "" : "s"}${final ? " and the final table" : ""}`);
    const still = s.players.filter((player) => !s.withdrawn.includes(player)).length;
    const gone = s.players.length - still;
    parts.push(`${still} player${still === 1 ? "" : "s"}${gone ? ` (${gone} withdrawn)` : ""}`);
    const current = s.paired[s.paired.length - 1];
    parts.push(over ? "finished" : !current ? "not started" : current.complete ? "between rounds" : `round ${current.round} in play`);
    return parts.join(" · ");
  }

  async function listTournaments() {
    const box = $("tournaments");
    try {
      const page = await json("/tournaments?limit=30");
      const summaries = await Promise.all(page.items.map((item) => json(path`/tournaments/${item.id}`).catch(() => null)));
      box.replaceChildren(
        ...page.items.map((item, i) => {
          const s = summaries[i];
          const heading = s ? tournamentHeading(s) : item.name || "a tournament";
          return el(
            "details",
            { class: "tournament-row", "data-tournament": item.id },
            el("summary", {}, heading, " · ", el("a", { href: path`/tournaments/${item.id}/page`, class: "tournament-link" }, "tournament page")),
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
        ...created.seats.map((seat) => linkItem(`${seat.name} (seat ${seat.seat + 1})`, path`/play/${created.id}` + `#token=${encodeURIComponent(seat.token)}`)),
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

  // The store's signing key, to compare aloud with what the club says it is (`GET /key`).
  async function showKey() {
    try {
      const key = await json("/key");
      $("key-fingerprint").textContent = key.fingerprint;
      $("key-hex").textContent = key.public_key;
    } catch (error) {
      $("key-fingerprint").textContent = `unknown (${error.message})`;
    }
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
  showKey();
})();
