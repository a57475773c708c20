// The staff view follows the tables: reload when one publishes (at most once a second),
// or every few seconds where the page asks for it (the database was unreachable).
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live) { return; }
  if (live.dataset.reload) {
    setTimeout(function () { location.reload(); }, 1000 * Number(live.dataset.reload));
    return;
  }
  var pending = false;
  var only = live.dataset.table;
  var source = new EventSource(live.dataset.stream);
  source.addEventListener("changed", function (ev) {
    var data = JSON.parse(ev.data);
    if (only && String(data.table) !== only) { return; }
    if (pending) { return; }
    pending = true;
    setTimeout(function () { location.reload(); }, 1000);
  });
  // A silent table turns into an alert without publishing: look again twice a minute.
  setTimeout(function () { location.reload(); }, 30000);
})();
