/* "Your turn" on a player's phone: when the seat's turn comes (it was not the seat's to act,
   and now is), the phone plays the turn sound (static/sound.js, under the page's sound switch)
   and vibrates where it can. Never at the page's first drawing: only a change is announced.
   It follows the seat's state through the "bidou:state" event seat.js sends. */
"use strict";
(() => {
  const seat = document.getElementById("seatpage").dataset.seat;
  let before = null;  // whether it was this seat's turn at the last state; null before the first

  document.addEventListener("bidou:state", (e) => {
    const state = e.detail || {};
    const me = (state.seats || []).find((s) => s.name === seat);
    const now = Boolean(me && me.to_act && !state.over);
    if (before === false && now) {
      BidouSound.play("turn");
      BidouSound.vibrate([120, 80, 120]);
    }
    before = now;
  });
})();
