/* How to play (templates/howto.html): the "How to play" button opens the overlay; it shows the
   rules of the variant being played (and Poor Fish's line when it is on) and Table 1 under the
   game's ranking, all drawn by the server. On a player's phone the row of their own throw is
   marked ("you"), and a line above the table says so; a tap on it scrolls to the row. It follows the game through the "bidou:state" event
   the page's own script sends with each state (the seat's own state on a phone). */
"use strict";
(() => {
  const box = document.getElementById("howto");
  const open = document.getElementById("howto-open");
  if (!box || !open) return;
  const mine = document.getElementById("howto-mine");
  let marked = null;

  const holder = document.getElementById("howto-table");
  let latest = null;  // the last state seen, to mark the throw once Table 1 is in
  let loading = null;

  /* Table 1 from the server at the first opening (the page itself carries no list of dice). */
  function load() {
    if (!loading) {
      loading = fetch(holder.dataset.src).then((r) => (r.ok ? r.text() : Promise.reject(r)))
        .then((html) => {
          holder.innerHTML = html;  // the server's HTML: every name in it escaped there
          marked = undefined;
          follow(latest);
        })
        .catch(() => { loading = null; });  // tried again at the next opening
    }
    return loading;
  }

  open.addEventListener("click", () => {
    if (typeof box.showModal === "function") box.showModal(); else box.setAttribute("open", "");
    box.scrollTop = 0;  // the rules first; the line above Table 1 says where the throw is
    load();
  });
  if (mine) {  // a tap on "Your throw, 6-2-2, is marked below" goes to its row
    mine.addEventListener("click", () => {
      const row = box.querySelector("table:not([hidden]) tr.mine");
      if (row) row.scrollIntoView({ block: "center" });
    });
  }
  box.addEventListener("click", (e) => { if (e.target === box) box.close(); });  // the backdrop

  function follow(state) {
    if (!state) return;
    latest = state;
    const variant = state.variant || box.dataset.variant;
    const options = state.options || {};
    const ranking = options.ranking || "three-digit";
    for (const part of box.querySelectorAll("[data-rules]")) {
      part.hidden = part.dataset.rules === "poor-fish" ? !options.poor_fish
                                                       : part.dataset.rules !== variant;
    }
    for (const table of box.querySelectorAll("table[data-ranking]")) {
      table.hidden = table.dataset.ranking !== ranking;
    }
    box.dataset.variant = variant;
    box.dataset.ranking = ranking;
    // a player's own throw: only the seat's own state carries `dice`
    const dice = Array.isArray(state.dice) && state.dice.length === 3
      ? [...state.dice].sort((a, b) => b - a).join("-") : null;
    if (dice === marked) return;
    for (const row of box.querySelectorAll("tr.mine")) row.classList.remove("mine");
    marked = dice;
    if (mine) {
      mine.hidden = !dice;
      mine.textContent = !dice ? "" : state.dice_rank
        ? Bidou.t("Your throw, %(dice)s, is marked below: %(place)s.", { dice, place: Bidou.say(state.dice_rank) })
        : Bidou.t("Your throw, %(dice)s, is marked below.", { dice });
    }
    if (dice) {
      for (const row of box.querySelectorAll(`tr[data-throw="${dice}"]`)) row.classList.add("mine");
    }
  }

  document.addEventListener("bidou:state", (e) => follow(e.detail));
})();
