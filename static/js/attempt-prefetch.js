// Attempt page, run from <head> while the page is still arriving: a deep link
// to an event the page does not carry (#e<index>) asks for a few events around
// it at once, instead of after the whole page has been parsed. attempt.js
// takes the answer from window.benchviewSlice when it reaches the event's
// placeholder (splitting it around the same window, benchviewWindow), and asks
// again itself if this request failed. Only the request starts early:
// inserting the events is attempt.js's job.
(function () {
  "use strict";

  // The events asked for first to show event `index` of the placeholder for
  // `first`..`last`: a screenful or two after it, a few before. Fewer events
  // to parse and lay out before the event is on screen; the rest of the
  // placeholder loads once it is.
  var BEFORE = 10;
  var AFTER = 50;
  window.benchviewWindow = function (first, last, index) {
    return [Math.max(first, index - BEFORE), Math.min(last, index + AFTER - 1)];
  };

  var meta = document.querySelector('meta[name="benchview-slices"]');
  var match = /^#e(\d+)$/.exec(location.hash);
  if (!meta || !match || !window.fetch) return;
  var index = parseInt(match[1], 10);
  var size = parseInt(meta.dataset.size, 10);
  var shown = parseInt(meta.dataset.shown, 10);
  var total = parseInt(meta.dataset.total, 10);
  if (!(size > 0) || index < shown || index >= total) return;
  // The placeholder that holds it: its slice's, or, in the first slice, the
  // one for the events after those the page carries.
  var start = index - (index % size);
  var range = window.benchviewWindow(Math.max(start, shown), Math.min(start + size, total) - 1, index);
  var from = String(range[0]);
  var to = String(range[1] + 1);
  // Given up after as long as attempt.js waits for a slice of its own.
  var abort = "AbortController" in window ? new AbortController() : null;
  var timer = abort && setTimeout(function () { abort.abort(); }, 15000);
  window.benchviewSlice = {
    from: from,
    to: to,
    html: fetch(meta.content + "?from=" + from + "&to=" + to + "&fragment=1", {
      credentials: "same-origin",
      signal: abort && abort.signal
    }).then(function (response) {
      clearTimeout(timer);
      if (!response.ok) throw new Error("events " + from + "-" + to + ": " + response.status);
      return response.text();
    })
  };
  // attempt.js may never ask (the reader left the page): no unhandled rejection.
  window.benchviewSlice.html.catch(function () { clearTimeout(timer); });
})();
