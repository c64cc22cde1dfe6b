// The wall: every table's card from GET /api/tables, drawn again on each live event.
function card(t) {
  const s = t.state;
  const el = document.createElement("div");
  el.className = "card";
  el.dataset.table = t.name;
  const head = document.createElement("h2");
  const link = document.createElement("a");
  link.href = "/tables/" + encodeURIComponent(t.name);
  link.textContent = "Table " + t.name;
  head.append(link);
  el.append(head);
  const status = document.createElement("p");
  status.className = t.online ? "online" : "silent";
  status.textContent = t.online ? "online" :
    (t.last_seen ? "silent since " + t.last_seen : "not heard from yet");
  el.append(status);
  const counts = document.createElement("p");
  counts.className = "muted";
  counts.textContent = t.entries + " entries at the venue" +
    (t.to_come !== null && t.to_come !== undefined ? ", " + t.to_come + " still to come" : "");
  el.append(counts);
  if (s && s.seats) {
    const info = document.createElement("p");
    info.textContent = "Game " + s.game_id + " (" + s.variant + ", " + s.status + "), pot " +
      (s.pot ?? 0);
    el.append(info);
    const list = document.createElement("table");
    for (const seat of s.seats) {
      const row = list.insertRow();
      row.className = seat.to_act ? "turn" : "";
      row.insertCell().textContent = seat.name + (seat.to_act ? " to act" : "");
      row.insertCell().textContent = seat.chips + " chips";
      row.insertCell().textContent = seat.stake ? "stake " + seat.stake : "";
    }
    el.append(list);
  }
  if (t.last_entry) {
    const e = t.last_entry;
    const last = document.createElement("p");
    last.className = "muted";
    last.textContent = "Latest: game " + e.game + " #" + e.seq + " " + e.text +
      (e.stored ? "" : " (at the hub, being stored)");
    el.append(last);
  }
  if (t.problem) {
    const p = document.createElement("p");
    p.className = "problem";
    p.textContent = t.problem + (t.problem_count > 1 ? " (" + t.problem_count + " times)" : "");
    el.append(p);
  }
  return el;
}

function startWall(box, only) {
  let pending = false;
  async function draw() {
    pending = false;
    try {
      const r = await fetch("/api/tables");
      const tables = await r.json();
      box.replaceChildren(...tables.filter(t => !only || t.name === only).map(card));
    } catch (e) { /* the screen retries on the next event */ }
  }
  function soon() { if (!pending) { pending = true; setTimeout(draw, 250); } }
  draw();
  const events = new EventSource("/api/events");
  events.addEventListener("state", soon);
  events.addEventListener("entry", soon);
  events.addEventListener("stored", soon);
  setInterval(draw, 5000);  // "silent since" moves on even when nothing happens
}

// started from here, not from an inline script: the screen's Content-Security-Policy runs
// scripts from its own files only (script-src 'self')
const wallBox = document.getElementById("tables");
if (wallBox) startWall(wallBox, wallBox.dataset.only || null);
