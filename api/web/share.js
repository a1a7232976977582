// The table page's share panel: download the game's export as this viewer may see it (the
// switches of `skald export`: format, notes, variations), a link to the position shown
// (?at=SEQ, a variation; never the token), and the full audit as a page. Files come through
// fetch with the page's token in the Authorization header, then are handed to the browser
// as a download (a plain link could not carry the token).
"use strict";

(() => {
  const { request, path, AUDIT_LATER } = Skald;
  const $ = (id) => document.getElementById(id);
  const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
  const base = path`/games/${gameId}`;
  const EXTENSIONS = { html: "html", md: "md", text: "txt", jsonl: "jsonl" };
  let shown = { seq: null, latest: null, variation: null, lookAs: null };

  const tell = (words) => { $("share-message").textContent = words || ""; };

  function positionLink() {
    const url = new URL(path`/play/${gameId}`, location.href);
    if (shown.variation) url.searchParams.set("variation", shown.variation);
    if (shown.seq !== null && shown.seq !== shown.latest) url.searchParams.set("at", String(shown.seq));
    return url.href;
  }

  function save(blob, name) {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  }

  async function download() {
    const format = $("export-format").value;
    const query = new URLSearchParams({
      format,
      comments: String($("export-comments").checked),
      variations: String($("export-variations").checked),
    });
    if (shown.lookAs) query.set("as", shown.lookAs);
    tell("Preparing the export…");
    try {
      const answer = await request(`${base}/export?${query}`);
      save(await answer.blob(), `${gameId}.${EXTENSIONS[format]}`);
      tell(`Downloaded ${gameId}.${EXTENSIONS[format]}.`);
    } catch (error) {
      tell(error.message);
    }
  }

  async function fullAudit() {
    tell("Opening the audit…");
    try {
      const answer = await request(`${base}/audit?format=html`);
      save(await answer.blob(), `${gameId}-audit.html`);
      tell("The full audit is downloaded as a page; open it to read.");
    } catch (error) {
      tell(error.status === 403 ? AUDIT_LATER : error.message);
    }
  }

  document.addEventListener("skald:position", (event) => {
    shown = event.detail;
    $("position-link").value = positionLink();
  });
  document.addEventListener("DOMContentLoaded", () => {
    $("export-download").addEventListener("click", download);
    $("audit-full").addEventListener("click", fullAudit);
    $("position-copy").addEventListener("click", () => {
      $("position-link").select();
      if (navigator.clipboard) navigator.clipboard.writeText($("position-link").value).then(() => tell("Link copied."), () => tell("Select the link and copy it."));
    });
  });
})();
