/* A seat controller on a player's phone: the four panel buttons (only what is allowed lit),
   the player's own dice, and why the last press was refused. The seat token arrives in the
   link from the QR code; it is kept in this tab's sessionStorage and removed from the address
   bar, and sent only as an Authorization header to this table's API. */
"use strict";
(() => {
  const { el, dice, clear } = Bidou;
  const page = document.getElementById("seatpage");
  const seat = page.dataset.seat;
  const key = `bidou-token:${seat}`;
  const params = new URLSearchParams(location.search);
  if (params.get("token")) {
    sessionStorage.setItem(key, params.get("token"));
    history.replaceState(null, "", location.pathname);
  }
  let token = sessionStorage.getItem(key);
  const refusal = document.getElementById("refusal");
  if (!token) document.getElementById("token-missing").hidden = false;

  /* A token the table does not know (it restarted: tokens are new each start) is dropped at
     its first 401, so a tab left open does not send it again on every event: each failed
     token counts towards this address's limit, and would lock out the new tabs too. */
  function forget(r, body) {
    if (r.status !== 401) return false;
    token = null;
    sessionStorage.removeItem(key);
    document.getElementById("token-missing").hidden = false;
    refusal.textContent = body.error;
    return true;
  }

  function lit(state, me) {
    const verbs = (state.allowed || {})[seat] || [];
    const has = (...vs) => vs.some((v) => verbs.includes(v));
    const offered = (me && me.offered) || 0;
    return {
      "btn-THROW": has("roll", "throw"),
      "btn-STAND": has("stand"),
      "btn-BET": has("bet", "raise"),
      "btn-POT": has("betpot", "callpot"),
      "btn-CALL": has("call", "callpot") || (offered > 0 && has("bet", "raise")),
      "btn-PASS": has("pass", "drop") || offered > 0,
      labels: {
        "btn-THROW": has("roll") ? "ROLL" : "THROW",
        "btn-CALL": offered > 0 ? (has("raise") ? `RAISE ${offered}` : `BET ${offered}`) : "CALL",
        "btn-PASS": offered > 0 ? "CANCEL" : (has("pass") ? "PASS" : (has("drop") ? "DROP" : "PASS")),
        "btn-BET": offered > 0 ? `BET +1 (${offered})` : "BET",
      },
    };
  }

  function render(state) {
    if (!state) return;
    const me = (state.seats || []).find((s) => s.name === seat);
    document.getElementById("seat-status").textContent =
      me && me.to_act ? `Your turn: ${state.prompt}` : state.prompt || "";
    if (me) {
      document.getElementById("my-chips").textContent = me.chips;
      document.getElementById("my-stake").textContent = me.stake;
      document.getElementById("my-throws").textContent = me.throws;
      if (me.refusal) refusal.textContent = me.refusal;
    }
    const state_lit = lit(state, me);
    for (const id of ["btn-THROW", "btn-STAND", "btn-BET", "btn-POT", "btn-CALL", "btn-PASS"]) {
      const b = document.getElementById(id);
      b.disabled = !token || !state_lit[id];
      b.classList.toggle("lit", Boolean(token && state_lit[id]));
      if (state_lit.labels[id]) b.textContent = state_lit.labels[id];
    }
    if (Array.isArray(state.dice) || state.dice === null) {
      const box = clear(document.getElementById("my-dice"));
      if (state.dice) box.appendChild(dice(state.dice, true));
      else box.appendChild(el("p", { class: "muted" }, "No dice under your cup yet."));
    }
    const others = clear(document.getElementById("others"));
    for (const s of state.seats || []) {
      const bits = [`${s.name}: ${s.chips} chips`, `throws ${s.throws}`];
      if (s.stake) bits.push(`stake ${s.stake}`);
      if (s.is_captain) bits.push("captain");
      if (s.to_act) bits.push("to act");
      others.appendChild(el("li", {}, bits.join(" · ")));
    }
    document.body.dataset.version = state.version;
  }

  async function refresh() {
    if (!token) return;
    const r = await fetch(`/api/seat/${encodeURIComponent(seat)}`,
                          { headers: { Authorization: `Bearer ${token}` } });
    const body = await r.json();
    if (forget(r, body)) return;
    if (!r.ok) { refusal.textContent = body.error; return; }
    render(body);
  }

  async function press(button, long) {
    if (!token) return;
    const r = await fetch("/api/press", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ seat, button, long }),
    });
    const body = await r.json();
    if (forget(r, body)) return;
    refusal.textContent = r.ok ? "" : body.error + (body.rule ? ` (${body.rule})` : "");
    await refresh();
  }

  const HOLD_MS = 600;
  for (const b of document.querySelectorAll(".btn[data-button]")) {
    let downAt = null;
    b.addEventListener("pointerdown", () => { downAt = performance.now(); });
    b.addEventListener("click", (e) => {
      e.preventDefault();
      const held = downAt !== null && performance.now() - downAt >= HOLD_MS;
      downAt = null;
      press(b.dataset.button, b.dataset.long === "1" || held);
    });
  }

  render(Bidou.initialState());
  refresh();
  // with a token: this seat's own state (its dice); without: the public state, buttons dark
  Bidou.listen((state) => (token ? refresh() : render(state)));
})();
