// Filter forms on the leaderboard and matrix submit as soon as a choice
// changes. Without JavaScript the forms keep their submit button, which
// does the same: every filtered view is still a plain GET link.
"use strict";
document.querySelectorAll("form[data-autosubmit]").forEach((form) => {
  form.addEventListener("change", (event) => {
    // A multiple select changes on every click; let the visitor finish and press Apply.
    if (event.target instanceof HTMLSelectElement && event.target.multiple) return;
    form.requestSubmit();
  });
});
