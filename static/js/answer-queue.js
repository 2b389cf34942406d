// Answers kept on the phone while it has no connection. Check pressed on a practice question without a
// connection (or posted and failed on the way: see #kept below and templates/offline/sw.js) keeps the form's fields (its CSRF token and the drill's id among them) in localStorage and
// says so; they are posted when the connection is back, from this page or the next page of the site
// opened, and the page says the answer was recorded. The server grades the answer then, with its own
// clock, and records one answer per drill: a second copy (another tab, a replay) is refused there.
// The answers of another visitor of the same phone are dropped, never sent in this visitor's name.
(function () {
  var KEY = "ct-answer-queue";
  var PENDING = "ct-answer-pending";
  var RETRY_MS = 15000;  // a connection that failed without the phone noticing: tried again this often
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

  function keep(form, item) {
    var items = read().filter(function (kept) { return kept.action !== item.action; });
    items.push(item);
    if (!write(items)) { say("not-kept"); return; }
    if (form) form.querySelectorAll("input, button, select, textarea").forEach(function (el) { el.disabled = true; });
    say("waiting");
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-queue]")) return;
    var skip = event.submitter && event.submitter.hasAttribute("formaction");
    var fields = [];
    new FormData(form).forEach(function (value, name) { fields.push([name, String(value)]); });
    var item = { action: form.action, fields: fields, visitor: visitor };
    if (navigator.onLine) {
      // Noted for this tab: if the post fails, the service worker brings the question back with
      // #kept and the note is kept then (below); any page that loads after it drops the note.
      if (!skip) try { window.sessionStorage.setItem(PENDING, JSON.stringify(item)); } catch (error) {}
      return;
    }
    event.preventDefault();
    // Skip and the like draw a new question: only the server can.
    if (skip) { say("needs-server"); return; }
    keep(form, item);
  });

  var pending = null;
  try {
    pending = JSON.parse(window.sessionStorage.getItem(PENDING) || "null");
    window.sessionStorage.removeItem(PENDING);
  } catch (error) { pending = null; }
  if (location.hash === "#kept") {
    var here = location.href.split("#")[0];
    history.replaceState(null, "", here);
    if (pending && pending.action === here && pending.visitor === visitor) {
      keep(document.querySelector("form[data-queue]"), pending);
    }
  }

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
      .catch(function () { sending = false; window.setTimeout(flush, RETRY_MS); });
  }

  window.addEventListener("online", flush);
  flush();
})();
