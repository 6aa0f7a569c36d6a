// Attempt page: step through the matches of the trajectory's search, "3 of 41".
// Buttons, n / N anywhere, Enter / Shift+Enter in the search box (while it
// holds the query searched). The matches come a page at a time from
// …/search/?q=…&after=N (or before=N), each page saying how many matches come
// before it, so any match is reached, however far down: its slice is loaded
// (attempt.js) and the query's words are marked in the event's body.
// Without this file the results list pages through every match with links.
(function () {
  "use strict";

  var results = document.querySelector(".search-results[data-search]");
  var page = window.benchviewTrajectory;
  var list = document.querySelector("ol.events");
  if (!results || !page || !list) return;

  var url = results.dataset.search;
  var q = new URLSearchParams(location.search).get("q") || "";
  var total = +results.dataset.total;
  var events = +list.dataset.total;
  var words = (results.dataset.words || "").split(" ").filter(Boolean);
  var known = {}; // ordinal -> event index, filled a page at a time
  var current = -1;

  function record(first, indexes) {
    indexes.forEach(function (index, i) { known[first + i] = index; });
  }
  var shown = [];
  results.querySelectorAll("li[data-index]").forEach(function (li) { shown.push(+li.dataset.index); });
  record(+results.dataset.offset, shown);

  function ask(params) {
    var query = new URLSearchParams(Object.assign({ q: q }, params));
    return fetch(url + "?" + query.toString(), { credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("search: " + response.status);
        return response.json();
      })
      .then(function (found) {
        total = found.total;
        record(found.offset, found.matches.map(function (m) { return m.index; }));
      });
  }

  // The event index of match `ordinal` (0-based), asking for its page if needed.
  function indexOf(ordinal) {
    if (ordinal in known) return Promise.resolve(known[ordinal]);
    var from = known[current];
    var asking;
    if (ordinal === 0) asking = ask({});
    else if (ordinal === total - 1) asking = ask({ before: events });
    else if (from !== undefined && ordinal > current) asking = ask({ after: from });
    else if (from !== undefined) asking = ask({ before: from });
    else asking = ask({});
    return asking.then(function () {
      if (!(ordinal in known)) throw new Error("match " + ordinal + " not found");
      return known[ordinal];
    });
  }

  // The bar: previous, "3 of 41", next.
  var bar = document.createElement("div");
  bar.className = "search-step";
  bar.setAttribute("role", "group");
  bar.setAttribute("aria-label", "Step through the matches");
  function button(label, text, step) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    b.setAttribute("aria-label", label);
    b.addEventListener("click", function () { move(step); });
    return b;
  }
  var status = document.createElement("span");
  status.className = "search-at";
  status.setAttribute("aria-live", "polite");
  var previous = button("Previous match", "\u2191 Previous", -1);
  var next = button("Next match", "Next \u2193", 1);
  bar.append(previous, " ", status, " ", next);
  function say() {
    var of = total.toLocaleString("en");
    status.textContent = current < 0 ? of + " matches" : (current + 1).toLocaleString("en") + " of " + of;
    previous.disabled = next.disabled = total === 0;
  }
  say();
  results.querySelector(".search-count").after(bar);

  function move(step) {
    if (!total) return;
    var target = current < 0 ? (step > 0 ? 0 : total - 1) : (current + step + total) % total;
    indexOf(target).then(function (index) {
      current = target;
      say();
      show(index);
    }, function () { status.textContent = "The match could not be loaded; try again."; });
  }

  function show(index) {
    page.jump(index);
    page.ensure(index).then(function (el) { if (el) mark(el); }, function () {});
  }

  // The query's words, any case, marked in the event's body (not its head)
  // where they start a word (the search finds the words they begin: refund,
  // refunds): text nodes are split and the words put in <mark> elements, so
  // the event's text is never parsed as HTML.
  var WORD = words.length
    ? new RegExp("(^|[^\\p{L}\\p{N}])(" + words.map(function (w) {
      return w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    }).join("|") + ")", "giu")
    : null;
  function mark(el) {
    if (!WORD || el.dataset.marked) return;
    el.dataset.marked = "1";
    var walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, {
      acceptNode: function (node) {
        return node.parentNode.closest(".ev-head, mark") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT;
      }
    });
    var nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    nodes.forEach(function (node) {
      var text = node.nodeValue;
      var frag = document.createDocumentFragment();
      var from = 0;
      var found = false;
      WORD.lastIndex = 0;
      for (var m = WORD.exec(text); m; m = WORD.exec(text)) {
        var at = m.index + m[1].length;
        frag.appendChild(document.createTextNode(text.slice(from, at)));
        var hit = document.createElement("mark");
        hit.className = "hit";
        hit.textContent = m[2];
        frag.appendChild(hit);
        from = at + m[2].length;
        found = true;
      }
      if (!found) return;
      frag.appendChild(document.createTextNode(text.slice(from)));
      var details = node.parentNode.closest("details");
      if (details) details.open = true; // a folded body holding the match opens
      node.parentNode.replaceChild(frag, node);
    });
  }

  // A click on a listed match makes it the current one.
  results.addEventListener("click", function (event) {
    var li = event.target.closest && event.target.closest("li[data-index]");
    if (!li) return;
    var index = +li.dataset.index;
    for (var ordinal in known) {
      if (known[ordinal] === index) { current = +ordinal; say(); break; }
    }
    page.ensure(index).then(function (el) { if (el) mark(el); }, function () {});
  });

  var box = document.getElementById("q");
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target === box && event.key === "Enter" && box.value.trim() === q.trim()) {
      move(event.shiftKey ? -1 : 1);
      event.preventDefault();
    } else if ((event.key === "n" || event.key === "N") && !page.typing(event.target)) {
      move(event.key === "N" ? -1 : 1);
      event.preventDefault();
    }
  });
})();
