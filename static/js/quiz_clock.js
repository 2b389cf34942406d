// The timed quiz's countdown as a display: the server gives the seconds left by its own clock with
// every page (a reload does not restart it) and refuses a hand-in after the deadline and its grace.
// At zero the page hands itself in, marked time_up, so the answers typed so far count.
(function () {
  var el = document.getElementById("quiz-clock");
  if (!el) return;
  var ends = Date.now() + 1000 * Number(el.dataset.remaining);
  var form = document.getElementById("hand-in-form");
  function show(left) {
    var m = Math.floor(left / 60), s = left % 60;
    el.textContent = m + ":" + (s < 10 ? "0" : "") + s;
  }
  function tick() {
    var left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
    show(left);
    if (left <= 60) el.classList.add("clock-low");
    if (left <= 0) {
      if (form) {
        document.getElementById("time-up").value = "1";
        // requestSubmit, not submit: the submit event lets static/js/answer-queue.js keep the
        // hand-in on the phone when there is no connection (the server still judges its time).
        if (form.requestSubmit) form.requestSubmit(); else form.submit();
      }
      return;
    }
    window.setTimeout(tick, 250);
  }
  tick();
})();
