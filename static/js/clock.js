// The sprint clock as a display: the server keeps the real one and refuses answers after it.
(function () {
  var el = document.getElementById("clock");
  var script = document.currentScript;
  if (!el) return;
  var ends = Date.now() + 1000 * Number(el.dataset.remaining);
  function tick() {
    var left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
    el.textContent = left;
    if (left <= 0) {
      // An answer kept on the phone (static/js/answer-queue.js) goes first, and the server's reply to
      // it leads to the result; without a connection the result waits for it.
      var queue = window.ctAnswerQueue;
      if (!navigator.onLine || (queue && queue.waiting())) {
        window.addEventListener("online", function () { if (!(queue && queue.waiting())) done(); });
        return;
      }
      done();
      return;
    }
    window.setTimeout(tick, 250);
  }
  function done() {
    // The sprint is scored by a POST; without the form (an old page) the result page offers it.
    var finish = document.getElementById("finish-form");
    if (finish) finish.submit(); else window.location.href = script.dataset.done;
  }
  tick();
})();
