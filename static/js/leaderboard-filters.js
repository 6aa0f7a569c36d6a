// Filter forms on the leaderboard, matrix and tasks pages submit as soon as a
// choice changes. Without JavaScript the forms keep their submit button, which
// does the same: every filtered view is still a plain GET link.
"use strict";
document.querySelectorAll("form[data-autosubmit]").forEach((form) => {
  form.addEventListener("change", (event) => {
    // Multiple choices (a multiple select, the model picker) are made one
    // click at a time: let the visitor finish and press Apply.
    if (event.target instanceof HTMLSelectElement && event.target.multiple) return;
    if (event.target.closest("[data-no-autosubmit]")) return;
    if (event.target.type === "search") return;
    form.requestSubmit();
  });
});

// The model picker's "Find" box hides the models that do not match.
document.querySelectorAll("[data-picker-filter]").forEach((input) => {
  const items = input.closest("fieldset").querySelectorAll("[data-picker-text]");
  input.addEventListener("input", () => {
    const wanted = input.value.trim().toLowerCase();
    items.forEach((item) => {
      item.hidden = wanted !== "" && !item.dataset.pickerText.includes(wanted);
    });
  });
  // Enter in the box filters; it must not submit the form half-chosen.
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") event.preventDefault();
  });
});

// Back and Forward may bring a page back with its controls as the visitor
// last left them, not as its address says. The server rendered the controls
// from the address, so resetting them to their defaults shows the address.
window.addEventListener("pageshow", () => {
  document.querySelectorAll("form.filters").forEach((form) => form.reset());
});
