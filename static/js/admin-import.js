// Admin import: refuse an archive over the upload limit before sending it,
// instead of streaming it to the server only to be told so at the end.
document.addEventListener("DOMContentLoaded", () => {
  for (const form of document.querySelectorAll("form.import-upload[data-max-bytes]")) {
    const limit = Number(form.dataset.maxBytes);
    const input = form.querySelector('input[type="file"]');
    const note = form.querySelector(".import-size-error");
    const submit = form.querySelector('input[type="submit"]');
    if (!input || !note || !submit) continue;
    const check = () => {
      const file = input.files && input.files[0];
      const tooLarge = Boolean(file) && file.size > limit;
      note.hidden = !tooLarge;
      note.textContent = tooLarge
        ? `${file.name} is ${file.size.toLocaleString("en-US")} bytes, more than the ` +
          `upload limit of ${form.dataset.maxLabel}. Put it in the import folder ` +
          "on the server and pick it below instead."
        : "";
      submit.disabled = tooLarge;
    };
    input.addEventListener("change", check);
    form.addEventListener("submit", () => {
      // One upload at a time: a second click would send the archive again.
      submit.disabled = true;
      submit.value = "Uploading and checking…";
    });
  }
});
