// The live table: answer a step without reloading the page. The form still works without this
// script (it posts and the page comes back); with it the answer is sent in the background and the
// verdict, the table and the next step are swapped in. Digits 1-9 pick a choice from the keyboard.
(function () {
  var root = document.getElementById("round");
  if (!root) return;
  var busy = false;

  // The step's field gets the focus without the browser scrolling to it; then the box (or seat) the
  // step asks about is scrolled into the part of the screen the answer bar leaves free (on a phone the
  // bar is held at the bottom; elsewhere it stands under the table), else the table's foot, where the
  // dealer's cards are. The verdict of the step before sits in the bar, so it needs no scroll.
  function focusStep() {
    var target = root.querySelector("[aria-invalid=true]") || root.querySelector("[data-autofocus]");
    if (target) target.focus({ preventScroll: true });
    var bar = document.getElementById("answer-bar");
    var sticky = bar && window.getComputedStyle(bar).position === "sticky";
    var free = window.innerHeight - (sticky ? bar.offsetHeight : 0);
    var asked = root.querySelector(".focus[aria-current=true]");
    var felt = root.querySelector(".felt");
    var shown = asked || felt;
    if (!shown) return;
    var r = shown.getBoundingClientRect();
    var top;
    if (asked && r.height <= free) top = r.top - (free - r.height) / 2;
    else if (asked) top = r.top - 4;
    else top = r.bottom - free + 4;
    if (!sticky) {
      if (r.top >= 0 && r.bottom <= window.innerHeight) return;
    }
    window.scrollBy(0, top);
    if (sticky && target) {
      var t = target.getBoundingClientRect();
      var b = bar.getBoundingClientRect();
      if (t.top < b.top || t.bottom > b.bottom) bar.scrollTop += t.top - b.top - 8;
    }
  }

  function startClock() {
    var el = document.getElementById("clock");
    if (!el || el.dataset.started) return;
    el.dataset.started = "1";
    var ends = Date.now() + 1000 * Number(el.dataset.remaining);
    (function tick() {
      var live = document.getElementById("clock");
      if (!live) return;
      var left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
      live.textContent = left;
      if (left <= 0) { window.location.href = live.dataset.done; return; }
      window.setTimeout(tick, 500);
    })();
  }

  root.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList.contains("step-form") || busy || !window.fetch) return;
    // No connection: static/js/answer-queue.js keeps the answer (the form is data-queue) and sends it
    // when the phone is back; the next step needs the server.
    if (!navigator.onLine && window.ctAnswerQueue) return;
    event.preventDefault();
    busy = true;
    fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      headers: { "X-Requested-With": "fetch" },
      credentials: "same-origin",
    })
      .then(function (response) {
        if (!response.headers.get("Content-Type") || response.headers.get("Content-Type").indexOf("json") < 0) {
          throw new Error("not json");
        }
        return response.json();
      })
      .then(function (data) {
        root.innerHTML = data.html;
        startClock();
        focusStep();
      })
      .catch(function (error) {
        // The post did not get through (fetch's TypeError): kept on the phone like an offline answer.
        // Anything else (a page instead of the step): the form posts the old way.
        if (error instanceof TypeError && window.ctAnswerQueue) window.ctAnswerQueue.keep(form);
        else form.submit();
      })
      .then(function () { busy = false; });
  });

  root.addEventListener("keydown", function (event) {
    if (event.target.matches("input[type=text], textarea, select") || event.ctrlKey || event.altKey || event.metaKey) return;
    var n = Number(event.key);
    if (!n) return;
    var radios = root.querySelectorAll(".step-form input[type=radio]");
    if (n <= radios.length) {
      radios[n - 1].checked = true;
      radios[n - 1].focus();
      event.preventDefault();
    }
  });

  startClock();
  focusStep();
})();
