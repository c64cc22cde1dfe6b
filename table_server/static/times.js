/* Times on the history pages, in the reader's own time zone: the server writes each time as
   <time datetime="ISO 8601 in UTC">(a UTC reading)</time>; this replaces the text with the
   browser's local date and time. Without script the UTC reading stays, marked as UTC. */
"use strict";
for (const node of document.querySelectorAll("time[datetime]")) {
  const when = new Date(node.getAttribute("datetime"));
  if (!Number.isNaN(when.getTime())) {
    node.textContent = when.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
    node.title = node.getAttribute("datetime");
  }
}
