/* The table view: seats round the felt (a grid, so no two cards can overlap at any width),
   each with its score, chips, last action, declared throws and, at a showdown, the dice, the
   throw's name and place and which throw is the worse; the banner says the variant's stakes,
   hand and round, what is expected, who is closest to losing, what this hand began with, and
   how the game ended. While shown dice are settled, the banner says who says them and who
   agrees, and the felt's centre shows the camera's picture of them. At game over a screen over
   the felt says the result and stays until the next game begins. A lost link to the table
   dims everything under a sentence in large type. A showdown and the game's end are heard
   (static/sound.js), from the changes between two states, never at the page's first drawing.
   Redrawn from the whole public state on every event, so it can never drift from the table.
   The script only says where each seat sits (CSS custom properties); the stylesheet decides
   how, so the phone layout is the stylesheet's to change. */
"use strict";
(() => {
  const { el, dice, chips, clear, t, tn, say } = Bidou;
  const EXPECTS = { roll: t("to roll"), throw: t("to throw"), bet: t("to bet") };
  const MARKS = { worse: t("WORSE THROW"), best: t("BEST THROW") };
  const RESULTS = { loser: t("LOSER"), winner: t("WINNER") };
  const VARIANTS = { "two-hand": t("two-hand"), "multi-hand": t("multi-hand"),
                     montevideo: t("Montevideo") };

  function seatCard(seat, state) {
    const classes = ["seat"];
    if (seat.to_act && !state.over) classes.push("to-act");
    if (seat.out) classes.push("out");
    if (seat.result) classes.push(seat.result);
    if (seat.mark) classes.push(`mark-${seat.mark}`);
    const card = el("section", { class: classes.join(" "), "data-seat": seat.name });
    const head = el("div", { class: "head" });  // the name and the chips: one row if it fits
    head.appendChild(el("h2", {}, seat.name));
    card.appendChild(head);
    const row = el("div", { class: "chips" });
    row.appendChild(chips(seat.chips, undefined, 9));
    row.appendChild(el("span", { class: "count", "data-chips": seat.chips }, seat.chips));
    row.appendChild(el("span", { class: "unit" }, tn("chip", "chips", seat.chips)));
    head.appendChild(row);
    const badges = el("span", { class: "badges" });
    if (seat.result) badges.appendChild(el("span", { class: `badge ${seat.result}` },
                                            RESULTS[seat.result] || seat.result));
    if (seat.is_captain && !state.over) badges.appendChild(el("span", { class: "badge captain" }, t("CAPTAIN")));
    if (seat.to_act && !state.over) {
      // one line, its size from its length and the card's width (style.css: .seat .turn)
      const words = "▶ " + (EXPECTS[state.expects] || t("to act"));
      const turn = el("p", { class: "turn" }, words);
      turn.style.setProperty("--turn-len", [...words].length);
      card.appendChild(turn);
    }
    if (seat.unsettled) badges.appendChild(el("span", { class: "badge look" }, t("values pending")));
    if (seat.out) badges.appendChild(el("span", { class: "badge" }, t("out")));
    if (seat.last_words && !state.over) badges.appendChild(el("span", { class: "badge action" }, say(seat.last_words)));
    // the smaller facts share one wrapping row: badges, rounds lost, throws, stake
    const meta = el("div", { class: "meta" });
    meta.appendChild(badges);
    if (state.variant === "two-hand") {
      const score = el("span", { class: "seatscore", "data-score": seat.score });
      score.appendChild(el("span", { class: "num" }, seat.score));
      score.appendChild(el("span", { class: "unit" }, " " + say(seat.score_label)));
      meta.appendChild(score);
    }
    const throws = Number(seat.throws) || 0;
    const line = el("span", { class: "line" });
    line.appendChild(el("span", {}, t("throws") + " "));
    line.appendChild(el("span", { class: "pips" }, "●".repeat(throws) + "○".repeat(Math.max(0, 3 - throws))));
    if (seat.stake) line.appendChild(el("span", {}, " · " + t("stake %(n)s", { n: seat.stake })));
    if (seat.offered) line.appendChild(el("span", {}, " · " + t("offers %(n)s", { n: seat.offered })));
    meta.appendChild(line);
    card.appendChild(meta);
    if (seat.exposed && seat.exposed.length) {
      card.appendChild(dice(seat.exposed));
      // non-breaking hyphens: a line may break between words, never inside "6-5-4"
      const named = el("p", { class: "thrown" });  // the name and the place share a row
      if (seat.exposed_name) named.appendChild(el("span", { class: "throwname" },
        say(seat.exposed_name).replace(/-/g, "\u2011")));
      if (seat.exposed_rank) named.appendChild(el("span", { class: "throwrank" },
                                                  say(seat.exposed_rank)));
      if (seat.mark) named.appendChild(el("span", { class: `mark ${seat.mark}` }, MARKS[seat.mark]));
      card.appendChild(named);
    }
    // a refused press is that player's own business: shown on their phone, never here
    return card;
  }

  /* Exposed dice the camera could not read surely, in the felt's centre where everyone looks:
     the camera's picture (a tile a die: sure ones framed green, unsure ones red) and what the
     camera is sure of; the banner says what the table waits for (settleAsk). */
  function settleBox(settling, state) {
    const box = el("div", { class: "settle", "data-settle": settling.seat });
    box.appendChild(el("p", { class: "settlewho" }, t("%(p)s's dice", { p: settling.seat })));
    if (settling.picture) {
      box.appendChild(el("img", { class: "settlepic", alt: t("%(p)s's dice", { p: settling.seat }),
                                  src: `/api/settle/${encodeURIComponent(settling.seat)}.jpg?v=${state.version}` }));
    }
    const guess = settling.guess.map((v) => (v === null ? "?" : v)).join(" ");
    box.appendChild(el("p", { class: "settleguess" }, t("Camera: %(guess)s (red: not sure)", { guess })));
    return box;
  }

  /* What the table waits for while shown dice are settled, in one sentence: who says them on
     their phone, who agrees, who has not said yet; and each disagreement's sentence (those
     dice are the referee's). Several seats shown together are said together. */
  function settleAsk(settling) {
    const disputes = settling.filter((s) => s.referee).map((s) => say(s.referee));
    const open = settling.filter((s) => !s.referee);
    if (!open.length) return disputes.join(" ");
    const waiting = [];
    for (const s of open) {
      for (const p of [s.seat, ...s.witnesses]) {
        if (!(p in (s.said || {})) && !waiting.includes(p)) waiting.push(p);
      }
    }
    const [one] = open;
    const ask = open.length > 1
      ? t("Settle the shown dice on your phones (%(names)s): each says their own, the others agree.",
          { names: Bidou.names(open.map((s) => s.seat)) })
      : tn("Settle %(p)s's dice on your phones: %(p)s says them, %(others)s agrees.",
           "Settle %(p)s's dice on your phones: %(p)s says them, %(others)s agree.",
           one.witnesses.length, { p: one.seat, others: Bidou.names(one.witnesses) });
    const wait = waiting.length ? " " + t("(waiting for %(names)s)", { names: waiting.join(", ") }) : "";
    return [ask + wait, ...disputes].join(" ");
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
    const box = document.getElementById("centre");
    const cols = n === 2 ? 6 : 2 * Math.ceil(n / 2);
    box.style.setProperty("--row", n === 2 ? 1 : 2);
    box.style.setProperty("--col", n === 2 ? 3 : 1);
    box.style.setProperty("--span", n === 2 ? 2 : cols);
    const pile = clear(document.getElementById("pile"));
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
    const settles = clear(document.getElementById("settles"));
    for (const settling of state.settling || []) settles.appendChild(settleBox(settling, state));
    settles.hidden = !settles.firstChild;
    return cols;
  }

  function banner(state) {
    const text = (id, value) => {
      const node = document.getElementById(id);
      node.textContent = value || "";
      node.hidden = !value;
    };
    document.getElementById("title").textContent =
      `Bidou · ${VARIANTS[state.variant] || state.variant || ""}`;
    text("progress", say(state.progress));
    // while shown dice are settled, the banner says what everyone waits for (settleAsk)
    const settling = state.settling || [];
    text("prompt", settling.length ? settleAsk(settling) : say(state.prompt));
    text("reminder", say(state.reminder));
    text("showdown", say(state.showdown));
    text("hint", say(state.hint));
    text("standing", say(state.standing));
    document.body.classList.toggle("over", Boolean(state.over));
    const announce = clear(document.getElementById("announce"));
    for (const sentence of state.announce || []) {
      announce.appendChild(el("li", {}, say(sentence)));
    }
    announce.hidden = !(state.announce || []).length;
  }

  /* The game-over screen: the result, each player's chips (and rounds lost in a two-hand
     match); shown while the state says the game is over, so until the next game starts. */
  function gameOver(state) {
    const box = document.getElementById("gameover");
    box.hidden = !state.over;
    if (!state.over) return;
    document.getElementById("gameover-result").textContent =
      say(state.result) || say(state.prompt) || "";
    const list = clear(document.getElementById("gameover-chips"));
    for (const seat of state.seats || []) {
      const lost = (state.rounds_lost || {})[seat.name];
      const item = el("li", { class: seat.result || "", "data-seat": seat.name });
      item.appendChild(el("strong", {}, seat.name));
      item.appendChild(el("span", {}, " " + tn("%(n)s chip", "%(n)s chips", seat.chips) +
        (state.variant === "two-hand" && lost !== undefined
          ? " · " + tn("%(n)s round lost", "%(n)s rounds lost", lost) : "")));
      if (seat.result) item.appendChild(el("span", { class: `badge ${seat.result}` },
                                           RESULTS[seat.result] || seat.result));
      list.appendChild(item);
    }
  }

  /* What is heard: dice newly shown (a showdown, an open throw) and the game's end. */
  let heard = null;
  function sounds(state) {
    const shown = (state.seats || []).filter((s) => s.exposed && s.exposed.length)
      .map((s) => `${s.name}:${s.exposed.join("")}`).join(" ");
    const now = { shown, over: Boolean(state.over), game: state.game_id };
    if (heard && now.over && !heard.over) BidouSound.play("gameover");
    else if (heard && shown && shown !== heard.shown) BidouSound.play("showdown");
    heard = now;
  }

  function render(state) {
    if (!state) return;
    banner(state);
    gameOver(state);
    sounds(state);
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
    // newest first, each sentence with its own number (it keeps it as new ones come)
    const events = clear(document.getElementById("events"));
    const said = state.events || [];
    const first = (state.first_event || 1) + Math.max(0, said.length - 8);
    said.slice(-8).forEach((sentence, i) => {
      events.prepend(el("li", { value: first + i },
                        say(sentence).replace(/(\d)-(?=\d)/g, "$1\u2011")));
    });
    document.body.dataset.version = state.version;
    document.dispatchEvent(new CustomEvent("bidou:state", { detail: state }));
  }

  /* The link to the table: lost, the whole screen dims under one sentence in large type
     (what it shows may be out of date); back, the screen is whole again. */
  function link(up) {
    document.body.classList.toggle("link-lost", !up);
    document.getElementById("linklost").hidden = up;
  }

  render(Bidou.initialState());
  Bidou.listen(render, link);
})();
