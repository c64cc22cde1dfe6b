/* The referee console's live parts: the camera picture refreshed every two seconds, and the
   needs-a-look queue, flags, every seat's dice and the log (the latest 15 entries, the rest
   folded) redrawn on every state change. */
"use strict";
(() => {
  const { el, clear, t, tn, say } = Bidou;
  const LOG_OPEN = 15;
  const camera = document.getElementById("camera");
  if (camera) {
    setInterval(() => { camera.src = `/referee/camera.jpg?annotated=1&t=${Date.now()}`; }, 2000);
  }

  function list(id, items, empty) {
    const node = clear(document.getElementById(id));
    if (!items.length && empty) node.appendChild(el("li", { class: "muted" }, empty));
    for (const text of items) node.appendChild(el("li", {}, text));
  }

  async function refresh() {
    const r = await fetch("/api/referee/state", { credentials: "same-origin" });
    if (!r.ok) return;
    const s = await r.json();
    list("needs-look", [...(s.disputes || []).map((d) => say(d.sentence)),
                        ...(s.needs_look || []).map((n) => `${n.seat}: ${n.reason}`)],
         t("Nothing waiting."));
    list("flags", s.flags || [], t("None."));
    const body = clear(document.getElementById("all-dice"));
    for (const seat of s.seats || []) {
      const row = el("tr");
      row.appendChild(el("th", {}, seat.name));
      const d = (s.dice || {})[seat.name];
      row.appendChild(el("td", {}, d ? d.join("-") : "–"));
      body.appendChild(row);
    }
    // the log newest first: the latest entries open, the earlier ones folded away, so the
    // page keeps its length however long the game
    const log = [...(s.history || [])].reverse();
    list("log", log.slice(0, LOG_OPEN), "");
    list("log-earlier", log.slice(LOG_OPEN), "");
    document.getElementById("log-fold").hidden = log.length <= LOG_OPEN;
    const earlier = Math.max(0, log.length - LOG_OPEN);
    document.getElementById("log-earlier-count").textContent =
      tn("%(n)s earlier entry", "%(n)s earlier entries", earlier);
    const status = document.getElementById("camera-status");
    if (status && s.camera) status.textContent = s.camera.error || s.camera.name || "";
  }
  // the table's prompt comes with its public state ("Bob to throw."), said in the page's language
  Bidou.listen((state) => {
    if (state && state.prompt) {
      document.getElementById("ref-prompt").textContent = say(state.prompt);
    }
    refresh();
  });
})();
