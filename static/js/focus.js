// Focus the answer field (or "next") without scrolling the table out of sight on a phone; after an
// answer, bring the feedback into view. Without JavaScript the page simply starts at the top.
(function () {
  var target = document.querySelector("[data-autofocus]");
  if (target) target.focus({ preventScroll: true });
  var feedback = document.getElementById("feedback");
  if (feedback) feedback.scrollIntoView({ block: "start" });
})();
