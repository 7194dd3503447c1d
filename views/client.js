// The admin pages' own script, loaded in <head> before htmx. The pages work without it (every
// action is a plain form, every list a plain page); with it they gain what HTML alone cannot do:
// the saved light/dark choice, a message in place when an htmx request fails, focus kept on the
// control that was used after its row is swapped, Escape closing the phone menu, relative times
// that stay true, and self-refreshing lists. No inline script or style anywhere (the CSP forbids
// them), so everything hangs off data- attributes and classes the views set.
(function () {
  "use strict";

  var THEME_KEY = "ddnsd-theme";
  var root = document.documentElement;

  // The words this script writes into a page, in the page's language: the layout puts them in a
  // JSON block ahead of this script (views/i18n, section `client`). A boosted page change keeps
  // the language (changing it is a full load), so they are read once.
  var WORDS = {};
  try {
    var wordsBlock = document.getElementById("page-words");
    if (wordsBlock) WORDS = JSON.parse(wordsBlock.textContent);
  } catch (e) {
    // A page without them (or broken): the keys themselves show, never a failure.
  }
  function word(key, values) {
    var text = WORDS[key] || key;
    for (var name in values || {}) text = text.split("{" + name + "}").join(String(values[name]));
    return text;
  }

  // The theme first, before the body is drawn, so a dark choice never flashes light.
  function applyTheme(theme) {
    if (theme === "light" || theme === "dark") root.setAttribute("data-theme", theme);
    else root.removeAttribute("data-theme");
  }
  try {
    applyTheme(localStorage.getItem(THEME_KEY));
  } catch (e) {
    // Storage refused (private mode): the system setting applies.
  }
  root.classList.add("js");

  // A "Copy" button (data-copy names the input to copy) is shown only when this script runs;
  // without it the value is selectable text. The clipboard API needs a secure context (https or
  // localhost); on plain http over the LAN the older copy command does it.
  function showCopyButtons() {
    var buttons = document.querySelectorAll("[data-copy]");
    for (var i = 0; i < buttons.length; i++) buttons[i].hidden = false;
  }

  function copyFrom(button) {
    var input = document.getElementById(button.getAttribute("data-copy"));
    if (!input) return;
    var done = function () {
      button.textContent = word("copied");
    };
    input.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () {
        if (document.execCommand("copy")) done();
      });
    } else if (document.execCommand("copy")) done();
  }

  // The theme toggle cycles through three choices and names the one in force: the system's
  // setting, then the other look than the system's (so the first press changes something), then
  // the system's own look chosen for good, then back to following the system.
  var THEME_WORDS = { system: "themeSystem", light: "themeLight", dark: "themeDark" };

  function chosenTheme() {
    return root.getAttribute("data-theme") || "system";
  }

  function nextTheme() {
    var chosen = chosenTheme();
    var system = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
    var other = system === "dark" ? "light" : "dark";
    if (chosen === "system") return other;
    if (chosen === other) return system;
    return "system";
  }

  function showTheme() {
    var buttons = document.querySelectorAll("[data-theme-toggle]");
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].hidden = false;
      buttons[i].querySelector("[data-theme-words]").textContent = word(THEME_WORDS[chosenTheme()]);
    }
  }

  // Relative times ("3 min ago", "in 28 s"): the same words as views/format.ts, kept true as the
  // clock moves. The server renders them; this only refreshes the text.
  function duration(seconds) {
    var s = Math.max(0, Math.round(seconds));
    if (s < 60) return s + " s";
    var units = [
      [86400, "d"],
      [3600, "h"],
      [60, "min"],
    ];
    var parts = [];
    var rest = s;
    for (var i = 0; i < units.length; i++) {
      if (rest >= units[i][0] && parts.length < 2) {
        parts.push(Math.floor(rest / units[i][0]) + " " + units[i][1]);
        rest %= units[i][0];
      } else if (parts.length > 0) break;
    }
    return parts.join(" ");
  }

  function relative(ms, now) {
    var seconds = (ms - now) / 1000;
    if (Math.abs(seconds) < 5) return "just now";
    return seconds < 0 ? duration(-seconds) + " ago" : "in " + duration(seconds);
  }

  function refreshTimes() {
    var now = Date.now();
    var times = document.querySelectorAll("time[data-relative]");
    for (var i = 0; i < times.length; i++) {
      var at = Date.parse(times[i].getAttribute("datetime"));
      if (!isNaN(at)) times[i].textContent = relative(at, now);
    }
  }

  // What went wrong with an htmx request, as a sentence and what to do about it.
  function failureText(xhr) {
    if (!xhr || xhr.status === 0) return word("unreachable");
    var detail = "";
    try {
      detail = JSON.parse(xhr.responseText).detail || "";
    } catch (e) {
      detail = "";
    }
    // The API's `detail` is English and stays as it is; the advice around it is the page's.
    if (xhr.status === 404) return (detail || word("notFound")) + word("notFoundAdvice");
    if (xhr.status === 403) return (detail || word("refused")) + word("refusedAdvice");
    if (xhr.status >= 500) return (detail || word("serverFailed")) + word("serverFailedAdvice");
    return (detail || word("requestRefused")) + ".";
  }

  // The message goes next to the control that made the request: in its row's message slot, or
  // right after the control.
  function showFailure(elt, text) {
    var slot = elt.closest("[data-error-slot]");
    var box = slot ? slot.querySelector(".request-error") : null;
    if (!box) {
      box = document.createElement("p");
      box.className = "request-error";
      box.setAttribute("role", "alert");
      if (slot) slot.appendChild(box);
      else elt.insertAdjacentElement("afterend", box);
    }
    box.textContent = text;
  }

  function clearFailure(elt) {
    var slot = elt.closest("[data-error-slot]");
    var box = slot ? slot.querySelector(".request-error") : null;
    if (box) box.remove();
  }

  // Focus: a control that is disabled while its request runs loses focus to <body>, and the swap
  // then replaces it. Remember its id and give focus back to its successor once a swap settles —
  // whichever swap: the live list's refresh may start and settle while the control's own request is
  // under way, and then replaces the row that request was to swap. The debt is kept until no
  // request is under way any more, since the control's own swap, coming after the refresh's,
  // replaces the row (and the focus given back) once more; then it is paid (a request that failed
  // swaps nothing: focus goes back to the control itself) and forgotten.
  var owedFocus = null;

  function giveFocusBack() {
    if (!owedFocus || (document.activeElement !== document.body && document.activeElement !== null)) return;
    var next = document.getElementById(owedFocus);
    if (next && !next.disabled) next.focus();
  }

  // A rejected form comes back from the server with its password inputs empty (a secret is never
  // sent back to the browser). What was typed in them is kept here, in memory only, for the time
  // of the request, and put back if the same form returns.
  var typedSecrets = null;

  function keepTypedSecrets(form) {
    typedSecrets = null;
    if (!form || form.tagName !== "FORM" || !form.id) return;
    var inputs = form.querySelectorAll("input[type=password]");
    var values = {};
    var any = false;
    for (var i = 0; i < inputs.length; i++) {
      if (inputs[i].name && inputs[i].value) {
        values[inputs[i].name] = inputs[i].value;
        any = true;
      }
    }
    if (any) typedSecrets = { form: form.id, values: values };
  }

  function restoreTypedSecrets() {
    if (!typedSecrets) return;
    var form = document.getElementById(typedSecrets.form);
    if (form) {
      for (var name in typedSecrets.values) {
        var input = form.querySelector("input[type=password][name='" + name.replace(/'/g, "") + "']");
        if (input && !input.value) input.value = typedSecrets.values[name];
      }
    }
    typedSecrets = null;
  }

  // A list's refresh never runs beside a control's own request: one rendered before the control's
  // write and answered after it would put the row's old state back (a switch just turned off shown
  // on again until the next refresh) and take the focus given back with it. A refresh due while a
  // request is under way is skipped (the next one comes a few seconds later); one under way when a
  // control is used is dropped.
  //
  // Requests are known by their XMLHttpRequest, never by their element: a request's element is
  // often gone by the time it ends (its swap replaced it), and htmx then reports the end on an
  // ancestor instead.
  var requestsUnderWay = [];
  var refreshesUnderWay = [];

  function isRefresh(elt) {
    return elt.hasAttribute && elt.hasAttribute("data-live");
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (isRefresh(elt)) {
      if (requestsUnderWay.length > refreshesUnderWay.length) return event.preventDefault();
      refreshesUnderWay.push(event.detail.xhr);
    } else {
      // Aborting ends the refresh at once (htmx:afterRequest below takes it off both lists).
      var refreshes = refreshesUnderWay.slice();
      for (var i = 0; i < refreshes.length; i++) refreshes[i].abort();
    }
    if (event.detail.boosted) keepTypedSecrets(elt);
    var active = document.activeElement;
    if (active && active !== document.body && active.id) owedFocus = active.id;
    requestsUnderWay.push(event.detail.xhr);
    clearFailure(elt);
  });

  function forget(list, xhr) {
    var at = list.indexOf(xhr);
    if (at !== -1) list.splice(at, 1);
  }

  // Fired once for every request htmx sent, whatever its end; for one answered, after its swap and
  // its settle (the layout sets no settle delay).
  document.addEventListener("htmx:afterRequest", function (event) {
    forget(requestsUnderWay, event.detail.xhr);
    forget(refreshesUnderWay, event.detail.xhr);
    if (requestsUnderWay.length === 0) {
      giveFocusBack();
      owedFocus = null;
    }
  });

  // Focus the person moves elsewhere is theirs: nothing is owed any more.
  document.addEventListener("focusin", function (event) {
    if (event.target && event.target.id !== owedFocus) owedFocus = null;
  });

  document.addEventListener("htmx:afterSettle", function () {
    showDomainSearch();
    restoreTypedSecrets();
    restoreUnsentForm();
    giveFocusBack();
    if (requestsUnderWay.length === 0) owedFocus = null;
    refreshTimes();
    showTheme();
    showCopyButtons();
    showLanded();
  });

  // A boosted link or form (a page change) that ends in an error shows the error page the server
  // sent, as a plain navigation would; only in-place requests get the message below.
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.requestConfig && event.detail.requestConfig.boosted && event.detail.xhr.status >= 400) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  // A form sent after the session expired: the server answers 401 and sends the page to sign in,
  // then back to the form. What was typed (passwords excepted: they are never kept) waits in this
  // tab's sessionStorage and is put back into the form once it shows again.
  var UNSENT_KEY = "ddnsd-unsent-form";

  document.addEventListener("htmx:beforeOnLoad", function (event) {
    var form = event.detail.elt;
    if (event.detail.xhr.status !== 401 || !form || form.tagName !== "FORM" || !form.id) return;
    var fields = [];
    for (var i = 0; i < form.elements.length; i++) {
      var input = form.elements[i];
      if (!input.name || input.type === "password" || input.type === "hidden" || input.type === "submit") continue;
      if (input.type === "checkbox" || input.type === "radio") fields.push([input.name, input.value, input.checked]);
      else fields.push([input.name, input.value]);
    }
    try {
      sessionStorage.setItem(UNSENT_KEY, JSON.stringify({ path: location.pathname, form: form.id, fields: fields }));
    } catch (e) {
      // Not kept: the form comes back as it was stored.
    }
  });

  function restoreUnsentForm() {
    var saved;
    try {
      saved = JSON.parse(sessionStorage.getItem(UNSENT_KEY) || "null");
    } catch (e) {
      saved = null;
    }
    if (!saved || saved.path !== location.pathname) return;
    var form = document.getElementById(saved.form);
    if (!form) return;
    sessionStorage.removeItem(UNSENT_KEY);
    for (var i = 0; i < saved.fields.length; i++) {
      var field = saved.fields[i];
      var inputs = form.querySelectorAll("[name='" + field[0].replace(/'/g, "") + "']");
      for (var j = 0; j < inputs.length; j++) {
        if (inputs[j].type === "checkbox" || inputs[j].type === "radio") {
          if (inputs[j].value === field[1]) inputs[j].checked = field[2];
        } else inputs[j].value = field[1];
        // What hangs off the field (the schedule's preview, the fields of a chosen type) follows it.
        inputs[j].dispatchEvent(new Event("input", { bubbles: true }));
      }
    }
    var note = document.createElement("div");
    note.className = "notice notice-info";
    note.setAttribute("role", "status");
    note.textContent = word("sessionExpired");
    form.parentNode.insertBefore(note, form);
  }

  document.addEventListener("htmx:responseError", function (event) {
    // A polling refresh that fails keeps the last good content and says so in its "as of" line.
    if (isRefresh(event.detail.elt)) return markStale(event.detail.elt);
    showFailure(event.detail.elt, failureText(event.detail.xhr));
  });

  document.addEventListener("htmx:sendError", function (event) {
    if (isRefresh(event.detail.elt)) return markStale(event.detail.elt);
    showFailure(event.detail.elt, failureText(null));
  });

  function markStale(elt) {
    var asOf = elt.querySelector("[data-as-of]");
    if (asOf) asOf.classList.add("stale");
  }

  // The service picker narrows as one types: the same match as the server's (views/service-catalog.ts
  // searchKey), over each entry's data-search keys; a group with nothing left is hidden.
  function searchKey(text) {
    return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
  }

  function filterServices(input) {
    var wanted = searchKey(input.value);
    var groups = document.querySelectorAll("[data-service-group]");
    var found = 0;
    var total = 0;
    // The popular entries repeat some of the groups' own: shown only while nothing is searched.
    var popular = document.querySelector("[data-service-popular]");
    if (popular) popular.hidden = wanted !== "";
    var hint = document.querySelector("[data-router-hint]");
    if (hint) {
      var routers = hint.getAttribute("data-router-hint").split(" ");
      var router = false;
      for (var r = 0; r < routers.length && !router; r++)
        router = wanted.length >= 3 && routers[r].indexOf(wanted) !== -1;
      hint.hidden = !router;
    }
    for (var i = 0; i < groups.length; i++) {
      var entries = groups[i].querySelectorAll("[data-search]");
      var shown = 0;
      for (var j = 0; j < entries.length; j++) {
        var keys = entries[j].getAttribute("data-search").split(" ");
        var match = wanted === "";
        for (var k = 0; k < keys.length && !match; k++) match = keys[k].indexOf(wanted) !== -1;
        entries[j].hidden = !match;
        if (match) shown++;
      }
      groups[i].hidden = shown === 0;
      found += shown;
      total += entries.length;
    }
    var count = document.querySelector("[data-service-count]");
    if (count)
      count.textContent =
        wanted === ""
          ? word(total === 1 ? "serviceOne" : "serviceMany", { n: total })
          : word(found === 1 ? "matchOne" : "matchMany", { found: found, total: total });
    var empty = document.querySelector("[data-service-empty]");
    if (empty) empty.hidden = found > 0;
  }

  // A domain just added or saved is marked in the list; the page comes back at its row (a boosted
  // page change starts at the top and loses the address's #fragment).
  function showLanded() {
    var landed = document.querySelector("[data-landed]");
    if (!landed) return;
    landed.removeAttribute("data-landed");
    // After htmx has brought a boosted page to its top (it does so once the swap settles).
    setTimeout(function () {
      landed.scrollIntoView({ block: "center" });
    }, 0);
  }

  // A schedule preset fills the cron field in place (its preview follows, as when typing) instead
  // of posting the form back, which is what it does without JavaScript.
  function choosePreset(event, button) {
    var input = button.form && button.form.querySelector('input[name="cron_schedule"]');
    if (!input) return;
    event.preventDefault();
    input.value = button.getAttribute("data-cron-preset");
    var all = button.form.querySelectorAll("[data-cron-preset]");
    for (var i = 0; i < all.length; i++) all[i].setAttribute("aria-pressed", all[i] === button ? "true" : "false");
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function showDomainSearch() {
    var field = document.querySelector("[data-domain-search-field]");
    if (field) field.hidden = false;
  }

  // The update keys' domains narrowed to the names holding what is typed; a ticked one stays shown.
  function filterDomainChoices(input) {
    var wanted = input.value.trim().toLowerCase();
    var items = document.querySelectorAll("[data-domain-choices] [data-search]");
    for (var i = 0; i < items.length; i++) {
      var box = items[i].querySelector("input");
      items[i].hidden = wanted !== "" && items[i].getAttribute("data-search").indexOf(wanted) === -1 && !box.checked;
    }
  }

  document.addEventListener("input", function (event) {
    if (event.target && event.target.hasAttribute && event.target.hasAttribute("data-service-search"))
      filterServices(event.target);
    if (event.target && event.target.hasAttribute && event.target.hasAttribute("data-domain-search"))
      filterDomainChoices(event.target);
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var menu = document.querySelector("details.nav-menu[open]");
    if (!menu) return;
    menu.open = false;
    menu.querySelector("summary").focus();
  });

  document.addEventListener("click", function (event) {
    var copy = event.target.closest && event.target.closest("[data-copy]");
    if (copy) return copyFrom(copy);
    var preset = event.target.closest && event.target.closest("[data-cron-preset]");
    if (preset) return choosePreset(event, preset);
    var toggle = event.target.closest && event.target.closest("[data-theme-toggle]");
    if (!toggle) return;
    var next = nextTheme();
    applyTheme(next);
    try {
      if (next === "system") localStorage.removeItem(THEME_KEY);
      else localStorage.setItem(THEME_KEY, next);
    } catch (e) {
      // Not remembered, but applied for this page.
    }
    showTheme();
  });

  document.addEventListener("DOMContentLoaded", function () {
    showDomainSearch();
    restoreUnsentForm();
    showTheme();
    showCopyButtons();
    refreshTimes();
    showLanded();
    setInterval(refreshTimes, 15000);
  });
})();
