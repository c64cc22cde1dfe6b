/* The Dice page's live part: the calibration's progress bar (stage, step of steps, seconds so
   far and left) and, once it has finished, the held-back throws before and after, from the
   console's own event stream (/referee/dice/progress). */
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const { t, tn, say } = Bidou;
  const FIGURES = ["right", "wrong", "unsure", "missed"];

  function row(id, figures) {
    const cells = $(id).querySelectorAll("td");
    FIGURES.forEach((k, i) => { cells[i].textContent = figures ? String(figures[k]) : "–"; });
  }

  // a teaching's time in the reader's time zone, written as the page's language writes it
  const WHEN = new Intl.DateTimeFormat(document.documentElement.lang || undefined,
                                       { dateStyle: "medium", timeStyle: "short" });
  const when = (iso) => (Number.isNaN(new Date(iso).getTime()) ? iso : WHEN.format(new Date(iso)));

  // the table's teachings, newest first, redrawn when one has ended
  function teachings(rows) {
    const body = $("teachings-rows");
    body.textContent = "";
    for (const r of rows) {
      const tr = document.createElement("tr");
      tr.className = "teaching";
      tr.dataset.kept = String(r.kept);
      for (const text of [when(r.at), r.by === "table" ? t("the table") : t("the referee"),
        `${r.dice} (${r.new_dice})`, r.before, r.after, say(r.why)]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
  }

  function show(s) {
    const p = s.progress;
    $("reader-now").textContent = say(s.reader_said || s.reader);
    const box = $("learn-progress");
    if (p.running || s.outcome) box.hidden = false;
    const bar = $("learn-bar");
    bar.max = Math.max(1, p.steps);
    bar.value = p.running ? p.step : bar.max;
    // "fold 2 of 3: teaching the network ...": each part in the page's language
    let stage = p.fold ? t("fold %(fold)s of %(folds)s: %(stage)s", { fold: p.fold, folds: p.folds, stage: t(p.stage) })
      : (p.final ? t("the table's network: %(stage)s", { stage: t(p.stage) }) : t(p.stage));
    if (p.by === "table") stage = t("The table teaches itself while idle: %(stage)s", { stage });
    const args = { stage, step: p.step, steps: p.steps, s: Math.round(p.elapsed) };
    $("learn-stage").textContent = p.running
      ? (p.left === null || p.left === undefined
        ? t("%(stage)s: step %(step)s of %(steps)s, %(s)s s so far", args)
        : t("%(stage)s: step %(step)s of %(steps)s, %(s)s s so far, about %(left)s s left in this stage",
          { ...args, left: Math.ceil(p.left) }))
      : (s.outcome || s.failure ? t("Finished in %(s)s s.", args) : "");
    $("learn-button").disabled = p.running;
    $("learn-failure").textContent = s.failure || (s.outcome && s.outcome.error) || "";
    const out = s.outcome;
    $("learn-outcome").hidden = !(out && out.before);
    if (out && out.before) {
      $("figures-all").textContent = t("Every known throw (%(dice)s dice, %(pictures)s pictures)",
                                       { dice: out.rules.dice, pictures: out.rules.pictures });
      $("figures-held").textContent = t("Held back from the fit (%(dice)s dice, %(pictures)s pictures)",
                                        { dice: out.before.dice, pictures: out.before.pictures });
      row("figures-rules", out.rules);
      row("figures-learned", out.learned);
      row("figures-before", out.before);
      row("figures-after", out.after);
      const said = [];
      if (out.reader_changed) {
        said.push(out.reader === "learned"
          ? t("The trained reader reads the known throws better than the table's reader now.")
          : t("The pip counter reads the known throws better than the table's reader now."));
      }
      if (out.network) {
        said.push(out.head_kept ? t("Taught these dice, the table's own network reads the throws held out of its teaching better.")
                                : t("Taught these dice, the table's own network does not read the throws held out of its teaching better."));
      } else {
        said.push(out.head_kept ? t("Adapted to these dice, the trained reader reads the throws held back from its fit better.")
                                : t("Adapting the trained reader to these dice does not read the throws held back from its fit better."));
      }
      said.push(out.changes ? t("Keep it to read with it from the next throw.")
                            : t("Nothing to keep: the table reads as well without it."));
      $("learn-verdict").textContent = said.join(" ");
      const lines = $("learn-lines");
      lines.textContent = "";
      for (const line of out.lines || []) {
        const li = document.createElement("li");
        li.textContent = line;
        lines.appendChild(li);
      }
    }
    if (s.teachings && s.teachings.length) teachings(s.teachings);
    $("keep-form").hidden = !(out && out.changes) || p.running;
    $("back-form").hidden = !(out || s.previous) || p.running;
  }

  // a photo too large is said before minutes of sending it over the pub's Wi-Fi
  const photo = $("upload-photo");
  photo.addEventListener("change", () => {
    const file = photo.files[0];
    const most = Number(photo.dataset.most);
    const tooLarge = file && file.size > most;
    $("upload-refusal").textContent = tooLarge
      ? t("That photo is %(size)s MB; the table takes photos of at most %(most)s MB: send a smaller one.",
          { size: (file.size / 1e6).toFixed(1), most: Math.round(most / 1048576) })
      : "";
    $("upload-button").disabled = Boolean(tooLarge);
  });

  const source = new EventSource("/referee/dice/progress");
  source.addEventListener("progress", (e) => show(JSON.parse(e.data)));
})();
