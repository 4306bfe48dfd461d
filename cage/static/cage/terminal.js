/* The cage terminal: a letter chooses the movement (its button's data-key) when no box has the
   focus (Esc leaves a box); a refusal brings its field into view and puts the cursor in it, so
   nothing is scrolled for. No library, nothing from a CDN. */
(function () {
  "use strict";
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var t = e.target;
    if (e.key === "Escape" && t && t.blur) { t.blur(); return; }
    if (t && (t.isContentEditable || /^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(t.tagName))) return;
    var link = document.querySelector('.terminal nav.movements a[data-key="' + (e.key || "").toLowerCase() + '"]');
    if (link) { e.preventDefault(); link.click(); }
  });
  var refused = document.querySelector(".terminal [role=alert]");
  if (refused) {
    var near = refused.parentElement.querySelector("input:not([type=hidden]), select") ||
      refused.closest("form").querySelector("input:not([type=hidden]), select");
    refused.scrollIntoView({block: "center"});
    if (near) near.focus({preventScroll: true});
  }
})();
/* Enter in the patron's document boxes finds the patron (it must not send the sale). */
document.addEventListener("keydown", function (e) {
  if (e.key !== "Enter" || !e.target.closest) return;
  var part = e.target.closest(".patron-find");
  if (part) { e.preventDefault(); var find = part.querySelector("[data-find]"); if (find) find.click(); }
});
