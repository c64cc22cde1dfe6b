// The live wall: the featured tables from GET /api/live, drawn again every two seconds.
// Built with textContent only: a name a table sends is never read as markup.
function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function card(t) {
  const box = el("div", null, "card");
  box.dataset.table = t.venue + "/" + t.table;
  const head = el("h2");
  const link = el("a", t.venue + " · table " + t.table);
  link.href = "/pubs/" + encodeURIComponent(t.venue);
  head.append(link);
  box.append(head, el("p", t.online ? "online" : "silent", t.online ? "online" : "silent"));
  const s = t.state;
  if (s && s.seats) {
    box.append(el("p", "Game " + s.game_id + " (" + s.variant + ", " + s.status + "), pot " + (s.pot ?? 0)));
    const list = el("table");
    for (const seat of s.seats) {
      const row = list.insertRow();
      if (seat.to_act) row.className = "turn";
      const who = t.players[seat.name];
      const name = row.insertCell();
      if (who && who.player_id) {
        const a = el("a", who.name || who.player_id);
        a.href = "/players/" + encodeURIComponent(who.player_id);
        name.append(a);
      } else {
        name.textContent = seat.name + " (guest)";
      }
      if (seat.to_act) name.append(" to act");
      if (who && who.elsewhere) {
        name.append(document.createElement("br"), el("small", "also seated at another table", "problem"));
      }
      row.insertCell().textContent = seat.chips + " chips";
      row.insertCell().textContent = who && who.ordinal !== null && who.ordinal !== undefined ? "rating " + who.ordinal.toFixed(2) : "";
    }
    box.append(list);
  }
  return box;
}

async function draw() {
  const status = document.getElementById("live-status");
  try {
    const r = await fetch("/api/live");
    const body = await r.json();
    document.getElementById("featured").replaceChildren(...body.tables.map(card));
    status.textContent = body.problem ? body.problem :
      (body.tables.length ? body.tables.length + " featured tables, live." : "No table is heard from yet.");
    status.className = body.problem ? "problem" : "muted";
  } catch (e) {
    status.textContent = "The league screen does not answer; trying again.";
    status.className = "problem";
  }
}

draw();
setInterval(draw, 2000);
