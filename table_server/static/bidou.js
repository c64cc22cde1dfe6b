/* Shared by the dashboard pages: dice faces and chip stacks in SVG, and the live event stream.
   Plain JS, no libraries, nothing fetched from the internet. Text always goes in with
   textContent, never innerHTML, so a player's name cannot inject markup. */
"use strict";
const Bidou = (() => {
  const SVG = "http://www.w3.org/2000/svg";
  const PIPS = {
    1: [[50, 50]], 2: [[25, 25], [75, 75]], 3: [[25, 25], [50, 50], [75, 75]],
    4: [[25, 25], [75, 25], [25, 75], [75, 75]],
    5: [[25, 25], [75, 25], [50, 50], [25, 75], [75, 75]],
    6: [[25, 25], [75, 25], [25, 50], [75, 50], [25, 75], [75, 75]],
  };

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function svg(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    return node;
  }

  /** One die face showing `value` (1-6), as an SVG element with the value in its label. */
  function die(value) {
    const v = Number(value);
    const face = svg("svg", { viewBox: "0 0 100 100", class: "die", role: "img",
                              "aria-label": t("die showing %(n)s", { n: v }), "data-value": v });
    face.appendChild(svg("rect", { x: 3, y: 3, width: 94, height: 94, rx: 16,
                                   fill: "#fbfbf5", stroke: "#222", "stroke-width": 3 }));
    for (const [cx, cy] of PIPS[v] || []) {
      face.appendChild(svg("circle", { cx, cy, r: 9, fill: v === 1 ? "#c62828" : "#111" }));
    }
    return face;
  }

  /** A row of dice faces. */
  function dice(values, big) {
    const row = el("div", { class: big ? "dice big" : "dice" });
    for (const v of values || []) row.appendChild(die(v));
    return row;
  }

  /** A stack of `n` chips drawn as SVG (at most `most` drawn; the number says the rest). */
  function chips(n, colour, most) {
    const count = Math.max(0, Number(n) || 0);
    const drawn = Math.min(count, most || 15);
    const h = 12 + drawn * 7;
    const stack = svg("svg", { viewBox: `0 0 60 ${h}`, class: "chipstack",
                               width: "2.6rem", height: `${h / 23}rem`, "aria-hidden": "true" });
    for (let i = 0; i < drawn; i++) {
      const y = h - 8 - i * 7;
      stack.appendChild(svg("ellipse", { cx: 30, cy: y, rx: 27, ry: 7, fill: colour || "#c62828",
                                         stroke: "#fff", "stroke-width": 2 }));
    }
    return stack;
  }

  /** Follow /api/events; `onState(state)` for each state; shows the link status in the nav
      and tells `onLink(up)` when the link is lost (false) and when it is back (true). */
  function listen(onState, onLink) {
    const live = document.getElementById("live");
    let up = null;
    const mark = (state, text) => {
      if (live) { live.dataset.state = state; live.textContent = text; }
      const now = state === "live";
      // a change of link; a page that never reached the table is told too
      if (onLink && now !== up && (up !== null || !now)) onLink(now);
      up = now;
    };
    const source = new EventSource("/api/events");
    source.addEventListener("state", (e) => { mark("live", t("live")); onState(JSON.parse(e.data)); });
    source.onopen = () => mark("live", t("live"));
    source.onerror = () => mark("lost", t("reconnecting…"));
    return source;
  }

  function initialState() {
    const node = document.getElementById("initial-state");
    return node ? JSON.parse(node.textContent) : null;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

  /* The page's language: its catalogue (table_server/words/i18n.py) maps each English msgid to its
     translation (a list of forms for a plural); a msgid it lacks is said in English. */
  const node = document.getElementById("i18n");
  const CATALOGUE = node ? JSON.parse(node.textContent) : { words: {}, zero_plural: true };
  /* French elides "de" and "que" before a name or words starting with a vowel ("les dés
     d'Ann"): the text is mended at the hole, as firmware/words/elision.py does. */
  const VOWEL = /^[aeiouyàâäéèêëîïôöùûüœ]/i;
  const elide = (text, args) => (CATALOGUE.language !== "fr" ? text
    : text.replace(/\b([Dd]e|[Qq]ue) %\((\w+)\)s/g, (whole, word, name) =>
      (args && name in args && VOWEL.test(String(args[name])) ? `${word.slice(0, -1)}'%(${name})s` : whole)));
  const fill = (text, args) => elide(text, args).replace(/%\((\w+)\)[sd]/g,
    (whole, name) => (args && name in args ? String(args[name]) : whole));

  /** `msgid` in the page's language, its `%(name)s` filled from `args`. */
  function t(msgid, args) {
    const said = CATALOGUE.words[msgid];
    return fill(typeof said === "string" && said ? said : msgid, args);
  }

  /** The singular or plural form for `n` (given to the text as `%(n)s` too). */
  function tn(singular, plural, n, args) {
    const many = n > 1 || (n === 0 && CATALOGUE.zero_plural) || n < 0;
    const forms = CATALOGUE.words[singular];
    const text = Array.isArray(forms) && forms[many ? 1 : 0] ? forms[many ? 1 : 0]
      : (many ? plural : singular);
    return fill(text, { n, ...(args || {}) });
  }

  /** "Ann, Bob and Cy" in the page's language (firmware/words/lists.py's list_phrase). */
  function names(list) {
    if (list.length <= 1) return list.join("");
    return t("%(some)s and %(last)s", { some: list.slice(0, -1).join(", "), last: list[list.length - 1] });
  }

  /** A phrase the server sent (firmware/words/phrases.py's Phrase.to_json: every text of a
      state is one), or a plain string, in the page's language. */
  function say(phrase) {
    if (phrase === null || phrase === undefined) return "";
    if (typeof phrase !== "object") return String(phrase);
    if (phrase.o && CATALOGUE.language !== "en" && !(phrase.t in CATALOGUE.words)) {
      return say(phrase.o);
    }
    const args = {};
    for (const [k, v] of Object.entries(phrase.a || {})) args[k] = say(v);
    const said = phrase.p ? tn(phrase.t, phrase.p, phrase.n, args) : t(phrase.t, args);
    // a whole sentence (firmware/words/phrases.py's SENTENCE) starts with a capital
    return phrase.t === "%(said)s." ? said.charAt(0).toUpperCase() + said.slice(1) : said;
  }

  return { el, svg, die, dice, chips, listen, initialState, clear, t, tn, say, names,
           language: CATALOGUE.language || "en" };
})();
