/* The table view: seats around the felt, chips as stacks and numbers, centre pile or pot,
   captain, whose turn, declared throws, score, the last events, and exposed dice at a showdown.
   Redrawn from the whole public state on every event, so it can never drift from the table. */
"use strict";
(() => {
  const { el, dice, chips, clear } = Bidou;
  const EXPECTS = { roll: "to roll", throw: "to throw", bet: "to bet" };

  function seatCard(seat, state) {
    const classes = ["seat"];
    if (seat.to_act) classes.push("to-act");
    if (seat.out) classes.push("out");
    const card = el("section", { class: classes.join(" "), "data-seat": seat.name });
    card.appendChild(el("h2", {}, seat.name));
    const badges = el("div", { class: "badges" });
    if (seat.is_captain) badges.appendChild(el("span", { class: "badge captain" }, "CAPTAIN"));
    if (seat.to_act) badges.appendChild(el("span", { class: "badge turn" },
                                            EXPECTS[state.expects] || "to act"));
    if (seat.needs_look) badges.appendChild(el("span", { class: "badge look" }, "needs a look"));
    if (seat.out) badges.appendChild(el("span", { class: "badge" }, "out"));
    card.appendChild(badges);
    const row = el("div", { class: "chips" });
    row.appendChild(chips(seat.chips, undefined, 9));
    row.appendChild(el("span", { class: "count", "data-chips": seat.chips }, seat.chips));
    card.appendChild(row);
    const throws = Number(seat.throws) || 0;
    const line = el("div", { class: "line" });
    line.appendChild(el("span", {}, "throws "));
    line.appendChild(el("span", { class: "pips" }, "●".repeat(throws) + "○".repeat(Math.max(0, 3 - throws))));
    if (seat.stake) line.appendChild(el("span", {}, ` · stake ${seat.stake}`));
    if (seat.offered) line.appendChild(el("span", {}, ` · offers ${seat.offered}`));
    card.appendChild(line);
    if (seat.exposed && seat.exposed.length) {
      card.appendChild(dice(seat.exposed));
      if (seat.exposed_name) card.appendChild(el("p", { class: "throwname" }, seat.exposed_name));
    }
    if (seat.refusal) card.appendChild(el("p", { class: "refusal small" }, seat.refusal));
    return card;
  }

  function centre(state) {
    const box = clear(document.getElementById("centre"));
    const pile = el("div", { class: "pile" });
    const parts = [];
    if (state.variant === "two-hand") parts.push(["Centre", state.centre, "#1565c0"]);
    parts.push(["Pot", state.pot, "#c62828"]);
    if (state.removed) parts.push(["Removed", state.removed, "#555"]);
    for (const [label, n, colour] of parts) {
      const spot = el("div", { class: "spot", "data-pile": label.toLowerCase() });
      spot.appendChild(chips(n, colour, 6));
      spot.appendChild(el("span", { class: "count" }, n ?? 0));
      spot.appendChild(el("span", {}, label));
      pile.appendChild(spot);
    }
    box.appendChild(pile);
  }

  function render(state) {
    if (!state) return;
    document.getElementById("prompt").textContent = state.prompt || "";
    const showdown = document.getElementById("showdown");
    showdown.textContent = state.showdown || "";
    showdown.hidden = !state.showdown;
    document.getElementById("title").textContent = `Bidou · ${state.variant || ""}`;
    const score = document.getElementById("score");
    if (state.variant === "two-hand" && state.rounds_lost) {
      const lost = Object.entries(state.rounds_lost).map(([p, n]) => `${p} ${n}`).join(" – ");
      score.textContent = `Round ${state.round} · rounds lost: ${lost}`;
    } else {
      score.textContent = `Game ${state.game_id ?? ""}`;
    }
    const felt = document.getElementById("felt");
    for (const old of felt.querySelectorAll(".seat")) old.remove();
    const seats = state.seats || [];
    seats.forEach((seat, i) => {
      const card = seatCard(seat, state);
      // clockwise around the felt: two seats face each other left and right, more start at
      // the bottom; the centre pile stays clear in the middle
      const start = seats.length === 2 ? Math.PI : Math.PI / 2;
      const angle = start + (2 * Math.PI * i) / seats.length;
      const cos = Math.cos(angle), sin = Math.sin(angle);
      // each card's outer edge touches the rim, so the cards leave the centre free
      card.style.left = `${50 + 46 * cos}%`;
      card.style.top = `${50 + 44 * sin}%`;
      card.style.transform = `translate(${-50 - 50 * cos}%, ${-50 - 50 * sin}%)`;
      felt.appendChild(card);
    });
    centre(state);
    const events = clear(document.getElementById("events"));
    for (const sentence of (state.events || []).slice(-8).reverse()) {
      events.appendChild(el("li", {}, sentence));
    }
    document.body.dataset.version = state.version;
  }

  render(Bidou.initialState());
  Bidou.listen(render);
})();
