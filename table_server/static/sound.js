/* Sound for the table view and the phones, with a visible switch (#sound-switch). A browser
   plays nothing before the page is tapped, so sound starts off and one tap on the switch turns
   it on, which also allows audio; another tap turns it off. The choice is kept in this
   browser (localStorage): a screen reloaded with sound on plays at once where the browser
   allows it, and else says "Sound blocked: tap to allow". The files are the app's own
   (static/sounds/, tools/make_sounds.py). Every sound asked for is noted in
   window.bidouSounds ({name, played}), so a test can read what the page would play. */
"use strict";
const BidouSound = (() => {
  const KEY = "bidou-sound";
  const base = document.currentScript ? document.currentScript.src : location.href;
  const FILES = { turn: "sounds/turn.wav", showdown: "sounds/showdown.wav",
                  gameover: "sounds/gameover.wav" };
  const cache = {};
  const heard = (window.bidouSounds = []);
  const button = document.getElementById("sound-switch");
  let on = localStorage.getItem(KEY) === "on";

  function show(blocked) {
    if (!button) return;
    button.setAttribute("aria-pressed", String(on));
    button.dataset.state = blocked ? "blocked" : on ? "on" : "off";
    button.textContent = blocked ? button.dataset.blockedText
      : on ? button.dataset.onText : button.dataset.offText;
  }

  function audio(name) {
    if (!cache[name]) {
      cache[name] = new Audio(new URL(FILES[name], base).href);
      cache[name].preload = "auto";
    }
    return cache[name];
  }

  /** Play sound `name` (turn, showdown, gameover) if sound is on. */
  function play(name) {
    heard.push({ name, played: on });
    if (!on || !FILES[name]) return;
    const a = audio(name);
    a.currentTime = 0;
    const started = a.play();
    if (started && started.catch) started.catch(() => show(true));
  }

  /** Vibrate for `pattern` where the phone can (silent: not under the sound switch). */
  function vibrate(pattern) {
    if (navigator.vibrate) {
      try { navigator.vibrate(pattern); } catch (err) { /* not allowed before a tap */ }
    }
  }

  if (button) {
    button.addEventListener("click", () => {
      const blocked = button.dataset.state === "blocked";
      on = blocked ? true : !on;
      localStorage.setItem(KEY, on ? "on" : "off");
      show(false);
      // allowed by this tap: load each sound now, so the next one plays without waiting
      if (on) for (const name of Object.keys(FILES)) audio(name).load();
    });
  }
  show(false);
  return { play, vibrate, isOn: () => on };
})();
