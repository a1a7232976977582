// A tournament's page: standings (after any round), a crosstable, and its rounds, each
// table linked to its game's page. A page holding a player's tournament token (#token=...
// in the fragment, never in a request line) also offers that player's own seat and a
// dispute of its result; the organiser's token opens the desk: pair, take results in, let
// bots play, register and withdraw players, hand out links, settle disputes with a ruling.
"use strict";

(() => {
  const { el, json, path, gameName, linkItem } = Skald;
  const $ = (id) => document.getElementById(id);
  const parts = location.pathname.split("/").filter(Boolean);
  const tournamentId = decodeURIComponent(parts[parts.length - 2]);
  const base = path`/tournaments/${tournamentId}`;
  const state = { summary: null, me: { role: "spectator", player: null } };

  function say(textValue) {
    $("message").textContent = textValue || "";
    if (textValue) $("info").textContent = "";
  }

  function tell(textValue) {
    $("info").textContent = textValue || "";
    if (textValue) $("message").textContent = "";
  }

  const number = (value) => (Number.isInteger(value) ? String(value) : value.toFixed(2));
  const organiser = () => state.me.role === "organiser";

  // Each tie-break (core/tournament/standing.py): a column header short enough for a phone,
  // a few words for the set-up line, and the whole sentence for the column's title. `game`
  // is the game's own tie-break (Outcome.tiebreaks).
  const GAME_TIEBREAK = {
    beowulf: ["Diamonds", "diamonds on unused figures", "diamonds on the figures left unused at the end of each game, summed"],
    hagar: ["Tie throws", "tie throws", "points of the sticks thrown to break ties at the feast, summed"],
    beast: ["Game tie-break", "the game's own tie-break", "the game's own tie-break, summed (Beast has none: always 0)"],
  };
  function tiebreak(name) {
    const words = {
      game: GAME_TIEBREAK[state.summary.game] || ["Game tie-break", "the game's own tie-break", "the game's own tie-break, summed over the games"],
      score: ["Score", "total score", "the player's scores in the games, summed"],
      share: ["Share", "share of the table's score", "the player's share of each table's total score, summed over the games"],
      opponents: ["Buchholz", "Buchholz (opponents' points)", "the points of every opponent met, summed over the games (Buchholz)"],
      h2h: ["Head to head", "head to head", "among the players still tied: places won minus places lost against each other"],
    };
    const [short, said, long] = words[name] || [name, name, name];
    return { short, said, long };
  }

  const FORMATS = { swiss: "Swiss", "round-robin": "Round robin", duplicate: "Duplicate" };

  // Whether every round (and the final table, if there is one) is paired, and whether
  // every game of them is over.
  function progress(s) {
    const rounds = s.paired.filter((paired) => !paired.final).length;
    const allPaired = rounds >= s.rounds && (!s.final_table || s.paired.some((paired) => paired.final));
    return { allPaired, finished: allPaired && s.paired.every((paired) => paired.complete) };
  }

  // A table's status in words: a ruling as a sentence, the rest as the service says it.
  function statusWords(status) {
    const ruled = /^ruled (stands|adjusted|replayed): ?([\s\S]*)$/.exec(status);
    if (!ruled) return status;
    const what = { stands: "the result stands", adjusted: "the order is adjusted", replayed: "the table is replayed" }[ruled[1]];
    return `Ruling: ${what}${ruled[2] ? ` — ${ruled[2]}` : ""}`;
  }

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
        el("th", { scope: "col" }, "Rank"), el("th", { scope: "col" }, "Player"), el("th", { scope: "col" }, "Points"),
        ...breaks.map((name) => el("th", { scope: "col", class: `tb-${name}`, title: `Tie-break: ${tiebreak(name).long}` }, tiebreak(name).short)),
        el("th", { scope: "col" }, "Games"), el("th", { scope: "col" }, "Rating (μ ± σ)")),
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

  // Player × round, in standings order: the table, the place there once it counts (a win,
  // a place), the opponents.
  function crossCell(player, paired) {
    if (paired.byes.includes(player)) return "bye";
    const table = paired.tables.find((t) => t.seats.includes(player));
    if (!table) return "–";
    const seat = table.seats.indexOf(player);
    const ranking = (table.outcome && table.outcome.ranking) || [];
    const group = ranking.findIndex((seats) => seats.includes(seat));
    const others = table.seats.filter((p) => p !== player).join(", ");
    const where = `table ${table.table}`;
    if (group < 0) return `${where}, ${table.status.startsWith("held") ? "result held" : "in play"}, against ${others}`;
    const alone = ranking[group].length === 1;
    if (group === 0 && alone) return `${where}, won against ${others}`;
    if (table.seats.length === 2 && alone) return `${where}, lost to ${others}`;
    const ahead = ranking.slice(0, group).reduce((sum, seats) => sum + seats.length, 0);
    return `${where}, ${alone ? "" : "shared "}${ordinal(ahead + 1)} of ${table.seats.length} against ${others}`;
  }

  const ordinal = (n) => `${n}${n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th"}`;

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

  function disputeForm(table) {
    const reason = el("input", { required: true, autocomplete: "off", "aria-label": `Why you dispute table ${table.table}`, placeholder: "what went wrong" });
    return el("form", { class: "dispute", onsubmit: (event) => act(event, "disputes", { game: table.game, reason: reason.value.trim() }, "Your dispute is recorded; the result stands until the organiser rules.") },
      reason, el("button", { type: "submit" }, "Dispute"));
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
    const mayDispute = table.outcome && !table.disputed_by && !table.status.startsWith("ruled");
    return [play, ...(sealed ? [] : [" · ", watch]), mayDispute ? disputeForm(table) : null];
  }

  function drawRounds() {
    const rounds = state.summary.paired;
    $("rounds").replaceChildren(
      ...rounds.slice().reverse().map((paired) =>
        el(
          "section",
          { class: "round", "data-round": paired.round },
          el("h3", {}, `Round ${paired.round}`, paired.final ? " (final table)" : "", paired.duplicate ? " (duplicate)" : "", paired.complete ? " · complete" : " · in play"),
          el("div", { class: "scroll" }, el(
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
                  el("td", {}, statusWords(table.status), table.disputed_by ? ` (disputed by ${table.disputed_by})` : ""),
                  el("td", {}, result(table)),
                  el("td", {}, links(table, paired)),
                ),
              ),
            ),
          )),
          paired.byes.length ? el("p", { class: "note" }, `Byes: ${paired.byes.join(", ")}`) : null,
        ),
      ),
    );
    if (!rounds.length) $("rounds").replaceChildren(el("p", { class: "note" }, "No round paired yet."));
  }

  // --- the organiser's desk --------------------------------------------------------------

  let pairBlocked = "";  // why the next round cannot be paired (every round is), or ""

  function busy(on) {
    for (const button of document.querySelectorAll("#desk button, form.dispute button")) button.disabled = on;
  }

  // One desk action: POST, redraw the page from the service, let `after` show what the
  // answer holds, then say what happened in words (last, so the words mean it is all drawn).
  async function act(event, route, body, done, after) {
    if (event) event.preventDefault();
    busy(true);
    say("");
    try {
      const answer = await json(`${base}/${route}`, { method: "POST", body });
      await refresh();
      if (after) after(answer);
      tell(typeof done === "function" ? done(answer) : done);
      return answer;
    } catch (error) {
      say(error.message);
      return null;
    } finally {
      busy(false);
    }
  }

  // Bots never take a seat a person has played in without the organiser's yes: the service
  // answers 409 needs_confirmation naming the tables and seats, and the desk asks.
  async function letBotsPlay() {
    const said = (played) => `The bots played ${played.games.length} game${played.games.length === 1 ? "" : "s"}; take in the results.`;
    busy(true);
    say("");
    try {
      let played;
      try {
        played = await json(`${base}/autoplay`, { method: "POST", body: { bots: "greedy" } });
      } catch (error) {
        if (error.code !== "needs_confirmation") throw error;
        busy(false);
        if (!window.confirm(error.message)) return tell("Nothing was played.");
        busy(true);
        played = await json(`${base}/autoplay`, { method: "POST", body: { bots: "greedy", take_seats: true } });
      }
      await refresh();
      tell(said(played));
    } catch (error) {
      say(error.message);
    } finally {
      busy(false);
    }
  }

  // No table comes with a referee link (an organiser may play too; a referee reads every
  // hand): a Swiss table gets a link to watch it as anyone may, a duplicate table none,
  // since its round is sealed until every table has finished.
  function handOut(paired) {
    const items = paired.tables.map((table) => {
      const label = `Round ${paired.round}, table ${table.table} (${table.seats.join(", ")})`;
      return paired.duplicate
        ? el("li", {}, `${label}: sealed until every table of the round has finished`)
        : linkItem(`${label}: watch`, path`/play/${table.game}`);
    });
    $("handout-links").replaceChildren(...items);
    $("handout").hidden = false;
  }

  const pair = () => (pairBlocked ? tell(pairBlocked) : act(null, "pair", undefined, (paired) =>
    `Round ${paired.round} is paired: ${paired.tables.length} table${paired.tables.length === 1 ? "" : "s"}${paired.byes.length ? `; byes: ${paired.byes.join(", ")}` : ""}.`, handOut));

  function settleForm(table, round) {
    const ruling = el("select", { "aria-label": "Ruling" },
      el("option", { value: "stands" }, "the result stands"),
      el("option", { value: "adjusted" }, "adjust the order"),
      el("option", { value: "replayed" }, "replay the table"));
    const reason = el("input", { required: true, autocomplete: "off", "aria-label": "Reason", placeholder: "the reason" });
    const ranking = el("input", { autocomplete: "off", "aria-label": "New order", placeholder: table.seats.join(">") });
    const submit = (event) => {
      const body = { ruling: ruling.value, reason: reason.value.trim() };
      if (ruling.value === "adjusted") {
        body.ranking = ranking.value.split(">").map((group) => group.split("=").map((name) => name.trim()).filter(Boolean)).filter((group) => group.length);
      }
      return act(event, path`disputes/${table.game}/settle`, body, (settled) => `Ruling on round ${round}, table ${table.table}: ${statusWords(`ruled ${settled.event.ruling}:`).replace(/^Ruling: /, "")}.`);
    };
    return el("form", { class: "settle", "data-game": table.game, onsubmit: submit },
      el("p", {}, `Round ${round}, table ${table.table} (${table.seats.join(", ")}): ${table.disputed_by ? `disputed by ${table.disputed_by}` : "held"}`),
      el("div", { class: "row" }, ruling, reason, ranking, el("button", { type: "submit" }, "Rule")));
  }

  function drawDesk() {
    const s = state.summary;
    $("desk").hidden = false;
    const open = s.paired.length && !s.paired[s.paired.length - 1].complete;
    const { allPaired } = progress(s);
    pairBlocked = allPaired ? `Every round of ${s.name || "this tournament"} is paired.` : "";
    $("pair").title = pairBlocked || (open ? "The current round is still in play." : "");
    // aria-disabled, not disabled: the button keeps its focus and its title, and says why.
    if (pairBlocked) $("pair").setAttribute("aria-disabled", "true");
    else $("pair").removeAttribute("aria-disabled");
    $("pair-why").textContent = pairBlocked;
    $("pair-why").hidden = !pairBlocked;
    $("withdraw-name").replaceChildren(...s.players.filter((name) => !s.withdrawn.includes(name)).map((name) => el("option", { value: name }, name)));
    const pending = s.paired.flatMap((paired) => paired.tables
      .filter((table) => !table.status.startsWith("ruled") && (table.disputed_by || table.status.startsWith("held")))
      .map((table) => settleForm(table, paired.round)));
    $("dispute-list").replaceChildren(...(pending.length ? pending : [el("p", { class: "note" }, "No open dispute.")]));
  }

  async function refresh() {
    state.summary = await json(base);
    const s = state.summary;
    $("setup").textContent = `${FORMATS[s.format] || s.format}, ${s.paired.length} of ${s.rounds} rounds paired, tables of ${s.table_size}; points ${s.points.join("/")} (bye ${s.bye_points}); tie-breaks in order: ${s.tiebreaks.map((name) => tiebreak(name).said).join(", ")}.`;
    const chosen = $("after").value;
    $("after").replaceChildren(
      el("option", { value: "" }, "now"),
      ...s.paired.map((paired) => el("option", { value: String(paired.round) }, `round ${paired.round}`)),
    );
    $("after").value = s.paired.some((paired) => String(paired.round) === chosen) ? chosen : "";
    drawRounds();
    if (organiser()) drawDesk();
    await drawStandings();
  }

  async function start() {
    try {
      state.me = await json(`${base}/me`);
    } catch (error) {
      return say(error.status === 401 ? "This link's token is not one of this tournament's." : error.message);
    }
    const whoami = { player: `You: ${state.me.player}`, organiser: "You: the organiser" };
    $("whoami").textContent = whoami[state.me.role] || "Watching";
    $("after").addEventListener("change", () => drawStandings().catch((error) => say(error.message)));
    if (organiser()) {
      $("pair").addEventListener("click", pair);
      $("results").addEventListener("click", () => act(null, "results", undefined, (taken) =>
        [`${taken.events.length} result${taken.events.length === 1 ? "" : "s"} taken in.`,
          ...(taken.waiting || []).map((w) => `${w.message[0].toUpperCase()}${w.message.slice(1)}.`)].join(" ")));
      $("autoplay").addEventListener("click", letBotsPlay);
      $("register").addEventListener("submit", async (event) => {
        const name = $("register-name").value.trim();
        await act(event, "players", { player: name }, `${name} is registered and will be paired from the next round.`, (answer) => {
          $("handout-links").replaceChildren(linkItem(`${answer.name}: their tournament link`, `${path`/tournaments/${tournamentId}/page`}#token=${encodeURIComponent(answer.token)}`));
          $("handout").hidden = false;
          $("register-name").value = "";
        });
      });
      $("withdraw").addEventListener("submit", (event) => {
        const name = $("withdraw-name").value;
        return act(event, "withdraw", { player: name }, `${name} is withdrawn; past results stay.`);
      });
    }
    try {
      await refresh();
    } catch (error) {
      say(error.message);
    }
    const s = state.summary;
    const name = s ? s.name || "A tournament" : "tournament";
    document.title = `Skald · ${name}`;
    if (s) $("title").textContent = name.toLowerCase().includes(gameName(s.game).toLowerCase()) ? name : `${name} · ${gameName(s.game)}`;
  }

  start();
})();
