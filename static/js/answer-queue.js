// Answers kept on the phone while it has no connection. Check pressed on a practice question without a
// connection keeps the form's fields (its CSRF token and the drill's id among them) in localStorage and
// says so; they are posted when the connection is back, from this page or the next page of the site
// opened, and the page says the answer was recorded. The server grades the answer then, with its own
// clock, and records one answer per drill: a second copy (another tab, a replay) is refused there.
// The answers of another visitor of the same phone are dropped, never sent in this visitor's name.
(function () {
  var KEY = "ct-answer-queue";
  var box = document.getElementById("answer-queue");
  var mark = document.querySelector("meta[name=visitor]");
  var visitor = (mark && mark.getAttribute("content")) || "guest";
  var sending = false;

  function read() {
    try {
      var items = JSON.parse(window.localStorage.getItem(KEY) || "[]");
      return Array.isArray(items) ? items : [];
    } catch (error) { return []; }
  }
  function write(items) {
    try {
      if (items.length) window.localStorage.setItem(KEY, JSON.stringify(items));
      else window.localStorage.removeItem(KEY);
      return true;
    } catch (error) { return false; }
  }
  // The page's own sentences (templates/base.html, translated there): data-waiting, data-recorded, ...
  function say(kind, href) {
    if (!box) return;
    box.querySelector(".text").textContent = box.getAttribute("data-" + kind);
    var link = box.querySelector("a");
    var words = box.getAttribute("data-" + kind + "-link");
    link.hidden = !(href && words);
    if (href && words) { link.href = href; link.textContent = words; }
    box.className = "flash " + ({ recorded: "flash-ok", waiting: "flash-info" }[kind] || "flash-error");
    box.setAttribute("data-state", kind);
    box.hidden = false;
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-queue]") || navigator.onLine) return;
    event.preventDefault();
    // Skip and the like draw a new question: only the server can.
    if (event.submitter && event.submitter.hasAttribute("formaction")) { say("needs-server"); return; }
    var fields = [];
    new FormData(form).forEach(function (value, name) { fields.push([name, String(value)]); });
    var items = read().filter(function (item) { return item.action !== form.action; });
    items.push({ action: form.action, fields: fields, visitor: visitor });
    if (!write(items)) { say("not-kept"); return; }
    form.querySelectorAll("input, button, select, textarea").forEach(function (el) { el.disabled = true; });
    say("waiting");
  });

  function flush() {
    if (sending || !navigator.onLine) return;
    var items = read();
    var mine = items.filter(function (item) { return item.visitor === visitor; });
    if (mine.length !== items.length) write(mine);
    if (!mine.length) return;
    var item = mine[0];
    var body = new URLSearchParams();
    item.fields.forEach(function (field) { body.append(field[0], field[1]); });
    sending = true;
    fetch(item.action, { method: "POST", body: body, credentials: "same-origin" })
      .then(function (response) {
        // Busy or down: kept for the next try. Anything else is the server's last word on it.
        if (response.status >= 500 || response.status === 429) throw new Error("later");
        write(read().filter(function (kept) { return kept.action !== item.action; }));
        say(response.ok ? "recorded" : "refused", item.action);
        sending = false;
        flush();
      })
      .catch(function () { sending = false; });
  }

  window.addEventListener("online", flush);
  flush();
})();
