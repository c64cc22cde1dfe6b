/* The result said to its player, on their phone, in their language: "You lost round 1." while
   the pub's banner says who lost the round (from the round's end until the next round's
   captain is known: the state's `opening` holds the round's effect), "you are out, and have
   won" while it says a multi-hand player is out, and at game over whether this player lost or
   won. It follows the seat's state through the "bidou:state" event
   seat.js sends (this script is loaded before seat.js, so it hears the first drawing too). */
"use strict";
(() => {
  const { t } = Bidou;
  const page = document.getElementById("seatpage");
  const seat = page.dataset.seat;
  const line = document.getElementById("my-result");

  function over(state, me) {
    const match = state.variant === "two-hand";
    if (me.result === "loser") return ["lost", match ? t("You lost the match.") : t("You lost the game.")];
    if (me.result === "winner") return ["won", match ? t("You won the match.") : t("You won the game.")];
    if (state.loser) return ["won", t("You did not lose: %(p)s lost the game.", { p: state.loser })];
    if (state.winner) return ["lost", t("%(p)s won the game.", { p: state.winner })];
    return [null, ""];
  }

  function result(state) {
    const me = (state.seats || []).find((s) => s.name === seat);
    if (!me) return [null, ""];
    if (state.over) return over(state, me);
    const opening = state.opening || [];
    // multi-hand: this player's last chip gone, they are out and have won (M7)
    if (opening.some((e) => e.kind === "note" && e.rule === "M7" && e.player === seat)) {
      return ["won", t("You have no chips left: you are out, and have won.")];
    }
    const round = opening.find((e) => e.kind === "round");
    if (!round) return [null, ""];
    const n = Math.max(1, (Number(state.round) || 2) - 1);
    return round.player === seat ? ["lost", t("You lost round %(n)s.", { n })]
      : ["won", t("You won round %(n)s.", { n })];
  }

  document.addEventListener("bidou:state", (e) => {
    const [how, words] = result(e.detail || {});
    line.textContent = words;
    line.hidden = !words;
    if (how) line.dataset.result = how;
  });
})();
