// Attempt page: j/k move between events; a "Copy link" button copies an event's address.
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

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var t = event.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(t.tagName))) return;
    if (event.key === "j") { move(1); event.preventDefault(); }
    else if (event.key === "k") { move(-1); event.preventDefault(); }
  });

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
