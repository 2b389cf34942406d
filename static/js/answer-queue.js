// Answers kept on the phone while it has no connection: a practice question, a sprint's question, an
// assigned quiz's hand-in and a live-table step (every form marked data-queue; static/js/round.js hands
// its step over when its own post fails). Sent without a connection (or posted and failed on the way:
// see #kept below and templates/offline/sw.js), the form's fields (its CSRF token and its drill, step or
// sitting among them) are kept in localStorage and the page says so; they are posted once the connection
// is back, from this page or the next page of the site opened, with the header X-Kept-Answer, and the
// page shows the server's answer in its words (trainer/web/core/kept.py): recorded, or refused and why.
// The server judges the answer then, by its own clock (a sprint or quiz whose time ran out meanwhile
// refuses it) and records one answer per drill, step or sitting: a second copy (another tab, a replay)
// is refused there. The answers of another visitor of the same phone are dropped, never sent in this
// visitor's name.
(function () {
  var KEY = "ct-answer-queue";
  var PENDING = "ct-answer-pending";
  var RETRY_MS = 15000;  // a connection that failed without the phone noticing: tried again this often
  var box = document.getElementById("answer-queue");
  var mark = document.querySelector("meta[name=visitor]");
  var visitor = (mark && mark.getAttribute("content")) || "guest";
  var sending = false;
  var here = location.href.split("#")[0];

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
  function mine() { return read().filter(function (item) { return item.visitor === visitor; }); }

  function show(state, text, href, words) {
    if (!box) return;
    box.querySelector(".text").textContent = text;
    var link = box.querySelector("a");
    link.hidden = !(href && words);
    if (href && words) { link.href = href; link.textContent = words; }
    box.className = "flash " + ({ recorded: "flash-ok", waiting: "flash-info" }[state] || "flash-error");
    box.setAttribute("data-state", state);
    box.hidden = false;
  }
  // The page's own sentences (templates/base.html, translated there): data-waiting, data-refused, ...
  function say(kind, href) {
    if (box) show(kind, box.getAttribute("data-" + kind), href, box.getAttribute("data-" + kind + "-link"));
  }

  function itemOf(form) {
    var fields = [];
    new FormData(form).forEach(function (value, name) { fields.push([name, String(value)]); });
    return { action: form.action, fields: fields, visitor: visitor, page: here };
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
    if (!form.matches || !form.matches("form[data-queue]") || event.defaultPrevented) return;
    var skip = event.submitter && event.submitter.hasAttribute("formaction");
    var item = itemOf(form);
    if (navigator.onLine) {
      // Noted for this tab: if the post fails, the service worker brings the page back with #kept
      // and the note is kept then (below); any page that loads after it drops the note.
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
    history.replaceState(null, "", here);
    // Back on the question (a practice drill, the quiz), or on the offline page shown at the address
    // of the page the answer was given on (a sprint's question).
    if (pending && pending.visitor === visitor && (pending.action === here || pending.page === here)) {
      var form = document.querySelector("form[data-queue]");
      keep(form && form.action === pending.action ? form : null, pending);
    }
  }

  function flush() {
    if (sending || !navigator.onLine) return;
    var items = read();
    var own = mine();
    if (own.length !== items.length) write(own);
    if (!own.length) return;
    var item = own[0];
    var body = new URLSearchParams();
    item.fields.forEach(function (field) { body.append(field[0], field[1]); });
    sending = true;
    fetch(item.action, { method: "POST", body: body, credentials: "same-origin", headers: { "X-Kept-Answer": "1" } })
      .then(function (response) {
        // Busy or down: kept for the next try. Anything else is the server's last word on it.
        if (response.status >= 500 || response.status === 429) throw new Error("later");
        var json = (response.headers.get("Content-Type") || "").indexOf("json") >= 0;
        return (json ? response.json().catch(function () { return null; }) : null);
      })
      .then(function (reply) {
        write(read().filter(function (kept) { return kept.action !== item.action; }));
        if (reply && typeof reply.message === "string") {
          show(reply.recorded ? "recorded" : "refused", reply.message, reply.href, reply.link);
        } else {
          say("refused", item.page || item.action);  // not the views' reply: signed out, a changed page
        }
        sending = false;
        flush();
      })
      .catch(function () { sending = false; window.setTimeout(flush, RETRY_MS); });
  }

  // For the live table (round.js posts its steps itself) and the sprint's clock.
  window.ctAnswerQueue = {
    keep: function (form) { keep(form, itemOf(form)); },
    waiting: function () { return mine().length > 0; },
  };
  window.addEventListener("online", flush);
  flush();
})();
