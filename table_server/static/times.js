/* Times on the history pages, in the reader's own time zone and in the page's language: the
   server writes each time as <time datetime="ISO 8601 in UTC">(a UTC reading)</time>; this
   replaces the text with the local date and time as the page's language writes them ("6 déc.
   2026, 05:14"), whatever the browser's own language. Without script the UTC reading stays,
   marked as UTC. */
"use strict";
{
  const language = document.documentElement.lang || undefined;
  const format = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" });
  for (const node of document.querySelectorAll("time[datetime]")) {
    const when = new Date(node.getAttribute("datetime"));
    if (!Number.isNaN(when.getTime())) {
      node.textContent = format.format(when);
      node.title = node.getAttribute("datetime");
    }
  }
}
