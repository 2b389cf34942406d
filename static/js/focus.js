// The page's small helpers; every one of them only adds to a page that works without scripts.
(function () {
  // Focus the field that could not be read, else the answer field (or "next"), without scrolling the
  // table out of sight on a phone; after an answer, bring the feedback into view.
  var target = document.querySelector("[aria-invalid=true]") || document.querySelector("[data-autofocus]");
  if (target && !target.closest("#round")) target.focus({ preventScroll: true });
  var feedback = document.getElementById("feedback");
  if (feedback && !feedback.closest("#round")) feedback.scrollIntoView({ block: "start" });

  // The live table's form offers only the numbers of players the chosen house rules seat.
  document.querySelectorAll("form.round-start select[name=rules]").forEach(function (rules) {
    var seats = rules.form.querySelector("select[name=seats]");
    if (!seats) return;
    function offer() {
      seats.querySelectorAll("option[data-rules]").forEach(function (option) {
        var seated = (" " + option.dataset.rules + " ").indexOf(" " + rules.value + " ") >= 0;
        option.hidden = !seated;
        option.disabled = !seated;
        if (!seated && option.selected) seats.value = "";
      });
    }
    rules.addEventListener("change", offer);
    offer();
  });

  // A table wider than the screen scrolls inside its box: the box takes the keyboard focus (arrow
  // keys scroll it) and is named by its table, only where it does scroll (axe: scrollable-region-focusable).
  document.querySelectorAll(".scroll-x").forEach(function (box) {
    if (box.scrollWidth <= box.clientWidth || box.hasAttribute("tabindex")) return;
    box.tabIndex = 0;
    box.setAttribute("role", "region");
    var table = box.querySelector("table");
    var heading = box.previousElementSibling;
    if (table && table.getAttribute("aria-labelledby")) {
      box.setAttribute("aria-labelledby", table.getAttribute("aria-labelledby"));
    } else if (table && table.caption) {
      box.setAttribute("aria-label", table.caption.textContent.trim());
    } else if (heading && /^H[1-6]$/.test(heading.tagName)) {
      box.setAttribute("aria-label", heading.textContent.trim());
    }
  });

  // The header's row of tabs scrolls sideways on a phone: the active tab is brought to its middle.
  var current = document.querySelector(".nav a[aria-current=page]");
  if (current) {
    var row = current.closest(".nav");
    var item = current.parentElement;
    if (row.scrollWidth > row.clientWidth) row.scrollLeft = item.offsetLeft - (row.clientWidth - item.offsetWidth) / 2;
  }

  // The table in words: folded away on a phone (see .js .in-words in the CSS), unfolded on demand.
  document.querySelectorAll(".words-toggle").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var box = button.parentElement;
      var open = box.classList.toggle("open");
      button.setAttribute("aria-expanded", open ? "true" : "false");
    });
  });

  // The sign button types the minus that a phone's number pad lacks.
  document.querySelectorAll("button[data-sign-for]").forEach(function (button) {
    var input = document.getElementById(button.dataset.signFor);
    if (!input) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      var value = input.value.trim();
      input.value = value.charAt(0) === "-" ? value.slice(1) : "-" + value.replace(/^\+/, "");
      input.focus();
    });
  });

  // A form that takes a while (the advisor) says it is working once sent.
  document.querySelectorAll("form[data-working]").forEach(function (form) {
    form.addEventListener("submit", function () {
      var status = document.getElementById(form.dataset.working);
      if (status) status.hidden = false;
      form.setAttribute("aria-busy", "true");
      form.querySelectorAll("button[type=submit]").forEach(function (b) { b.classList.add("busy"); });
    });
  });

  // The rest of a long result (the advisor's options after the best few), on demand.
  document.querySelectorAll(".more-toggle").forEach(function (button) {
    var more = document.getElementById(button.getAttribute("aria-controls"));
    if (!more) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      var open = more.classList.toggle("open");
      button.setAttribute("aria-expanded", open ? "true" : "false");
    });
  });

  // A table wider than the phone: its highlighted column (the seat asked about, the rules in force)
  // scrolled into view beside the first column, which stays put.
  document.querySelectorAll(".scroll-x").forEach(function (box) {
    var mine = box.querySelector("thead .mine, tr:first-child .mine");
    if (!mine || box.scrollWidth <= box.clientWidth) return;
    var first = box.querySelector("tr > :first-child");
    var boxRect = box.getBoundingClientRect();
    var rect = mine.getBoundingClientRect();
    var stuck = first ? first.getBoundingClientRect().width : 0;
    if (rect.right > boxRect.right || rect.left < boxRect.left + stuck) {
      box.scrollLeft += rect.left - (boxRect.left + stuck) - 4;
    }
  });

  // A buy decision: clicking a card to exchange chooses the exchange.
  document.querySelectorAll("[data-decision]").forEach(function (box) {
    var exchange = box.querySelector("input[data-exchange]");
    box.querySelectorAll(".pick-card input").forEach(function (card) {
      card.addEventListener("change", function () {
        if (card.checked && exchange) exchange.checked = true;
      });
    });
  });
})();
