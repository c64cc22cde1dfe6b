// The wall: every table's card, drawn by the server (the page's first paint has them all);
// drawn again from /wall/cards on each live event, and every 5 s so "silent since" follows.
function startWall(box, only) {
  let pending = false;
  const url = "/wall/cards" + (only ? "?only=" + encodeURIComponent(only) : "");
  async function draw() {
    pending = false;
    try {
      const r = await fetch(url);
      if (r.ok) box.innerHTML = await r.text();  // the server's HTML, names escaped there
    } catch (e) { /* the screen retries on the next event */ }
  }
  function soon() { if (!pending) { pending = true; setTimeout(draw, 250); } }
  const events = new EventSource("/api/events");
  events.addEventListener("state", soon);
  events.addEventListener("entry", soon);
  events.addEventListener("stored", soon);
  setInterval(draw, 5000);
}

// started from here, not from an inline script: the screen's Content-Security-Policy runs
// scripts from its own files only (script-src 'self')
const wallBox = document.getElementById("tables");
if (wallBox) startWall(wallBox, wallBox.dataset.only || null);
