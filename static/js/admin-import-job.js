// Admin import job page: follow a queued or running job without reloading,
// by polling its JSON status; reload once it has finished to show the report.
// Without scripts the page refreshes itself (a <noscript> refresh).
document.addEventListener("DOMContentLoaded", () => {
  const root = document.querySelector(".import-job[data-status-url]");
  if (!root) return;
  const url = root.dataset.statusUrl;
  const every = Number(root.dataset.pollMs) || 1000;
  const text = (id, value) => {
    const node = document.getElementById(id);
    if (node) node.textContent = String(value);
  };
  const show = (status) => {
    const bar = document.getElementById("job-bar");
    if (bar) {
      bar.max = Math.max(status.total, 1);
      bar.value = status.done;
    }
    text("job-phase", status.phase || status.state);
    text("job-done", status.done);
    text("job-total", status.total);
    text("job-rate", status.events_per_s);
    text("job-state", status.state);
    const waiting = document.getElementById("job-waiting");
    if (waiting) waiting.hidden = status.state !== "queued";
  };
  const poll = async () => {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      if (response.ok) {
        const status = await response.json();
        show(status);
        if (status.finished) {
          window.location.reload();
          return;
        }
      }
    } catch (error) {
      // A restarting server or a dropped connection: try again next time.
    }
    window.setTimeout(poll, every);
  };
  window.setTimeout(poll, every);
});
