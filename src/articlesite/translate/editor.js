/* The translator's view as an editor: added by `python build.py serve` to the view it
   serves (translate/editor.py), never to site/translations.html. Each text cell gets an
   Edit button; while typing, the cell's text and that language's copy of every figure
   showing the key are redrawn, and measured in both diagram styles (measure.js), and the
   cell says at once whether the text fits. Save sends the changed texts to the server,
   which writes only those values; Confirm records a translation as `translations
   confirm` does. While texts are unsaved or a request is on its way, the page does not reload
   itself after a rebuild (it does once they are saved). */
(function () {
  "use strict";
  var E = window.articlesiteEditor, edited = {}, original = {};
  var replace = window.articlesiteRichText.replace;

  function raw(key, language) {
    var entry = E.texts[key];
    return entry && typeof entry[language] === "string" ? entry[language] : "";
  }

  function holder(language) {
    return document.querySelector('.figure-copies > [data-language="' + CSS.escape(language) + '"]');
  }

  /* Redraw the key's text in the language's figure copies, measure them, and say in the
     cell whether the text fits. */
  function redraw(key, language, value) {
    var copies = holder(language);
    if (!copies) return;
    copies.querySelectorAll('[data-key="' + CSS.escape(key) + '"]').forEach(function (el) {
      replace(el, value);
    });
    var fit = document.querySelector('[data-fit="' + CSS.escape(key + "|" + language) + '"]');
    if (!fit || !window.articlesiteMeasure) return;
    if (!copies.querySelector('[data-key="' + CSS.escape(key) + '"]') && fit.closest("[data-searched]")) {
      fit.textContent = "fit not measured: open an article that shows it";
      return;
    }
    var result = window.articlesiteMeasure(copies), worst = {};
    result.findings.forEach(function (f) {
      if (f.keys.indexOf(key) < 0) return;
      var id = f.figure + "|" + f.element + "|" + (f.covered_by || "");
      if (!worst[id] || worst[id].px < f.px) worst[id] = f;
    });
    while (fit.firstChild) fit.removeChild(fit.firstChild);
    var found = Object.keys(worst).map(function (id) { return worst[id]; });
    var row = fit.closest("tr");
    if (!found.length) {
      var ok = fit.appendChild(document.createElement("span"));
      ok.className = "status fits";
      ok.textContent = "fits (both diagram styles)";
    }
    found.forEach(function (f) {
      var item = fit.appendChild(document.createElement("span"));
      item.className = "status overflowing";
      item.textContent = (f.covered_by ? "covered by node " + f.covered_by + " by " : "overflowing by ") +
        f.px + " px (" + f.figure + ", " + f.element + ", " + f.style + " style)";
    });
    if (found.length) row.setAttribute("data-problem", "");
    showPreview(copies, key, language, found);
  }

  /* The figures showing the key, in the language being edited, as they now look: a copy
     of the measured copies, in a panel at the bottom of the window. */
  var preview = document.createElement("section");
  preview.id = "editor-preview";
  preview.hidden = true;
  preview.setAttribute("aria-label", "Preview of the figures being edited");
  document.body.appendChild(preview);
  function showPreview(copies, key, language, found) {
    while (preview.firstChild) preview.removeChild(preview.firstChild);
    var head = preview.appendChild(document.createElement("p"));
    head.className = "preview-head";
    var close = head.appendChild(document.createElement("button"));
    close.type = "button";
    close.textContent = "Hide preview";
    close.addEventListener("click", function () { preview.hidden = true; });
    head.appendChild(document.createTextNode(" " + key + " (" + language + "): " +
      (found.length ? found.map(function (f) {
        return "overflowing by " + f.px + " px (" + f.element + ", " + f.style + " style)";
      }).join("; ") : "fits in both diagram styles")));
    head.classList.toggle("overflowing", found.length > 0);
    copies.querySelectorAll("[data-figure]").forEach(function (figure) {
      if (!figure.querySelector('[data-key="' + CSS.escape(key) + '"]')) return;
      var copy = figure.cloneNode(true);
      [copy].concat(Array.prototype.slice.call(copy.querySelectorAll("[id]"))).forEach(function (el) {
        el.removeAttribute("id");
        el.removeAttribute("aria-labelledby");
      });
      copy.querySelectorAll('[data-key="' + CSS.escape(key) + '"]').forEach(function (el) {
        (el.closest(".node, .figure-label") || el).classList.add("editing");
      });
      var wrap = preview.appendChild(document.createElement("div"));
      wrap.lang = copies.lang;
      wrap.appendChild(copy);
    });
    preview.hidden = false;
    document.body.style.paddingBottom = "50vh";   /* the table's last rows stay reachable */
    var target = preview.querySelector(".editing");
    if (target) {
      var at = target.getBoundingClientRect(), panel = preview.getBoundingClientRect();
      preview.scrollTop += at.top - panel.top - 60;
      preview.scrollLeft += at.left - panel.left - 60;
    }
  }

  /* The editor's bar: unsaved count, Save, and what the last action said. */
  var bar = document.createElement("div");
  bar.id = "editor-bar";
  bar.innerHTML = '<span id="editor-count"></span> <button type="button" id="editor-save" disabled>Save</button> ' +
    '<span id="editor-message" role="status" aria-live="polite"></span>';
  var main = document.querySelector("main");
  main.insertBefore(bar, main.firstChild);
  var style = document.createElement("style");
  style.textContent = "#editor-bar{position:sticky;top:0;z-index:6;display:flex;gap:10px;align-items:center;" +
    "flex-wrap:wrap;padding:8px 12px;margin:0 0 12px;background:var(--code);border:1px solid var(--line);" +
    "border-radius:6px;font-size:14px}#editor-message.refused{color:light-dark(#a3341b,#f0a08c);font-weight:600}" +
    ".edit-text{display:block;width:100%;min-height:3.2em;margin:.3em 0;font:inherit;font-size:14px;box-sizing:border-box}" +
    ".cell-actions button{font-size:12px;margin:.3em .4em 0 0}.status.fits{color:var(--accent);border-color:currentColor}" +
    "td.unsaved{outline:2px solid var(--accent);outline-offset:-2px}" +
    "#editor-preview{position:fixed;left:0;right:0;bottom:0;z-index:7;max-height:48vh;overflow:auto;" +
    "padding:6px 16px;background:var(--paper);border-top:2px solid var(--accent);box-shadow:0 -4px 12px rgba(0,0,0,.15)}" +
    "#editor-preview .preview-head{position:sticky;top:-6px;left:0;z-index:1;margin:0 0 6px;padding:4px 0;" +
    "background:var(--paper);font-size:14px}#editor-preview .preview-head.overflowing{color:light-dark(#a3341b,#f0a08c);font-weight:600}" +
    "#editor-preview .editing{outline:3px solid #d4572a;outline-offset:2px}";
  document.head.appendChild(style);
  var message = bar.querySelector("#editor-message"), saveButton = bar.querySelector("#editor-save");

  var SAID = "articlesite-editor-said";
  function say(text, refused, keep) {
    message.textContent = text;
    message.className = refused ? "refused" : "";
    /* A save or a confirmation is followed by a rebuild that reloads this page: what was
       said is said again after the reload. */
    try { if (keep) sessionStorage.setItem(SAID, text); } catch (e) {}
  }

  function count() {
    var n = Object.keys(edited).length;
    bar.querySelector("#editor-count").textContent = n ? n + " unsaved text" + (n > 1 ? "s" : "") :
      "Editor: no unsaved text";
    saveButton.disabled = !n;
  }

  var inFlight = 0;   /* requests sent and not answered: no reload meanwhile */
  function post(url, body) {
    var headers = { "Content-Type": "application/json" };
    headers[E.header] = E.token;
    inFlight++;
    return fetch(url, { method: "POST", headers: headers, body: JSON.stringify(body),
                        credentials: "same-origin" })
      .then(function (response) {
        return response.json().then(function (answer) { return { status: response.status, answer: answer }; });
      })
      .finally(function () { inFlight--; setTimeout(reloadIfDue, 0); });
  }

  function reloadIfDue() {
    var live = window.articlesiteLive;
    if (live && live.pending && !inFlight && !Object.keys(edited).length) location.reload();
  }

  function save() {
    var changes = Object.keys(edited).map(function (id) {
      var parts = id.split("|");
      return { key: parts[0], language: parts[1], text: edited[id] };
    });
    if (!changes.length) return;
    saveButton.disabled = true;
    say("Saving…");
    post(E.save, { base: E.base, changes: changes }).then(function (result) {
      if (result.status !== 200) {
        say(result.answer.message, true);
        count();
        return;
      }
      E.base = result.answer.base;
      changes.forEach(function (c) {
        (E.texts[c.key] = E.texts[c.key] || {})[c.language] = c.text;
        if (edited[c.key + "|" + c.language] === c.text) delete edited[c.key + "|" + c.language];
        var cell = document.querySelector('[data-text="' + CSS.escape(c.key + "|" + c.language) + '"]');
        if (cell) cell.closest("td").classList.remove("unsaved");
      });
      say(result.answer.message + " The site is being rebuilt; open pages reload.", false, true);
      count();
      reloadIfDue();
    }, function (error) {
      say("Not saved: " + error, true);
      count();
    });
  }
  saveButton.addEventListener("click", save);

  function confirmCell(key, language) {
    if (edited[key + "|" + language] !== undefined) {
      say("Save " + key + " (" + language + ") before confirming it.", true);
      return;
    }
    post(E.confirm, { base: E.base, key: key, language: language }).then(function (result) {
      say(result.answer.message, result.status !== 200, result.status === 200);
    }, function (error) { say("Not confirmed: " + error, true); });
  }

  /* What matches `selector` in these elements, each once and never twice over. */
  function within(roots, selector) {
    var found = [];
    roots.forEach(function (root) {
      root.querySelectorAll(selector).forEach(function (el) {
        if (el.hasAttribute("data-editable")) return;
        el.setAttribute("data-editable", "");
        found.push(el);
      });
    });
    return found;
  }

  /* Edit and Confirm buttons in these rows of texts and these tables of sections (the
     view loads them when an article or a figure is opened: view.js). */
  function wire(rows, sections) {
    within(rows, "[data-text]").forEach(function (text) {
      var id = text.getAttribute("data-text"), parts = id.split("|");
      var key = parts[0], language = parts[1], cell = text.closest("td");
      var actions = document.createElement("div");
      actions.className = "cell-actions";
      var edit = actions.appendChild(document.createElement("button"));
      edit.type = "button";
      edit.textContent = "Edit";
      edit.setAttribute("aria-label", "Edit " + key + " (" + language + ")");
      if (language !== E.source) {
        var confirm = actions.appendChild(document.createElement("button"));
        confirm.type = "button";
        confirm.textContent = "Confirm";
        confirm.setAttribute("aria-label", "Confirm " + key + " (" + language + ")");
        confirm.addEventListener("click", function () { confirmCell(key, language); });
      }
      text.after(actions);
      edit.addEventListener("click", function () {
        var area = cell.querySelector("textarea");
        if (area) { area.focus(); return; }
        area = document.createElement("textarea");
        area.className = "edit-text";
        area.lang = text.lang;
        area.setAttribute("data-edit", id);
        area.setAttribute("aria-label", key + " (" + language + ")");
        area.value = raw(key, language);
        original[id] = area.value;
        area.placeholder = raw(key, E.source);
        text.after(area);
        area.addEventListener("input", function () {
          if (area.value === original[id]) delete edited[id];
          else edited[id] = area.value;
          cell.classList.toggle("unsaved", edited[id] !== undefined);
          var shown = area.value || raw(key, E.source);
          replace(text, shown);
          redraw(key, language, shown);
          count();
        });
        redraw(key, language, area.value || raw(key, E.source));
        /* Keep the cell in sight above the preview panel. */
        var bottom = cell.getBoundingClientRect().bottom, room = window.innerHeight * 0.5;
        if (bottom > room) window.scrollBy(0, bottom - room + 12);
        area.focus();
      });
    });
    /* Each translated article section can be confirmed too. */
    within(sections, "[data-section]").forEach(function (cell) {
      var parts = cell.getAttribute("data-section").split("|");
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = "Confirm";
      button.setAttribute("aria-label", "Confirm " + parts[0] + " (" + parts[1] + ")");
      button.addEventListener("click", function () {
        post(E.confirm, { base: E.base, section: parts[0], language: parts[1] }).then(function (result) {
          say(result.answer.message, result.status !== 200, result.status === 200);
        }, function (error) { say("Not confirmed: " + error, true); });
      });
      var actions = cell.appendChild(document.createElement("div"));
      actions.className = "cell-actions";
      actions.appendChild(button);
    });
  }

  function setUp() {
    var live = window.articlesiteLive;
    if (live) live.hold = function () { return inFlight > 0 || Object.keys(edited).length > 0; };
    wire([document.getElementById("keys")], Array.prototype.slice.call(
      document.querySelectorAll("#sections table")));
    document.addEventListener("articlesite-view-opened", function (event) {
      wire(event.detail.rows, event.detail.sections);
    });
    count();
    var said = null;
    try { said = sessionStorage.getItem(SAID); sessionStorage.removeItem(SAID); } catch (e) {}
    say(said || "Edit any text: its figures are redrawn and measured while you type. Save " +
        "writes " + E.file + ".");
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
