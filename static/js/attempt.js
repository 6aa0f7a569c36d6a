// Attempt page (and the event and slice pages): the trajectory arrives in
// slices (…/events/?from=N&fragment=1) inserted in place of their placeholders
// as the reader scrolls either way or follows a link to one of their events
// (#e<index>, reload and Back/Forward included), so the page costs the same at
// any length. j/k move between events across slices; a "Copy link" button
// copies the address of the event in view; ? lists the keys; t, v, p, l jump
// to the sections; the type toggles' state lives in the address (?hide=…);
// attempt-search.js steps through the search's matches.
// The page works without this file: each placeholder links to its slice page,
// links to events not on the page go to their slice page, and anchors,
// :target marking, type toggles (sibling checkboxes and CSS) and the
// server-side search are plain HTML and CSS.
(function () {
  "use strict";

  var list = document.querySelector("ol.events");
  var slicesUrl = list && list.dataset.slices; // only the attempt page loads slices

  function events() {
    return document.querySelectorAll("ol.events > li.ev");
  }

  function eventIndex(hash) {
    var m = /^#?e(\d+)$/.exec(hash || "");
    return m ? parseInt(m[1], 10) : null;
  }

  function hashTarget() {
    return document.getElementById(decodeURIComponent(location.hash.slice(1)));
  }

  // --- Slices -------------------------------------------------------------

  var observer = null;
  var SLICE_TIMEOUT_MS = 15000;

  // Events `from` to `to` (exclusive), within one slice.
  function request(from, to) {
    var url = slicesUrl + "?from=" + from + "&to=" + to + "&fragment=1";
    // A request that hangs (a stalled connection) is given up and may be
    // tried again, rather than leaving the placeholder loading for ever.
    var abort = "AbortController" in window ? new AbortController() : null;
    var timer = abort && setTimeout(function () { abort.abort(); }, SLICE_TIMEOUT_MS);
    return fetch(url, { credentials: "same-origin", signal: abort && abort.signal })
      .then(function (response) {
        clearTimeout(timer);
        if (!response.ok) throw new Error("slice " + from + ": " + response.status);
        return response.text();
      }, function (error) {
        clearTimeout(timer);
        throw error;
      });
  }

  // The deep link's events, asked for from <head> (attempt-prefetch.js) while
  // the page was arriving: taken once; if that request failed, asked again.
  function early(from, to) {
    var asked = window.benchviewSlice;
    if (!asked || asked.from !== from || asked.to !== to) return null;
    window.benchviewSlice = null;
    return asked.html.catch(function () { return request(from, to); });
  }

  // Replace a placeholder by its events (a slice or a part of one); one
  // request each, and a failed one can be retried (the placeholder stays,
  // its link still works).
  function load(stub) {
    if (stub._loading) return stub._loading;
    stub.classList.add("ev-loading");
    var from = stub.dataset.from;
    var to = String(+stub.dataset.last + 1);
    stub._loading = (early(from, to) || request(from, to))
      .then(function (html) {
        // Parsed by <template>: scripts in it never run (and the server
        // escapes every value from the release anyway).
        var template = document.createElement("template");
        template.innerHTML = html;
        if (observer) observer.unobserve(stub);
        if (stub.parentNode) stub.replaceWith(template.content);
      })
      .catch(function (error) {
        stub.classList.remove("ev-loading");
        stub._loading = null;
        throw error;
      });
    return stub._loading;
  }

  // The placeholder after event `el` (at most a slice away), if any.
  function nextStub(el) {
    for (var next = el.nextElementSibling; next; next = next.nextElementSibling) {
      if (next.classList.contains("ev-more")) return next;
    }
    return null;
  }

  function stubFor(index) {
    var stubs = list ? list.querySelectorAll("li.ev-more") : [];
    for (var i = 0; i < stubs.length; i++) {
      var s = stubs[i];
      if (+s.dataset.from <= index && index <= +s.dataset.last) return s;
    }
    return null;
  }

  // A placeholder takes the room its events will take (estimated at import:
  // data-lines, turned into a height by the stylesheet), so nothing on screen
  // moves when they arrive, and the scrollbar spans the whole trajectory.
  function size(stub) {
    if (!stub.dataset.lines) return;
    var events = +stub.dataset.last - +stub.dataset.from + 1;
    stub.style.setProperty("--events", events);
    stub.style.setProperty("--lines", Math.max(+stub.dataset.lines, events));
    stub.classList.add("ev-sized");
  }
  if (slicesUrl) list.querySelectorAll("li.ev-more").forEach(size);

  // A placeholder for events `first` to `last`, part of `stub`'s, linking
  // to the slice page that holds `first` (which marks it).
  function part(stub, first, last) {
    var piece = stub.cloneNode(true);
    piece.dataset.from = first;
    piece.dataset.last = last;
    piece.classList.remove("ev-loading");
    if (stub.dataset.lines) {
      var share = (last - first + 1) / (+stub.dataset.last - +stub.dataset.from + 1);
      piece.dataset.lines = Math.round(+stub.dataset.lines * share);
      size(piece);
    }
    var link = piece.querySelector("a");
    if (link) {
      link.textContent = "Events " + first + "\u2013" + last;
      link.href = slicesUrl + "?from=" + first;
    }
    if (observer) observer.observe(piece);
    return piece;
  }

  // To show event `index` from a placeholder of many, a few events around it
  // are asked for first, the same window attempt-prefetch.js asks for: the
  // placeholder splits in three and only the middle loads now.
  function around(stub, index) {
    var first = +stub.dataset.from;
    var last = +stub.dataset.last;
    var range = window.benchviewWindow(first, last, index);
    if (range[0] === first && range[1] === last) return stub;
    var middle = part(stub, range[0], range[1]);
    if (range[0] > first) stub.before(part(stub, first, range[0] - 1));
    if (range[1] < last) stub.after(part(stub, range[1] + 1, last));
    if (observer) observer.unobserve(stub);
    stub.replaceWith(middle);
    return middle;
  }

  // A promise of the element of event `index`, loading the events around it
  // if needed. With `show`, the placeholder of those events is scrolled to
  // first (`show` is scrollIntoView's block): they arrive where the reader
  // already is, and what was on screen is not pushed about.
  function ensure(index, show) {
    var el = document.getElementById("e" + index);
    if (el || !slicesUrl) return Promise.resolve(el);
    var stub = stubFor(index);
    if (!stub) return Promise.resolve(null);
    if (!stub._loading && window.benchviewWindow) stub = around(stub, index);
    if (show && stub.classList.contains("ev-sized")) stub.scrollIntoView({ block: show });
    return load(stub).then(function () { return document.getElementById("e" + index); });
  }

  // Slices load a screenful or so before the reader reaches them, either way,
  // one at a time and nearest first: placeholders sit side by side until their
  // slices arrive, and loading every one in reach at once would fetch dozens
  // above a deep link. Chromium's scroll anchoring keeps the view still when
  // one lands above.
  var busy = false;
  // While a deep link lands, no other slice is loaded: parsing one is a long
  // task that would hold back the frame that shows the target.
  var landing = false;
  // `first`, a placeholder to load before any other (the one after a deep
  // link's event: where reading goes on, wherever the view has gone since).
  function pump(first) {
    if (busy || landing || !slicesUrl) return;
    var reach = window.innerHeight * 1.5;
    var best = first && first.parentNode && !first.classList.contains("ev-failed") ? first : null;
    var bestGap = best ? -1 : Infinity;
    list.querySelectorAll("li.ev-more:not(.ev-failed)").forEach(function (stub) {
      var box = stub.getBoundingClientRect();
      var gap = box.bottom < 0 ? -box.bottom : Math.max(0, box.top - window.innerHeight);
      if (gap <= reach && gap < bestGap) { best = stub; bestGap = gap; }
    });
    if (!best) return;
    // A placeholder on screen (a drag of the scrollbar, End, a jump): the
    // events where the view is, first; the rest of it follows.
    if (bestGap === 0 && !best._loading && window.benchviewWindow) {
      var at = stubEventAt(best, window.innerHeight / 3);
      if (at !== null) best = around(best, at);
    }
    busy = true;
    var stub = best;
    load(stub).catch(function () { stub.classList.add("ev-failed"); }).then(function () {
      busy = false;
      requestAnimationFrame(function () { pump(); });
    });
  }

  // The event a sized placeholder would show at `y` (window coordinates):
  // its events share its height evenly.
  function stubEventAt(stub, y) {
    if (!stub.classList.contains("ev-sized")) return null;
    var box = stub.getBoundingClientRect();
    if (y < box.top || y > box.bottom || box.height <= 0) return null;
    var first = +stub.dataset.from;
    var count = +stub.dataset.last - first + 1;
    return first + Math.min(count - 1, Math.floor((y - box.top) / box.height * count));
  }

  if (slicesUrl && "IntersectionObserver" in window) {
    observer = new IntersectionObserver(function (entries) {
      if (entries.some(function (entry) { return entry.isIntersecting; })) pump();
    }, { rootMargin: "150% 0px" });
    list.querySelectorAll("li.ev-more").forEach(function (stub) { observer.observe(stub); });
  }

  // The event at the top third of the window: what "in view" means for copying
  // its link and for coming back to it on reload.
  function inView() {
    if (!list) return null;
    var box = list.getBoundingClientRect();
    if (box.bottom < 0 || box.top > window.innerHeight) return null;
    var hit = document.elementFromPoint(box.left + Math.min(40, box.width / 2), window.innerHeight / 3);
    return hit && hit.closest ? hit.closest("ol.events > li.ev") : null;
  }

  function shown(el) {
    return el.offsetParent !== null; // false when a type toggle hides it
  }

  function indexOf(list, id) {
    for (var i = 0; i < list.length; i++) if (list[i].id === id) return i;
    return -1;
  }

  function neighbour(el, step) {
    return step > 0 ? el.nextElementSibling : el.previousElementSibling;
  }

  // Mark the event and scroll to it. Replacing the fragment marks it (:target)
  // without one history entry per key press.
  function go(el) {
    location.replace("#" + el.id);
    attach(el);
  }

  // The next shown event after `from` (step 1) or before it (-1), loading the
  // neighbouring slice when the walk reaches its placeholder; off the end of a
  // slice page, the neighbouring slice page.
  function walk(from, step) {
    for (var el = neighbour(from, step); el; el = neighbour(el, step)) {
      if (el.classList.contains("ev-more")) {
        load(el).then(function () { walk(from, step); }, function () {});
        return;
      }
      if (el.classList.contains("ev") && shown(el)) { go(el); return; }
    }
    var link = document.querySelector('a[rel="' + (step > 0 ? "next" : "prev") + '"]');
    var index = eventIndex(from.id);
    if (!slicesUrl && link && index !== null) location.href = link.href.split("#")[0] + "#e" + (index + step);
  }

  function move(step) {
    var marked = hashTarget();
    if (marked && marked.classList.contains("ev")) { walk(marked, step); return; }
    // No event is marked: start from the one in view, else the first.
    var start = inView() || events()[0];
    if (!start) return;
    if (shown(start)) go(start); else walk(start, step);
  }

  // Keys are for reading, not for typing: only controls that take text keep
  // them. A toggle or button just clicked keeps focus, and j/k still work.
  var TEXT_INPUTS = /^(text|search|email|number|password|tel|url|date|time|datetime-local|month|week)$/;
  function typing(t) {
    if (!t) return false;
    if (t.isContentEditable || t.tagName === "TEXTAREA" || t.tagName === "SELECT") return true;
    return t.tagName === "INPUT" && TEXT_INPUTS.test(t.type);
  }

  // On the event page there is no list: j/k follow its next/previous links.
  function step(rel) {
    var link = document.querySelector('a[rel="' + rel + '"]');
    if (link) location.href = link.href;
  }

  var SECTIONS = { t: "trajectory", v: "verdict", p: "patch", l: "vendor-log" };
  var KEYS = [
    ["j", "next event"], ["k", "previous event"],
    ["End", "the last event"], ["Home", "the first event"],
    ["t", "the trajectory"], ["v", "the verdict"], ["p", "the patch"], ["l", "the vendor log"],
    ["/", "search this trajectory"], ["n", "the next match of the search"],
    ["N", "the previous match"], ["?", "this list"], ["Esc", "close it"]
  ];

  var help = null;
  function showKeys() {
    if (!help) {
      help = document.createElement("dialog");
      help.className = "keys-dialog";
      help.setAttribute("aria-labelledby", "keys-title");
      var title = document.createElement("h2");
      title.id = "keys-title";
      title.textContent = "Keyboard shortcuts";
      var list = document.createElement("dl");
      KEYS.forEach(function (pair) {
        var dt = document.createElement("dt");
        var kbd = document.createElement("kbd");
        kbd.textContent = pair[0];
        dt.appendChild(kbd);
        var dd = document.createElement("dd");
        dd.textContent = pair[1];
        list.appendChild(dt);
        list.appendChild(dd);
      });
      var close = document.createElement("button");
      close.type = "button";
      close.textContent = "Close";
      close.addEventListener("click", function () { help.close(); });
      help.appendChild(title);
      help.appendChild(list);
      help.appendChild(close);
      document.body.appendChild(help);
    }
    if (!help.open) help.showModal();
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (typing(event.target) || (help && help.open)) return;
    var hasList = list !== null;
    if (event.key === "?") { showKeys(); event.preventDefault(); }
    else if (event.key === "j") { if (hasList) move(1); else step("next"); event.preventDefault(); }
    else if (event.key === "k") { if (hasList) move(-1); else step("prev"); event.preventDefault(); }
    else if ((event.key === "End" || event.key === "Home") && edge(event.key === "End")) event.preventDefault();
    else if (event.key === "/" && document.getElementById("q")) {
      document.getElementById("q").focus();
      event.preventDefault();
    } else if (SECTIONS[event.key] && document.getElementById(SECTIONS[event.key])) {
      location.hash = SECTIONS[event.key];
      event.preventDefault();
    }
  });

  // End and Home within the trajectory go to its last and first event
  // (loading the events there first): End from above its end, Home from
  // below its start. Elsewhere they keep their usual meaning.
  function edge(last) {
    if (!list || !slicesUrl) return false;
    var box = list.getBoundingClientRect();
    if (last ? box.bottom <= window.innerHeight : box.top >= 0) return false;
    var block = last ? "end" : "start";
    ensure(last ? +list.dataset.total - 1 : 0, block).then(function (target) {
      if (target) align(target, null, block);
    }, function () {});
    return true;
  }

  // Where the reader is, "Event 123456 of 200,002", in a box that jumps to
  // any event: on long trajectories, while the trajectory is on screen.
  var position = null;
  var positionBox = null;
  function eventAt() {
    var el = inView();
    if (el) return eventIndex(el.id);
    var box = list.getBoundingClientRect();
    var y = window.innerHeight / 3;
    var hit = document.elementFromPoint(box.left + Math.min(40, box.width / 2), y);
    var stub = hit && hit.closest ? hit.closest("li.ev-more") : null;
    return stub ? stubEventAt(stub, y) : null;
  }
  function showPosition() {
    var box = list.getBoundingClientRect();
    position.hidden = box.bottom < window.innerHeight / 3 || box.top > window.innerHeight / 3;
    if (position.hidden || document.activeElement === positionBox) return;
    var index = eventAt();
    if (index !== null) positionBox.value = index;
  }
  function jump(index) {
    var hash = "#e" + index;
    if (location.hash === hash) land(); else location.hash = hash;
  }
  // In a function of its own: its names stay its own.
  function buildPosition() {
    var total = +list.dataset.total;
    position = document.createElement("form");
    position.className = "ev-position";
    position.setAttribute("aria-label", "Position in the trajectory");
    position.hidden = true;
    var label = document.createElement("label");
    label.htmlFor = "ev-at";
    label.textContent = "Event";
    positionBox = document.createElement("input");
    positionBox.type = "number";
    positionBox.id = "ev-at";
    positionBox.min = "0";
    positionBox.max = String(total - 1);
    positionBox.required = true;
    positionBox.inputMode = "numeric";
    var of = document.createElement("span");
    of.textContent = "of " + total.toLocaleString("en");
    var go = document.createElement("button");
    go.type = "submit";
    go.textContent = "Go";
    position.append(label, " ", positionBox, " ", of, " ", go);
    position.addEventListener("submit", function (event) {
      event.preventDefault();
      var index = parseInt(positionBox.value, 10);
      if (index >= 0 && index < total) { positionBox.blur(); jump(index); }
    });
    document.body.appendChild(position);
    var drawing = false;
    window.addEventListener("scroll", function () {
      if (drawing) return;
      drawing = true;
      requestAnimationFrame(function () { drawing = false; showPosition(); });
    }, { passive: true });
    showPosition();
  }
  if (slicesUrl && list.querySelector("li.ev-more")) buildPosition();
  // The "Go to event" form stays on this page (its slice page without script).
  var gotoForm = document.querySelector("form.goto");
  if (slicesUrl && gotoForm) {
    gotoForm.addEventListener("submit", function (event) {
      var index = parseInt(gotoForm.elements.from.value, 10);
      if (!(index >= 0 && index < +list.dataset.total)) return;
      event.preventDefault();
      jump(index);
    });
  }

  // Type toggles <-> ?hide=kind,kind in the address (replaced, not pushed:
  // a toggle is not a page a visitor goes Back to).
  var toggles = document.querySelectorAll("input.type-toggle");
  function hiddenKinds() {
    var raw = new URLSearchParams(location.search).get("hide");
    return raw ? raw.split(",") : [];
  }
  function applyToggles() {
    var hide = hiddenKinds();
    toggles.forEach(function (box) {
      box.checked = hide.indexOf(box.id.replace(/^show-/, "")) === -1;
    });
  }
  toggles.forEach(function (box) {
    box.addEventListener("change", function () {
      var hide = [];
      toggles.forEach(function (b) { if (!b.checked) hide.push(b.id.replace(/^show-/, "")); });
      var params = new URLSearchParams(location.search);
      if (hide.length) params.set("hide", hide.join(",")); else params.delete("hide");
      var query = params.toString();
      history.replaceState(history.state, "", location.pathname + (query ? "?" + query : "") + location.hash);
    });
  });
  applyToggles();
  // Back/Forward may restore the boxes as last left; the address decides.
  window.addEventListener("pageshow", applyToggles);

  // A deep link lands on its event, reload included. Events above the target
  // are drawn lazily (content-visibility), so their real heights arrive after
  // the first scroll and push the target away, and a slice may land above it;
  // the browser's own scroll restoration on reload would also put back a stale
  // offset. Take over the scroll and keep the target at the top until the
  // layout settles or the reader scrolls.
  function align(target, done, block) {
    block = block || "start";
    var stop = false;
    function quit() { stop = true; }
    // `done` once the target has stayed in place for a few frames (or the
    // reader took over): the frames that show it are drawn before another
    // slice is parsed, and no slice lands above it while it is being aligned.
    function finish() { if (done) { done(); done = null; } }
    ["wheel", "touchstart", "keydown", "mousedown"].forEach(function (name) {
      window.addEventListener(name, quit, { once: true, passive: true });
    });
    var stable = 0;
    var frames = 0;
    (function step() {
      if (stop || frames++ > 120) { finish(); return; }
      var margin = parseFloat(getComputedStyle(target).scrollMarginTop) || 0;
      var box = target.getBoundingClientRect();
      var off = block === "end" ? Math.max(0, box.bottom - window.innerHeight) : box.top - margin;
      if (Math.abs(off) > 1) {
        target.scrollIntoView({ block: block });
        stable = 0;
      } else if (++stable > 10) {
        finish();
        return;
      }
      requestAnimationFrame(step);
    })();
  }

  function land() {
    var index = eventIndex(decodeURIComponent(location.hash.slice(1)));
    if (index === null) return false;
    var present = document.getElementById("e" + index);
    var tries = 0;
    landing = true;
    function landed(target) {
      landing = false;
      pump(target && nextStub(target));
    }
    (function attempt() {
      ensure(index, "start").then(function (target) {
        if (!target) { landed(); return; }
        // Inserted after the fragment was read: navigating to the same
        // fragment again makes it the :target.
        if (!present) location.replace("#" + target.id);
        attach(target);
        align(target, function () { landed(target); });
      }, function () {
        // A failed slice is asked for again, twice, a moment later.
        if (++tries < 3) setTimeout(attempt, 1000 * tries);
        else landed();
      });
    })();
    return true;
  }

  // Reload and Back/Forward come back to the event that was in view (kept in
  // the history entry's state), when the address names no event.
  var KEY = "benchviewEvent";
  function remember() {
    var el = inView();
    var state = Object.assign({}, history.state);
    state[KEY] = el ? el.id : null;
    history.replaceState(state, "");
  }
  function restore() {
    var id = history.state && history.state[KEY];
    var index = eventIndex(id);
    if (index === null) return;
    ensure(index, "start").then(function (target) {
      if (target) { attach(target); align(target); }
    }, function () {});
  }

  if ("scrollRestoration" in history) history.scrollRestoration = "manual";
  function start() {
    if (!land() && list) restore();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  window.addEventListener("hashchange", land);

  // Links to events not on the page as sent point at their slice page (for
  // readers without this script); here they stay on the page.
  document.addEventListener("click", function (event) {
    if (!slicesUrl || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    var link = event.target.closest && event.target.closest("a[href]");
    if (!link || eventIndex(link.hash) === null) return;
    if (link.pathname !== new URL(slicesUrl, location.href).pathname) return;
    event.preventDefault();
    location.hash = link.hash;
  });

  // For attempt-search.js: stepping through the search's matches loads and
  // shows them as any link to an event does.
  window.benchviewTrajectory = { ensure: ensure, jump: jump, typing: typing };

  // One button, moved into whichever event the pointer, focus or fragment is on.
  var button = document.createElement("button");
  button.type = "button";
  button.className = "copy-link";
  button.textContent = "Copy link";

  function attach(ev) {
    var head = ev && ev.querySelector(".ev-head");
    if (head && button.parentNode !== head) {
      button.dataset.anchor = ev.id;
      button.textContent = "Copy link";
      head.appendChild(button);
    }
  }

  function follow(event) {
    var ev = event.target.closest && event.target.closest("ol.events > li.ev");
    if (ev) attach(ev);
  }
  document.addEventListener("mouseover", follow);
  document.addEventListener("focusin", follow);
  window.addEventListener("hashchange", function () { attach(hashTarget()); });
  if (location.hash) attach(hashTarget());

  // While scrolling, the button follows the event in view, and the history
  // entry remembers it (once scrolling pauses).
  var settle = null;
  window.addEventListener("scroll", function () {
    clearTimeout(settle);
    settle = setTimeout(function () {
      var el = inView();
      if (el) attach(el);
      if (list) remember();
    }, 150);
  }, { passive: true });

  function done(text) {
    button.textContent = text;
    setTimeout(function () { button.textContent = "Copy link"; }, 1500);
  }

  button.addEventListener("click", function () {
    // The attempt page's address of the event, also from a slice page: the
    // link to paste anywhere.
    var page = (list && list.dataset.attempt) || location.pathname;
    var url = location.origin + page + "#" + button.dataset.anchor;
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(url).then(
        function () { done("Copied"); },
        function () { location.hash = button.dataset.anchor; done("In the address bar"); }
      );
    } else {
      location.hash = button.dataset.anchor;
      done("In the address bar");
    }
  });
})();
