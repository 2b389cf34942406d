// A button that prints the page (the readiness report), for the school's file.
(function () {
  var button = document.querySelector("[data-print]");
  if (button) button.addEventListener("click", function () { window.print(); });
})();
