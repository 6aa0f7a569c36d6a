// Attempt page (and the event page): j/k move between events; a "Copy link"
// button copies an event's address; ? lists the keys; t, v, p, l jump to the
// sections; the type toggles' state lives in the address (?hide=…); search
// hits are highlighted; a deep link lands on its event even on reload.
// The page works without this file: anchors, :target marking, type toggles
// (sibling checkboxes and CSS) and the server-side search are plain HTML and CSS.
(function () {
  "use strict";

  function events() {
    return document.querySelectorAll("ol.events > li.ev");
  }

  function shown(el) {
    return el.offsetParent !== null; // false when a type toggle hides it
  }

  function indexOf(list, id) {
    for (var i = 0; i < list.length; i++) if (list[i].id === id) return i;
    return -1;
  }

  function move(step) {
    var list = events();
    if (!list.length) return;
    var i = indexOf(list, decodeURIComponent(location.hash.slice(1)));
    if (i === -1) {
      // No event is marked: start from the first one on screen.
      for (i = 0; i < list.length - 1; i++) {
        if (shown(list[i]) && list[i].getBoundingClientRect().bottom > 0) break;
      }
      i -= step;
    }
    for (var j = i + step; j >= 0 && j < list.length; j += step) {
      if (shown(list[j])) {
        // Replacing the fragment marks the event (:target) and scrolls to it
        // without one history entry per key press.
        location.replace("#" + list[j].id);
        attach(list[j]);
        return;
      }
    }
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
    ["t", "the trajectory"], ["v", "the verdict"], ["p", "the patch"], ["l", "the vendor log"],
    ["/", "search this trajectory"], ["?", "this list"], ["Esc", "close it"]
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
    var hasList = events().length > 0;
    if (event.key === "?") { showKeys(); event.preventDefault(); }
    else if (event.key === "j") { if (hasList) move(1); else step("next"); event.preventDefault(); }
    else if (event.key === "k") { if (hasList) move(-1); else step("prev"); event.preventDefault(); }
    else if (event.key === "/" && document.getElementById("q")) {
      document.getElementById("q").focus();
      event.preventDefault();
    } else if (SECTIONS[event.key] && document.getElementById(SECTIONS[event.key])) {
      location.hash = SECTIONS[event.key];
      event.preventDefault();
    }
  });

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

  // Search: mark every occurrence of the query in the result snippets.
  var query = new URLSearchParams(location.search).get("q");
  if (query) {
    var needle = query.toLowerCase();
    document.querySelectorAll(".search-results .snippet").forEach(function (snippet) {
      var walker = document.createTreeWalker(snippet, NodeFilter.SHOW_TEXT);
      var nodes = [];
      while (walker.nextNode()) nodes.push(walker.currentNode);
      nodes.forEach(function (node) {
        var text = node.nodeValue;
        var lower = text.toLowerCase();
        var at = lower.indexOf(needle);
        if (at === -1) return;
        var frag = document.createDocumentFragment();
        var from = 0;
        while (at !== -1) {
          frag.appendChild(document.createTextNode(text.slice(from, at)));
          var mark = document.createElement("mark");
          mark.textContent = text.slice(at, at + needle.length);
          frag.appendChild(mark);
          from = at + needle.length;
          at = lower.indexOf(needle, from);
        }
        frag.appendChild(document.createTextNode(text.slice(from)));
        node.parentNode.replaceChild(frag, node);
      });
    });
  }

  // A deep link lands on its event, reload included. Events above the target
  // are drawn lazily (content-visibility), so their real heights arrive after
  // the first scroll and push the target away; the browser's own scroll
  // restoration on reload would also put back a stale offset. Take over the
  // scroll and keep the target at the top until the layout settles or the
  // reader scrolls.
  function land() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target || !target.classList.contains("ev")) return;
    var stop = false;
    function quit() { stop = true; }
    ["wheel", "touchstart", "keydown", "mousedown"].forEach(function (name) {
      window.addEventListener(name, quit, { once: true, passive: true });
    });
    var stable = 0;
    var frames = 0;
    (function align() {
      if (stop || frames++ > 120) return;
      var margin = parseFloat(getComputedStyle(target).scrollMarginTop) || 0;
      var off = target.getBoundingClientRect().top - margin;
      if (Math.abs(off) > 1) {
        target.scrollIntoView({ block: "start" });
        stable = 0;
      } else if (++stable > 10) {
        return;
      }
      requestAnimationFrame(align);
    })();
  }
  if ("scrollRestoration" in history) history.scrollRestoration = "manual";
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", land);
  else land();
  window.addEventListener("hashchange", land);

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
  window.addEventListener("hashchange", function () {
    attach(document.getElementById(decodeURIComponent(location.hash.slice(1))));
  });
  if (location.hash) attach(document.getElementById(decodeURIComponent(location.hash.slice(1))));

  function done(text) {
    button.textContent = text;
    setTimeout(function () { button.textContent = "Copy link"; }, 1500);
  }

  button.addEventListener("click", function () {
    var url = location.origin + location.pathname + "#" + button.dataset.anchor;
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
