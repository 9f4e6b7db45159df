// Replay viewer keys (admin): arrows step back and forth (mirrored in right-to-left pages),
// Home and End jump to the first and last step. The links work without this script.
(function () {
  "use strict";
  var rtl = document.documentElement.dir === "rtl";
  var keys = {
    ArrowLeft: rtl ? "next" : "prev",
    ArrowRight: rtl ? "prev" : "next",
    Home: "first",
    End: "last"
  };
  document.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    var target = ev.target;
    if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return;
    var id = keys[ev.key];
    if (!id) return;
    var link = document.getElementById(id);
    if (!link || link.getAttribute("aria-disabled") === "true") return;
    ev.preventDefault();
    window.location.assign(link.href);
  });
})();
