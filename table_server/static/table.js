/* The table view: seats round the felt (a grid, so no two cards can overlap at any width),
   each with its score, chips, last action, declared throws and, at a showdown, the dice, the
   throw's name and place and which throw is the worse; the banner says the variant's stakes,
   hand and round, what is expected, what this hand began with, and how the game ended.
   Redrawn from the whole public state on every event, so it can never drift from the table.
   The script only says where each seat sits (CSS custom properties); the stylesheet decides
   how, so the phone layout is the stylesheet's to change. */
"use strict";
(() => {
  const { el, dice, chips, clear, t, tn, say } = Bidou;
  const EXPECTS = { roll: t("to roll"), throw: t("to throw"), bet: t("to bet") };
  const MARKS = { worse: t("WORSE THROW"), best: t("BEST THROW") };
  const RESULTS = { loser: t("LOSER"), winner: t("WINNER") };

  function seatCard(seat, state) {
    const classes = ["seat"];
    if (seat.to_act && !state.over) classes.push("to-act");
    if (seat.out) classes.push("out");
    if (seat.result) classes.push(seat.result);
    if (seat.mark) classes.push(`mark-${seat.mark}`);
    const card = el("section", { class: classes.join(" "), "data-seat": seat.name });
    card.appendChild(el("h2", {}, seat.name));
    const badges = el("div", { class: "badges" });
    if (seat.result) badges.appendChild(el("span", { class: `badge ${seat.result}` },
                                            RESULTS[seat.result] || seat.result));
    if (seat.is_captain && !state.over) badges.appendChild(el("span", { class: "badge captain" }, t("CAPTAIN")));
    if (seat.to_act && !state.over) badges.appendChild(el("span", { class: "badge turn" },
                                            EXPECTS[state.expects] || t("to act")));
    if (seat.unsettled) badges.appendChild(el("span", { class: "badge look" }, t("values pending")));
    if (seat.out) badges.appendChild(el("span", { class: "badge" }, t("out")));
    if (seat.last_words && !state.over) badges.appendChild(el("span", { class: "badge action" }, say(seat.last_words_said || seat.last_words)));
    card.appendChild(badges);
    const row = el("div", { class: "chips" });
    row.appendChild(chips(seat.chips, undefined, 9));
    row.appendChild(el("span", { class: "count", "data-chips": seat.chips }, seat.chips));
    row.appendChild(el("span", { class: "unit" }, tn("chip", "chips", seat.chips)));
    card.appendChild(row);
    if (state.variant === "two-hand") {
      const score = el("div", { class: "seatscore", "data-score": seat.score });
      score.appendChild(el("span", { class: "num" }, seat.score));
      score.appendChild(el("span", { class: "unit" }, ` ${say(seat.score_label_said || seat.score_label)}`));
      card.appendChild(score);
    }
    const throws = Number(seat.throws) || 0;
    const line = el("div", { class: "line" });
    line.appendChild(el("span", {}, `${t("throws")} `));
    line.appendChild(el("span", { class: "pips" }, "●".repeat(throws) + "○".repeat(Math.max(0, 3 - throws))));
    if (seat.stake) line.appendChild(el("span", {}, ` · ${t("stake %(n)s", { n: seat.stake })}`));
    if (seat.offered) line.appendChild(el("span", {}, ` · ${t("offers %(n)s", { n: seat.offered })}`));
    card.appendChild(line);
    if (seat.exposed && seat.exposed.length) {
      card.appendChild(dice(seat.exposed));
      // non-breaking hyphens: a line may break between words, never inside "6-5-4"
      if (seat.exposed_name) card.appendChild(el("p", { class: "throwname" },
                                                 say(seat.exposed_name_said || seat.exposed_name).replace(/-/g, "\u2011")));
      if (seat.exposed_rank) card.appendChild(el("p", { class: "throwrank" }, say(seat.exposed_rank_said || seat.exposed_rank)));
      if (seat.mark) card.appendChild(el("p", { class: `mark ${seat.mark}` }, MARKS[seat.mark]));
    }
    const settling = (state.settling || []).find((s) => s.seat === seat.name);
    if (settling) card.appendChild(settleBox(settling, state));
    return card;
  }

  /* Exposed dice the camera could not read surely: the seat's picture, unsure dice marked in
     red, and what the table is waiting for (the players' word, or the referee). */
  function settleBox(settling, state) {
    const box = el("div", { class: "settle", "data-settle": settling.seat });
    if (settling.picture) {
      box.appendChild(el("img", { class: "settlepic", alt: t("%(p)s's dice", { p: settling.seat }),
                                  src: `/api/settle/${encodeURIComponent(settling.seat)}.jpg?v=${state.version}` }));
    }
    const guess = settling.guess.map((v) => (v === null ? "?" : v)).join(" ");
    box.appendChild(el("p", { class: "small" }, t("Camera: %(guess)s (red: not sure)", { guess })));
    const said = settling.said || {};
    const who = [settling.seat, ...settling.witnesses];
    const waiting = who.filter((p) => !(p in said));
    const ask = tn("Settle %(p)s's dice on your phones: %(p)s says them, %(others)s agrees.",
                   "Settle %(p)s's dice on your phones: %(p)s says them, %(others)s agree.",
                   settling.witnesses.length,
                   { p: settling.seat, others: settling.witnesses.join(` ${t("and")} `) });
    box.appendChild(el("p", { class: "settleask" }, settling.referee
      ? say(settling.referee_said || settling.referee)
      : ask + (waiting.length ? ` ${t("(waiting for %(names)s)", { names: waiting.join(", ") })}` : "")));
    return box;
  }

  /* Where seat i of n sits: two face each other across the centre; more go clockwise along
     the top row (left to right) then the bottom row (right to left), each card two grid
     columns wide so a shorter bottom row is centred. */
  function place(i, n) {
    if (n === 2) return { row: 1, col: i === 0 ? 1 : 5 };
    const top = Math.ceil(n / 2), bottom = n - top;
    if (i < top) return { row: 1, col: 2 * i + 1 };
    const j = i - top;
    return { row: 3, col: (top - bottom) + 2 * (bottom - 1 - j) + 1 };
  }

  function centre(state, n) {
    const box = clear(document.getElementById("centre"));
    const cols = n === 2 ? 6 : 2 * Math.ceil(n / 2);
    box.style.setProperty("--row", n === 2 ? 1 : 2);
    box.style.setProperty("--col", n === 2 ? 3 : 1);
    box.style.setProperty("--span", n === 2 ? 2 : cols);
    const pile = el("div", { class: "pile" });
    const parts = [];
    if (state.variant === "two-hand") parts.push(["centre", t("Centre"), state.centre, "#1565c0"]);
    parts.push(["pot", t("Pot"), state.pot, "#c62828"]);
    if (state.removed) parts.push(["removed", t("Removed"), state.removed, "#555"]);
    for (const [key, label, count, colour] of parts) {
      const spot = el("div", { class: "spot", "data-pile": key });
      spot.appendChild(chips(count, colour, 6));
      spot.appendChild(el("span", { class: "count" }, count ?? 0));
      spot.appendChild(el("span", {}, label));
      pile.appendChild(spot);
    }
    box.appendChild(pile);
    return cols;
  }

  function banner(state) {
    const text = (id, value) => {
      const node = document.getElementById(id);
      node.textContent = value || "";
      node.hidden = !value;
    };
    const VARIANTS = { "two-hand": t("two-hand"), "multi-hand": t("multi-hand"),
                       montevideo: t("Montevideo") };
    document.getElementById("title").textContent =
      `Bidou · ${VARIANTS[state.variant] || state.variant || ""}`;
    text("progress", say(state.progress_said || state.progress));
    text("prompt", say(state.prompt_said || state.prompt));
    text("reminder", say(state.reminder_said || state.reminder));
    text("showdown", say(state.showdown_said || state.showdown));
    text("hint", say(state.hint_said || state.hint));
    document.body.classList.toggle("over", Boolean(state.over));
    const announce = clear(document.getElementById("announce"));
    for (const sentence of state.announce_said || state.announce || []) {
      announce.appendChild(el("li", {}, say(sentence)));
    }
    announce.hidden = !(state.announce || []).length;
    const score = document.getElementById("score");
    if (state.variant === "two-hand" && state.rounds_lost) {
      score.textContent = t("Rounds lost: %(list)s", { list: Object.entries(state.rounds_lost)
        .map(([p, n]) => `${p} ${n}`).join(" · ") });
    } else {
      score.textContent = t("Chips: %(list)s", { list: Object.entries(state.chips || {})
        .map(([p, n]) => `${p} ${n}`).join(" · ") });
    }
  }

  function render(state) {
    if (!state) return;
    banner(state);
    const felt = document.getElementById("felt");
    for (const old of felt.querySelectorAll(".seat")) old.remove();
    const seats = state.seats || [];
    felt.dataset.seats = seats.length;
    felt.style.setProperty("--cols", centre(state, seats.length));
    seats.forEach((seat, i) => {
      const card = seatCard(seat, state);
      const { row, col } = place(i, seats.length);
      card.style.setProperty("--row", row);
      card.style.setProperty("--col", col);
      felt.appendChild(card);
    });
    const events = clear(document.getElementById("events"));
    for (const sentence of (state.events_said || state.events || []).slice(-8).reverse()) {
      events.appendChild(el("li", {}, say(sentence).replace(/(\d)-(?=\d)/g, "$1\u2011")));
    }
    document.body.dataset.version = state.version;
  }

  render(Bidou.initialState());
  Bidou.listen(render);
})();
