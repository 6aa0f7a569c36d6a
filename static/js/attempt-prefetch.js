// Attempt page, run from <head> while the page is still arriving: a deep link
// to an event beyond the first slice (#e<index>) asks for that event's slice
// at once, instead of after the whole page has been parsed. attempt.js takes
// the answer from window.benchviewSlice when it reaches the slice's
// placeholder, and asks again itself if this request failed. Only the request
// starts early: inserting the events is attempt.js's job.
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="benchview-slices"]');
  var match = /^#e(\d+)$/.exec(location.hash);
  if (!meta || !match || !window.fetch) return;
  var index = parseInt(match[1], 10);
  var size = parseInt(meta.dataset.size, 10);
  if (!(size > 0) || index < +meta.dataset.shown || index >= +meta.dataset.total) return;
  // The placeholder that holds it: its slice's, or, in the first slice, the
  // one for the events after those the page carries.
  var from = Math.max(index - (index % size), +meta.dataset.shown);
  // Given up after as long as attempt.js waits for a slice of its own.
  var abort = "AbortController" in window ? new AbortController() : null;
  var timer = abort && setTimeout(function () { abort.abort(); }, 15000);
  window.benchviewSlice = {
    from: String(from),
    html: fetch(meta.content + "?from=" + from + "&fragment=1", {
      credentials: "same-origin",
      signal: abort && abort.signal
    }).then(function (response) {
      clearTimeout(timer);
      if (!response.ok) throw new Error("slice " + from + ": " + response.status);
      return response.text();
    })
  };
  // attempt.js may never ask (the reader left the page): no unhandled rejection.
  window.benchviewSlice.html.catch(function () { clearTimeout(timer); });
})();
