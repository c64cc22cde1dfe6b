/* A known throw's picture with a box on each die: tap a die to set its value (1-6, or not a
   die), "Add a die" then tap the picture for one the reader missed. The places go to the
   server as JSON in the save form. A die not decided yet is refused here, beside Save, with
   its chooser opened; the server checks them again (and refuses on the same page, the
   dice as they were). On a saved throw's page the boxes are only shown. */
"use strict";
(() => {
  const picture = document.getElementById("picture");
  const img = document.getElementById("picture-img");
  const field = document.getElementById("places");
  if (!picture || !img || !field) return;
  const { t, tn } = Bidou;
  const readonly = picture.dataset.readonly === "1";
  const chooser = document.getElementById("chooser");
  const summary = document.getElementById("draft-summary");
  const addButton = document.getElementById("add-die");
  let places = JSON.parse(field.value || "[]");
  let chosen = null;
  let adding = false;

  function size() {
    return [img.naturalWidth || Number(picture.dataset.width) || 1,
            img.naturalHeight || Number(picture.dataset.height) || 1];
  }

  function label(p) {
    if (p.value === null || p.value === undefined) return "?";
    return p.value === 0 ? "×" : String(p.value);
  }

  function draw() {
    for (const old of picture.querySelectorAll(".place")) old.remove();
    const [w, h] = size();
    places.forEach((p, i) => {
      const b = document.createElement(readonly ? "span" : "button");
      if (!readonly) b.type = "button";
      const state = p.value === null || p.value === undefined ? "undecided"
        : p.value === 0 ? "notadie" : p.changed ? "changed" : "sure";
      b.className = `place ${state}${chosen === i ? " chosen" : ""}`;
      b.dataset.index = String(i);
      b.dataset.value = p.value === null || p.value === undefined ? "" : String(p.value);
      b.style.left = `${(100 * p.box[0]) / w}%`;
      b.style.top = `${(100 * p.box[1]) / h}%`;
      b.style.width = `${(100 * p.box[2]) / w}%`;
      b.style.height = `${(100 * p.box[3]) / h}%`;
      const tag = document.createElement("span");
      tag.className = "tag";
      tag.textContent = label(p);
      b.appendChild(tag);
      const value = state === "undecided" ? t("not sure") : label(p);  // extracted out of the call
      b.setAttribute("aria-label", t("die %(i)s: %(value)s", { i: i + 1, value }));
      if (!readonly) b.addEventListener("click", (e) => { e.stopPropagation(); choose(i); });
      picture.appendChild(b);
    });
    field.value = JSON.stringify(places.map((p) => ({ box: p.box, value: p.value ?? null })));
    if (summary) {
      const dice = places.filter((p) => p.value).map((p) => p.value).sort();
      const open = places.filter((p) => p.value === null || p.value === undefined).length;
      const found = tn("%(n)s die: %(dice)s", "%(n)s dice: %(dice)s", dice.length,
                       { dice: dice.join(" ") || t("none") });
      summary.textContent = open
        ? tn("%(found)s; %(n)s not decided yet: tap it", "%(found)s; %(n)s not decided yet: tap them",
             open, { found })
        : found;
    }
  }

  function choose(i) {
    chosen = i;
    adding = false;
    if (chooser) {
      chooser.hidden = false;
      document.getElementById("chooser-title").textContent = t("Die %(i)s shows", { i: i + 1 });
    }
    draw();
  }

  if (chooser) {
    for (const b of chooser.querySelectorAll("button[data-value]")) {
      b.addEventListener("click", () => {
        if (chosen === null) return;
        places[chosen].value = Number(b.dataset.value);
        places[chosen].changed = true;
        chosen = null;
        chooser.hidden = true;
        draw();
      });
    }
  }
  if (addButton) {
    addButton.addEventListener("click", () => {
      adding = true;
      chosen = null;
      if (chooser) chooser.hidden = true;
      addButton.textContent = t("Now tap the die on the picture");
    });
  }
  picture.addEventListener("click", (e) => {
    if (readonly || !adding) return;
    const rect = img.getBoundingClientRect();
    const [w, h] = size();
    const x = ((e.clientX - rect.left) / rect.width) * w;
    const y = ((e.clientY - rect.top) / rect.height) * h;
    const sides = places.map((p) => p.box[2]).sort((a, b) => a - b);
    const side = sides.length ? sides[Math.floor(sides.length / 2)] : Math.round(Math.min(w, h) / 5);
    places.push({ box: [Math.round(x - side / 2), Math.round(y - side / 2), side, side],
                  value: null, changed: true });
    adding = false;
    addButton.textContent = t("Add a die");
    choose(places.length - 1);
  });
  // a die not decided yet: said here, beside Save, and its chooser opened; the page stays
  const form = document.getElementById("save-form");
  const refusal = document.getElementById("save-refusal");
  if (form && !readonly) {
    form.addEventListener("submit", (e) => {
      const open = places.findIndex((p) => p.value === null || p.value === undefined);
      if (open < 0) return;
      e.preventDefault();
      if (refusal) {
        refusal.textContent = t("Die %(i)s has no value yet: tap it and choose its value (1-6, or not a die); nothing was saved.",
                                { i: open + 1 });
      }
      choose(open);
    });
  }
  if (img.complete) draw(); else img.addEventListener("load", draw);
  draw();
})();
