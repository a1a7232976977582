// A tournament's page: its standings (rank, player, points, tie-breaks, rating ± uncertainty,
// after any round) and its rounds, each table linked to its game's page. Anyone gets the
// spectator links; a page holding a player's tournament token (#token=... in the fragment,
// never sent in a request line) also offers that player's own seat: a click asks the service
// for a fresh seat token of that game (POST .../tables/mine) and opens the table with it.
"use strict";

(() => {
  const { el, json, path } = Skald;
  const $ = (id) => document.getElementById(id);
  const parts = location.pathname.split("/").filter(Boolean);
  const tournamentId = decodeURIComponent(parts[parts.length - 2]);
  const base = path`/tournaments/${tournamentId}`;
  const state = { summary: null, me: { role: "spectator", player: null } };

  function say(textValue) {
    $("message").textContent = textValue || "";
  }

  const number = (value) => (Number.isInteger(value) ? String(value) : value.toFixed(2));

  function rating(value) {
    if (value && typeof value.mu === "number") return `${value.mu.toFixed(1)} ± ${value.sigma.toFixed(1)}`;
    return Object.entries(value || {}).map(([role, r]) => `${role} ${r.mu.toFixed(1)} ± ${r.sigma.toFixed(1)}`).join("; ");
  }

  async function drawStandings() {
    const after = $("after").value;
    const table = await json(`${base}/standings${after ? `?round=${encodeURIComponent(after)}` : ""}`);
    const breaks = state.summary.tiebreaks.filter((name) => name !== "h2h");
    $("standings").querySelector("thead").replaceChildren(
      el("tr", {},
        ["Rank", "Player", "Points", ...breaks.map((name) => `TB ${name}`), "Games", "Rating (μ ± σ)"]
          .map((name) => el("th", { scope: "col" }, name))),
    );
    $("standings").querySelector("tbody").replaceChildren(
      ...table.standings.map((row) =>
        el(
          "tr",
          { "data-player": row.player, class: row.player === state.me.player ? "me" : null },
          el("td", { class: "rank" }, row.rank),
          el("th", { scope: "row", class: "player" }, row.player, row.withdrawn ? " (withdrawn)" : "", row.byes ? ` (${row.byes} bye${row.byes > 1 ? "s" : ""})` : ""),
          el("td", { class: "points" }, number(row.points)),
          ...breaks.map((name) => el("td", { class: `tb-${name}` }, name in row.tiebreaks ? number(row.tiebreaks[name]) : "")),
          el("td", { class: "games" }, row.games),
          el("td", { class: "rating" }, rating(row.rating)),
        ),
      ),
    );
    if (!table.standings.length) $("standings").querySelector("tbody").replaceChildren(el("tr", {}, el("td", { colspan: 5 }, "No players.")));
    drawCrosstable(table.standings);
  }

  // Player × round, in standings order: the table, the place there once it counts, the opponents.
  function crossCell(player, paired) {
    if (paired.byes.includes(player)) return "bye";
    const table = paired.tables.find((t) => t.seats.includes(player));
    if (!table) return "–";
    const seat = table.seats.indexOf(player);
    const ranking = (table.outcome && table.outcome.ranking) || [];
    const group = ranking.findIndex((seats) => seats.includes(seat));
    const place = group >= 0 ? `${group + 1}.` : "…";
    return `t${table.table} ${place} v ${table.seats.filter((p) => p !== player).join(", ")}`;
  }

  function drawCrosstable(rows) {
    const rounds = state.summary.paired;
    $("crosstable").querySelector("thead").replaceChildren(
      el("tr", {}, ["Rank", "Player", ...rounds.map((r) => `Round ${r.round}`), "Points"].map((h) => el("th", { scope: "col" }, h))),
    );
    $("crosstable").querySelector("tbody").replaceChildren(
      ...rows.map((row) =>
        el("tr", { "data-player": row.player },
          el("td", {}, row.rank),
          el("th", { scope: "row" }, row.player),
          ...rounds.map((paired) => el("td", { "data-round": paired.round }, crossCell(row.player, paired))),
          el("td", {}, number(row.points)),
        ),
      ),
    );
  }

  function result(table) {
    const outcome = table.outcome;
    if (!outcome || !outcome.ranking) return "";
    const name = (who) => (typeof who === "number" ? table.seats[who] : who);
    return outcome.ranking.map((group, i) => `${i + 1}. ${group.map(name).join(" = ")}`).join(", ");
  }

  async function openMine(event, round) {
    event.preventDefault();
    say("");
    try {
      const mine = await json(`${base}/tables/mine?round=${round}`, { method: "POST" });
      location.assign(path`/play/${mine.game}` + `#token=${encodeURIComponent(mine.token)}`);
    } catch (error) {
      say(error.message);
    }
  }

  function links(table, paired) {
    // A duplicate round's games are read only by their own seats until the round is over
    // (core/tournament/seclusion.py): no "watch" link to one before then.
    const sealed = paired.duplicate && !paired.complete;
    const watch = sealed
      ? el("span", { class: "sealed" }, "sealed until the round is over")
      : el("a", { href: path`/play/${table.game}`, class: "watch" }, "watch");
    if (state.me.role !== "player" || !table.seats.includes(state.me.player)) return [watch];
    const play = el("a", { href: path`/play/${table.game}`, class: "my-seat", onclick: (event) => openMine(event, paired.round) }, "play my seat");
    return sealed ? [play] : [play, " · ", watch];
  }

  function drawRounds() {
    const rounds = state.summary.paired;
    $("rounds").replaceChildren(
      ...rounds.slice().reverse().map((paired) =>
        el(
          "section",
          { class: "round", "data-round": paired.round },
          el("h3", {}, `Round ${paired.round}`, paired.final ? " (final table)" : "", paired.duplicate ? " (duplicate)" : "", paired.complete ? " · complete" : " · in play"),
          el(
            "table",
            {},
            el("thead", {}, el("tr", {}, ["Table", "Seats", "Status", "Result", "Game"].map((h) => el("th", { scope: "col" }, h)))),
            el(
              "tbody",
              {},
              paired.tables.map((table) =>
                el(
                  "tr",
                  { "data-game": table.game, "data-table": table.table },
                  el("td", {}, table.table),
                  el("td", {}, table.seats.join(", ")),
                  el("td", {}, table.status, table.disputed_by ? ` (disputed by ${table.disputed_by})` : ""),
                  el("td", {}, result(table)),
                  el("td", {}, links(table, paired)),
                ),
              ),
            ),
          ),
          paired.byes.length ? el("p", { class: "note" }, `Byes: ${paired.byes.join(", ")}`) : null,
        ),
      ),
    );
    if (!rounds.length) $("rounds").replaceChildren(el("p", { class: "note" }, "No round paired yet."));
  }

  async function start() {
    try {
      const [summary, me] = await Promise.all([json(base), json(`${base}/me`)]);
      state.summary = summary;
      state.me = me;
    } catch (error) {
      return say(error.status === 401 ? "This link's token is not one of this tournament's." : error.message);
    }
    const s = state.summary;
    $("title").textContent = `${s.name || s.id} · ${s.game}`;
    document.title = `Skald · ${s.name || s.id}`;
    $("whoami").textContent = state.me.role === "player" ? `You: ${state.me.player}` : state.me.role === "organiser" ? "You: the organiser" : "Watching";
    $("setup").textContent = `${s.format}, ${s.paired.length} of ${s.rounds} rounds paired, tables of ${s.table_size}; points ${s.points.join("/")} (bye ${s.bye_points}); tie-breaks ${s.tiebreaks.join(", ")}.`;
    $("after").replaceChildren(
      el("option", { value: "" }, "now"),
      ...s.paired.map((paired) => el("option", { value: String(paired.round) }, `round ${paired.round}`)),
    );
    $("after").addEventListener("change", () => drawStandings().catch((error) => say(error.message)));
    drawRounds();
    try {
      await drawStandings();
    } catch (error) {
      say(error.message);
    }
  }

  start();
})();
