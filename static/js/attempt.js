// Attempt page: j/k move between events, "Copy link" copies an event's address.
// The page works without this file: anchors, :target marking, type toggles
// (CSS :has) and the server-side search are plain HTML and CSS.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function events() {
    return document.querySelectorAll("ol.events > li.ev");
  }

  function visible(el) {
    return el.offsetParent !== null; // hidden by a type toggle: display none
  }

  function currentIndex(list) {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id) return -1;
    for (var i = 0; i < list.length; i++) if (list[i].id === id) return i;
    return -1;
  }

  function move(step) {
    var list = events();
    if (!list.length) return;
    var i = currentIndex(list);
    if (i === -1) {
      // Start from the first event on screen.
      for (i = 0; i < list.length; i++) if (list[i].getBoundingClientRect().bottom > 0 && visible(list[i])) break;
      i -= step;
    }
    for (var j = i + step; j >= 0 && j < list.length; j += step) {
      if (visible(list[j])) {
        // Replacing the fragment marks the event (:target) and scrolls to it
        // without filling the history with one entry per key press.
        location.replace("#" + list[j].id);
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

  function copied(button, text) {
    var label = button.textContent;
    button.textContent = text;
    setTimeout(function () { button.textContent = label; }, 1500);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button.copy-link");
    if (!button) return;
    var url = location.origin + location.pathname + "#" + button.dataset.anchor;
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(url).then(
        function () { copied(button, "Copied"); },
        function () { location.hash = button.dataset.anchor; copied(button, "Link in address bar"); }
      );
    } else {
      location.hash = button.dataset.anchor;
      copied(button, "Link in address bar");
    }
  });
})();
