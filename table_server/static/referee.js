/* The referee console's live parts: the camera picture refreshed every two seconds, and the
   needs-a-look queue, flags (one line per kind, with its count), every seat's dice and the log
   (the latest 15 entries, the rest folded) redrawn on every state change. */
"use strict";
(() => {
  const { el, clear, t, tn, say } = Bidou;
  const LOG_OPEN = 15;
  const camera = document.getElementById("camera");
  if (camera) {
    setInterval(() => { camera.src = `/referee/camera.jpg?annotated=1&t=${Date.now()}`; }, 2000);
  }

  /* Each item: its text, or [text, note]: the camera's own technical note, in English (it
     is marked so), after the sentence in the page's language. */
  function list(id, items, empty) {
    const node = clear(document.getElementById(id));
    if (!items.length && empty) node.appendChild(el("li", { class: "muted" }, empty));
    for (const item of items) {
      const [text, note] = Array.isArray(item) ? item : [item, null];
      const line = node.appendChild(el("li", {}, text));
      if (note) line.appendChild(el("span", { class: "note", lang: "en" }, ` (${note})`));
    }
  }

  /* "Enter dice" and "Read its dice again" choose the seat whose dice wait: when it changes
     (the console stays open through a game), not at every state, so a seat the referee chose
     stays chosen while the same dice wait. */
  let waiting = document.querySelector("select[data-follows-waiting]")?.dataset.followsWaiting || null;
  function follow(seat) {
    if (!seat || seat === waiting) return;
    waiting = seat;
    for (const pick of document.querySelectorAll("select[data-follows-waiting]")) pick.value = seat;
  }

  async function refresh() {
    const r = await fetch("/api/referee/state", { credentials: "same-origin" });
    if (!r.ok) return;
    const s = await r.json();
    list("needs-look", [...(s.disputes || []).map((d) => say(d.sentence)),
                        ...(s.needs_look || []).map((n) => [
                          t("%(seat)s: the camera could not read these dice surely",
                            { seat: n.seat }), n.reason])],
         t("Nothing waiting."));
    // a kind of flag said once, with how many times it came ("... ×12")
    const flags = clear(document.getElementById("flags"));
    if (!(s.flag_lines || []).length) flags.appendChild(el("li", { class: "muted" }, t("None.")));
    for (const line of s.flag_lines || []) {
      const item = el("li", {}, say(line.said));
      if (line.count > 1) item.append(" ", el("span", { class: "times" }, `×${line.count}`));
      flags.appendChild(item);
    }
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
    follow(s.waiting_seat);
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
