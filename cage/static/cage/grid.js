/* The cage's denomination grids: each grid's total as you type, the change due on a sale (the
   cash received less the amount), what is still to pay on a redemption (the amount, or the
   chips received when no amount is typed, less the cash counted out: 0,00 once paid, below
   zero when counted over), and every form's buttons disabled once it is sent (a double click records nothing twice: the
   form's idempotency key does the same on the server). No library, nothing from a CDN. */
(function () {
  "use strict";
  var lang = document.documentElement.lang || "en";
  var fmt = new Intl.NumberFormat(lang, {minimumFractionDigits: 2, maximumFractionDigits: 2});
  function cents(text) {  /* "2,50" (pt-PT) or "2.50": cents, or NaN */
    text = (text || "").replace(/[\s\u00a0']/g, "");
    if (!text) return 0;
    var comma = text.lastIndexOf(","), dot = text.lastIndexOf(".");
    var decimal = comma > dot ? "," : ".";
    var grouping = decimal === "," ? "." : ",";
    text = text.split(grouping).join("").replace(decimal, ".");
    return /^[0-9]+(\.[0-9]{1,2})?$/.test(text) ? Math.round(parseFloat(text) * 100) : NaN;
  }
  function gridCents(grid) {
    var total = 0;
    grid.querySelectorAll("input[data-denomination]").forEach(function (box) {
      var pieces = parseInt(box.value || "0", 10);
      if (pieces > 0) total += pieces * Math.round(parseFloat(box.dataset.denomination) * 100);
    });
    return total;
  }
  function show(node, value) { if (node) node.textContent = isNaN(value) ? "—" : fmt.format(value / 100); }
  function refresh(form) {
    var totals = {};
    form.querySelectorAll("table[data-grid]").forEach(function (grid) {
      var total = gridCents(grid);
      var key = grid.dataset.grid.split("-")[0];
      totals[key] = (totals[key] || 0) + total;
      show(grid.querySelector("output[data-total]"), total);
    });
    var due = form.querySelector("output[data-change-due]");
    if (due) {
      var amount = cents((form.querySelector("input[name=amount]") || {}).value);
      var paid = totals[due.dataset.changeDue] || 0;
      show(due, paid && amount ? paid - amount : NaN);
    }
    var owed = form.querySelector("output[data-still-to-pay]");
    if (owed) {
      var owing = cents((form.querySelector("input[name=amount]") || {}).value) || totals.chips || 0;
      show(owed, owing ? owing - (totals[owed.dataset.stillToPay] || 0) : NaN);
    }
  }
  document.querySelectorAll("form").forEach(function (form) {
    if (form.querySelector("table[data-grid]")) {
      form.addEventListener("input", function () { refresh(form); });
      refresh(form);
    }
    form.addEventListener("submit", function () {
      if (form.dataset.sent) return;
      form.dataset.sent = "1";
      window.setTimeout(function () {
        form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      }, 0);
    });
  });
})();
