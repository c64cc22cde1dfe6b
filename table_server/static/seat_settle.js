/* The settle box on a player's phone (docs/rules/pending.md): exposed dice whose values are
   pending, one row per seat this player settles (their own, or shown beside theirs). Each row
   says who said what, in the order they said it ("Bob says 5-4-1: agree?"), has three
   choosers set to what this player picked, else what they said, else what the owner said, else
   what the camera is sure of, and one button: "These are my dice" for the owner, "Agree" once
   the owner has said, "Say these" before. A word the table refuses, or a die left blank, is
   said in the row, beside its button; a button whose word is given ("Said", "With the
   referee") is drawn as done, not lit. It follows the seat's state through the "bidou:state"
   event seat.js sends, and sends each word to POST /api/settle with the seat's token. */
"use strict";
(() => {
  const { el, clear, t, say } = Bidou;
  const seat = document.getElementById("seatpage").dataset.seat;
  const key = `bidou-token:${seat}`;
  // the values this player chose for a seat's dice, and the table's answer to their last word
  // on them, kept while that seat is being settled: the rows are drawn again at every change
  // of the table, and neither a choice nor an error may be lost to it
  const picked = {};
  const errors = {};
  const heard = {};  // the owner's word last drawn, per seat: when it comes, it is what is shown
  let last = null;  // the latest state drawn, to draw again when an answer comes

  const diceSaid = (values) => values.join("-");

  /* Who said what on `s`'s dice, in the order they said it, as this player reads it. */
  function whoSaid(s) {
    const said = s.said || {};
    const lines = [];
    for (const [player, values] of Object.entries(said)) {
      if (player === seat) {
        lines.push(t("You said %(dice)s.", { dice: diceSaid(values) }));
      } else if (player === s.seat && !(seat in said) && !s.referee) {
        lines.push(t("%(p)s says %(dice)s: agree?", { p: player, dice: diceSaid(values) }));
      } else {
        lines.push(t("%(p)s says %(dice)s.", { p: player, dice: diceSaid(values) }));
      }
    }
    return lines;
  }

  function row(s) {
    const said = s.said || {};
    const mine = said[seat];
    const ownerSaid = s.seat in said;
    const node = el("div", { class: "settlerow", "data-settle": s.seat });
    node.appendChild(el("strong", { class: "settlewhose" },
      s.seat === seat ? t("Your dice") : t("%(p)s's dice", { p: s.seat })));
    for (const line of whoSaid(s)) node.appendChild(el("p", { class: "settlesaid" }, line));
    const first = Object.values(said)[0];
    const start = picked[s.seat] || mine || said[s.seat] || first || s.guess;
    const pickers = start.map((v, i) => {
      const pick = el("select", { "aria-label": t("die %(n)s", { n: i + 1 }), "data-die": i });
      for (let f = 1; f <= 6; f++) pick.appendChild(el("option", { value: f }, String(f)));
      pick.value = v === null ? "" : String(v);
      pick.disabled = Boolean(mine || s.referee);
      return pick;
    });
    const choosers = el("span", { class: "settlechoosers" });
    for (const pick of pickers) {
      choosers.appendChild(pick);
      pick.addEventListener("change", () => {
        picked[s.seat] = pickers.map((p) => (p.value === "" ? null : Number(p.value)));
        if (errors[s.seat]) {  // a new choice: the last word's error no longer stands
          delete errors[s.seat];
          draw();
        }
      });
    }
    node.appendChild(choosers);
    const done = Boolean(s.referee || mine);
    const label = s.referee ? t("With the referee") : mine ? t("Said")
      : s.seat === seat ? t("These are my dice") : ownerSaid ? t("Agree") : t("Say these");
    const send = el("button", { class: done ? "btn done" : "btn lit", "data-settle-send": s.seat },
                    label);
    send.disabled = done;
    send.addEventListener("click", () => sendWord(s.seat, pickers.map((p) => p.value)));
    node.appendChild(send);
    const error = errors[s.seat] || (s.referee ? say(s.referee) : "");
    node.appendChild(el("p", { class: "refusal small settleerror", role: "alert",
                               "data-settle-error": s.seat }, error));
    if (!done && s.seat !== seat && !ownerSaid) {
      node.appendChild(el("p", { class: "muted small" },
                          t("Waiting for %(p)s to say them.", { p: s.seat })));
    }
    return node;
  }

  function draw() {
    const state = last;
    if (!state) return;
    const settling = (state.settling || []).filter(
      (s) => s.seat === seat || (s.witnesses || []).includes(seat));
    for (const owner of Object.keys(picked)) {
      if (!settling.some((s) => s.seat === owner)) delete picked[owner];
    }
    for (const owner of Object.keys(errors)) {
      if (!settling.some((s) => s.seat === owner)) delete errors[owner];
    }
    for (const s of settling) {
      const word = JSON.stringify((s.said || {})[s.seat] || null);
      if (heard[s.seat] !== undefined && heard[s.seat] !== word) {
        delete picked[s.seat];  // the owner has said: the choosers show it, to agree with
        delete errors[s.seat];
      }
      heard[s.seat] = word;
    }
    for (const owner of Object.keys(heard)) {
      if (!settling.some((s) => s.seat === owner)) delete heard[owner];
    }
    const box = document.getElementById("settle-box");
    box.hidden = !sessionStorage.getItem(key) || settling.length === 0;
    const list = clear(document.getElementById("settle"));
    for (const s of settling) list.appendChild(row(s));
  }

  async function sendWord(owner, chosen) {
    const token = sessionStorage.getItem(key);
    if (!token) return;
    if (chosen.some((v) => v === "")) {
      errors[owner] = t("Choose each die's value, 1 to 6, first.");
      draw();
      return;
    }
    let r;
    try {
      r = await fetch("/api/settle", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({ seat: owner, player: seat, values: chosen.map(Number) }),
      });
    } catch (err) {
      errors[owner] = t("The word did not reach the table; say it again once it is back.");
      draw();
      return;
    }
    const body = await r.json();
    // no rule code: the referee's console has it; the state that follows redraws the row
    if (r.ok) delete errors[owner];
    else errors[owner] = body.error;
    draw();
  }

  document.addEventListener("bidou:state", (e) => {
    last = e.detail || null;
    draw();
  });
})();
