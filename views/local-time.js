// Times in the browser's own time zone and language. The server writes each <time> in UTC and says
// so (it cannot know the zone); this rewrites `data-local` times as date and time, a time's hover
// (`title`) likewise, and keeps `data-relative-local` times ("vor 3 Minuten", "3分钟前") true as the
// clock moves, with Intl in the page's `lang`. Without JavaScript the UTC text stays. Content htmx
// swaps in is formatted as it settles. (English relative times are kept by client.js.)
(function () {
  "use strict";

  var lang = document.documentElement.lang || "en";

  function formatter(withSeconds) {
    return new Intl.DateTimeFormat(lang, {
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      second: withSeconds ? "2-digit" : undefined,
    });
  }

  var minutes = formatter(false);
  var seconds = formatter(true);
  var relative = new Intl.RelativeTimeFormat(lang, { numeric: "auto", style: "short" });

  function relativeText(ms, now) {
    var diff = (ms - now) / 1000;
    var size = Math.abs(diff);
    if (size < 60) return relative.format(Math.round(diff), "second");
    if (size < 3600) return relative.format(Math.round(diff / 60), "minute");
    if (size < 86400) return relative.format(Math.round(diff / 3600), "hour");
    return relative.format(Math.round(diff / 86400), "day");
  }

  function localise(root) {
    var now = Date.now();
    var times = root.querySelectorAll("time[datetime]");
    for (var i = 0; i < times.length; i++) {
      var time = times[i];
      var at = Date.parse(time.getAttribute("datetime"));
      if (isNaN(at)) continue;
      var kind = time.getAttribute("data-local");
      if (kind) time.textContent = (kind === "seconds" ? seconds : minutes).format(at);
      if (time.hasAttribute("title")) time.title = seconds.format(at);
      if (time.hasAttribute("data-relative-local")) time.textContent = relativeText(at, now);
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    localise(document);
    setInterval(function () {
      localise(document);
    }, 15000);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    localise(event.target && event.target.querySelectorAll ? event.target : document);
  });
})();
