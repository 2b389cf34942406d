// The live class: poll the session's small state and reload when it changes (a new question, a
// pause, the reveal). The server keeps the clock and refuses late answers; the countdown is a display.
(function () {
  var live = document.getElementById("live");
  if (!live) return;
  var version = live.dataset.version;
  var every = Number(live.dataset.poll) || 1500;
  var clock = document.getElementById("live-clock");
  var answered = document.getElementById("live-answered-n");
  var players = document.getElementById("live-players-n");
  var ends = clock ? Date.now() + Number(clock.dataset.leftMs) : 0;
  function tick() {
    if (!clock || clock.dataset.running !== "1") return;
    clock.textContent = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
  }
  function poll() {
    fetch(live.dataset.state, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (s) {
        if (!s) return;
        if (String(s.version) !== version) { window.location.replace(window.location.pathname); return; }
        if (clock && s.left_ms !== null) ends = Date.now() + s.left_ms;
        if (answered) answered.textContent = s.answered;
        if (players) players.textContent = s.players;
      })
      .catch(function () {})
      .then(function () { window.setTimeout(poll, every); });
  }
  window.setInterval(tick, 250);
  window.setTimeout(poll, every);
})();
