/* A seat controller on a player's phone: each button says what its next press does (from the
   table's own press mapping, /api/seat's `buttons`), only those that would be accepted are lit;
   the player's own dice with their name and place; at a showdown the others' dice and what it
   cost; a banner when the link to the table is lost and when it is back (the dice being
   settled are seat_settle.js's). The seat token
   arrives in the link from the QR code; it is kept in this tab's sessionStorage and removed
   from the address bar, and sent only as an Authorization header to this table's API. The
   table keeps its seat tokens across a restart, so this page keeps working through one. */
"use strict";
(() => {
  const { el, dice, clear, t, say } = Bidou;
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
  const link = document.getElementById("link");
  if (!token) document.getElementById("token-missing").hidden = false;
  const IDS = ["THROW", "STAND", "BET", "CALL", "PASS", "POT"];

  /* A token the table does not know (a new table, or a new log) is dropped at its first 401,
     so a tab left open does not send it again on every event: each failed token counts
     towards this address's limit, and would lock out the new tabs too. */
  function forget(r, body) {
    if (r.status !== 401) return false;
    token = null;
    sessionStorage.removeItem(key);
    document.getElementById("token-missing").hidden = false;
    refusal.textContent = body.error;
    return true;
  }

  function showLink(up) {
    link.hidden = false;
    link.dataset.state = up ? "back" : "lost";
    link.textContent = up ? t("Connected to the table again.")
      : t("Connection to the table lost: reconnecting… Presses wait until it is back.");
    if (up) setTimeout(() => { if (link.dataset.state === "back") link.hidden = true; }, 5000);
  }

  // BET's one bet, when the rules allow one amount only (two-hand's chip): one tap plays it
  let betAtOnce = null;

  function buttons(state) {
    betAtOnce = token ? state.bet_at_once || null : null;
    const labels = state.buttons || {};
    for (const id of IDS) {
      const b = document.getElementById(`btn-${id}`);
      if (!b) continue;
      const label = token && labels[id] ? say(labels[id]) : null;
      b.disabled = !label;
      b.classList.toggle("lit", Boolean(label));
      b.dataset.base = b.dataset.base || b.textContent;
      b.textContent = label || b.dataset.base;  // a dark button keeps the panel's name
    }
  }

  function showdown(state) {
    const shownSeats = (state.seats || []).filter((s) => s.exposed && s.exposed.length === 3);
    const box = document.getElementById("showdown-box");
    box.hidden = shownSeats.length === 0;
    const shown = clear(document.getElementById("shown"));
    for (const s of shownSeats) {
      const item = el("li", { "data-seat": s.name });
      item.appendChild(el("strong", {}, s.name === seat ? t("You") : s.name));
      item.appendChild(dice(s.exposed));
      const words = [say(s.exposed_name),
                     say(s.exposed_rank)].filter(Boolean).join(", ");
      const mark = { worse: t("WORSE THROW"), best: t("BEST THROW") }[s.mark];
      item.appendChild(el("span", {}, words + (mark ? ` · ${mark}` : "")));
      shown.appendChild(item);
    }
    // what the showdown cost: the table's sentence, then each chip move that concerns me
    const cost = clear(document.getElementById("cost"));
    const showdownLine = say(state.showdown);
    if (showdownLine) cost.appendChild(el("li", {}, showdownLine));
    const mine = (state.settled || []).filter(
      (e) => e.kind === "move" && (e.player === seat || e.dest === seat || e.source === seat));
    for (const e of mine) {
      const line = say(e.text);
      if (line !== showdownLine) cost.appendChild(el("li", {}, line));
    }
    // only once these dice have settled something: an open throw's first dice settle nothing yet
    if (shownSeats.length && !mine.length && (state.settled || []).length) {
      cost.appendChild(el("li", { class: "muted" }, t("No chips move to or from you.")));
    }
  }

  function render(state) {
    if (!state) return;
    const me = (state.seats || []).find((s) => s.name === seat);
    // on this player's turn: "Your turn: throw or stand" (what they may do, from the prompt)
    const choices = state.prompt && state.prompt.a && state.prompt.a.choices;
    // shown dice this player settles: what to do, said to them (the settle box is below)
    const settling = (state.settling || []).find(
      (s) => s.seat === seat || (s.witnesses || []).includes(seat));
    document.getElementById("seat-status").textContent = settling && token
      ? (settling.seat === seat ? t("The camera is not sure of your dice: say their values below.")
        : t("The camera is not sure of %(p)s's dice: check them below.", { p: settling.seat }))
      : me && me.to_act && !state.over && choices
        ? t("Your turn: %(prompt)s", { prompt: say(choices) })
        : say(state.prompt);
    const facing = document.getElementById("seat-facing");  // "Facing you: Bob's bet of 2 chips."
    facing.textContent = say(state.facing);
    facing.hidden = !state.facing;
    if (me) {
      document.getElementById("my-chips").textContent = me.chips;
      document.getElementById("my-chips-word").textContent = Bidou.tn("chip", "chips", me.chips);
      document.getElementById("my-stake").textContent = me.stake;
      document.getElementById("my-throws").textContent = me.throws;
    }
    // this seat's own state carries why its last press was refused, until its situation
    // changes (its turn, a new hand, a new game: the table clears it); never the pub's screen
    if (state.seat === seat) refusal.textContent = state.refusal ? say(state.refusal) : "";
    buttons(state);
    if (Array.isArray(state.dice) || state.dice === null) {
      const box = clear(document.getElementById("my-dice"));
      if (state.dice) box.appendChild(dice(state.dice, true));
      else if (state.dice_pending) box.appendChild(el("p", { class: "muted" },
        t("Your throw counts; the camera could not read it surely, so its values are settled if the dice are shown.")));
      else if (state.captain_roll) {  // the roller's own die of the captain roll
        box.appendChild(dice([state.captain_roll], true));
        box.appendChild(el("p", { id: "my-captain-roll" },
          t("Your captain roll: %(die)s", { die: state.captain_roll })));
      } else box.appendChild(el("p", { class: "muted" }, t("No dice under your cup yet.")));
      document.getElementById("my-throw").textContent = say(state.dice_name);
      document.getElementById("my-rank").textContent = say(state.dice_rank);
    }
    showdown(state);
    const others = clear(document.getElementById("others"));
    for (const s of state.seats || []) {
      const bits = [`${s.name}: ${Bidou.tn("%(n)s chip", "%(n)s chips", s.chips)}`,
                    t("throws %(n)s", { n: s.throws })];
      if (s.stake) bits.push(t("stake %(n)s", { n: s.stake }));
      if (s.last_words) bits.push(say(s.last_words));
      if (s.is_captain) bits.push(t("captain"));
      if (s.to_act) bits.push(t("to act"));
      others.appendChild(el("li", {}, bits.join(" · ")));
    }
    document.body.dataset.version = state.version;
    // seat_settle.js, seat_turn.js, howto.js
    document.dispatchEvent(new CustomEvent("bidou:state", { detail: state }));
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

  /* A press (`{button, long, id}`, to /api/press), or BET's one-tap bet (`{action, chips,
     id}`, to /api/act). */
  async function press(what, path = "/api/press") {
    if (!token) return;
    let r;
    try {
      r = await fetch(path, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({ seat, ...what }),
      });
    } catch (err) {
      showLink(false);
      refusal.textContent = t("The press did not reach the table; press again once it is back.");
      return;
    }
    const body = await r.json();
    if (forget(r, body)) return;
    refusal.textContent = r.ok ? "" : body.error;  // no rule code: the referee's console has it
    await refresh();
  }

  /* A press's id: taps of one button in quick succession, before the page has drawn what
     the first one did, are one press (a double tap), so the table answers the second as it
     answered the first and nothing else happens (firmware/table/press_repeats.py). */
  const REPEAT_MS = 1000;
  let lastPress = null;
  function pressId(key, label) {
    const now = performance.now();
    label = `${label}@${document.body.dataset.version}`;  // the table as the player saw it
    if (lastPress && lastPress.key === key && lastPress.label === label &&
        now - lastPress.at < REPEAT_MS) {
      lastPress.at = now;
      return lastPress.id;
    }
    const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
    lastPress = { key, label, at: now, id };
    return id;
  }

  /* A button shows it is held (class "held") from touch to release; holding THROW or BET as
     long as the panel's hold time is a long press. No text selection or context menu on a
     long press (the stylesheet and the contextmenu handler). */
  const HOLD_MS = 600;
  for (const b of document.querySelectorAll(".btn[data-button]")) {
    let downAt = null;
    const release = () => b.classList.remove("held");
    b.addEventListener("pointerdown", () => { downAt = performance.now(); b.classList.add("held"); });
    b.addEventListener("pointerup", release);
    b.addEventListener("pointercancel", release);
    b.addEventListener("pointerleave", release);
    b.addEventListener("contextmenu", (e) => e.preventDefault());
    b.addEventListener("click", (e) => {
      e.preventDefault();
      release();
      const held = downAt !== null && performance.now() - downAt >= HOLD_MS;
      downAt = null;
      const long = b.dataset.long === "1" || held;
      const id = pressId(`${b.id}:${long}`, b.textContent);
      if (b.id === "btn-BET" && betAtOnce && !long) press({ ...betAtOnce, id }, "/api/act");
      else press({ button: b.dataset.button, long, id });
    });
  }

  render(Bidou.initialState());
  refresh();
  // with a token: this seat's own state (its dice, its buttons); without: the public state
  Bidou.listen((state) => (token ? refresh() : render(state)), (up) => {
    showLink(up);
    if (up) refresh();
  });
})();
