/* The translator's view's index (translate/view.py): what a translator opens, an
   article or a figure, is loaded then from the view's files beside the page (scripts
   that call articlesiteView.add: a page opened from a file may load scripts, not read
   files). Its article's sections go into the sections, the rows of its figures' keys into
   the table of texts (each key once, in the dictionary's order), its figures are copied
   in every language and measured (measure.js). A view small enough opens everything at
   once; the articles opened are opened again after a reload (serve reloads the page
   after a save). The editor (editor.js, in serve) hears of each opening: the event
   "articlesite-view-opened". */
(function () {
  "use strict";
  var given = document.getElementById("view-index"), index = JSON.parse(given.textContent);
  var position = {}, data = {}, loading = {}, opened = {}, copied = {};
  index.keys.forEach(function (key, i) { position[key] = i; });
  var OPEN = "articlesite-view-open:" + location.pathname;
  var view = window.articlesiteView = {
    figures: index.figures,   /* the site's, measured once opened */
    add: function (name, value) { data[name] = value; },
    open: function (names) { return openAll(names); },
    openAll: function () { return openAll(index.groups); },
    opened: opened
  };

  /* One of the view's files, loaded once. */
  function load(name) {
    if (!loading[name]) {
      loading[name] = new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        script.src = index.folder + "/" + name + ".js";
        script.onload = function () {
          if (data[name]) resolve(data[name]);
          else reject(new Error(script.src + " holds nothing for the view"));
        };
        script.onerror = function () {
          delete loading[name];
          reject(new Error(script.src + " could not be loaded"));
        };
        document.head.appendChild(script);
      });
    }
    return loading[name];
  }

  /* Put `element` in `parent` among its children in their order (data-order). */
  function insertInOrder(parent, element, order) {
    element.setAttribute("data-order", order);
    var after = Array.prototype.find.call(parent.children, function (child) {
      return Number(child.getAttribute("data-order")) > order;
    });
    parent.insertBefore(element, after || null);
  }

  function parsed(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    return template.content.firstElementChild;
  }

  /* A group's file and the files of its keys' rows; then its sections and rows shown. */
  function fetchGroup(name) {
    return load(name).then(function (group) {
      var files = {};
      group.keys.forEach(function (key) { files["keys-" + Math.floor(position[key] / index.per)] = 1; });
      return Promise.all(Object.keys(files).map(load)).then(function (parts) {
        var rows = {};
        parts.forEach(function (part) { part.rows.forEach(function (row) { rows[row[0]] = row[1]; }); });
        return { name: name, group: group, rows: rows };
      });
    });
  }

  function show(found) {
    var tbody = document.querySelector("#keys tbody"), added = [], figures = [], tables = [];
    found.forEach(function (item) {
      var group = item.group, order = index.groups.indexOf(item.name);
      if (group.sections && !document.getElementById(item.name)) {
        tables.push(parsed(group.sections));
        insertInOrder(document.getElementById("sections"), tables[tables.length - 1], order);
      }
      group.keys.forEach(function (key) {
        var there = document.getElementById("key-" + key);
        if (there) { there.removeAttribute("data-searched"); return; }
        var row = parsed(item.rows[key]);
        insertInOrder(tbody, row, position[key]);
        added.push(row);
      });
      group.figures.forEach(function (figure) {
        if (!copied[figure[0]]) { copied[figure[0]] = true; figures.push(figure); }
      });
      opened[item.name] = true;
      var button = document.querySelector('[data-open="' + CSS.escape(item.name) + '"]');
      if (button) button.setAttribute("aria-expanded", "true");
    });
    remember();
    if (window.articlesiteFit) window.articlesiteFit(figures);
    document.dispatchEvent(new CustomEvent("articlesite-view-opened", { detail: { rows: added, sections: tables } }));
  }

  var said = document.getElementById("fit-summary"), busy = Promise.resolve();
  /* Open these groups (one opening after another: each shows what it loaded at once). */
  function openAll(names) {
    var opening = busy.then(function () {
      var wanted = names.filter(function (name) { return !opened[name]; });
      if (!wanted.length) return;
      said.textContent = "Loading " + wanted.length + (wanted.length > 1 ? " articles or figures…" : " article or figure…");
      return Promise.all(wanted.map(fetchGroup)).then(show, function (error) {
        said.textContent = "Not loaded: " + error.message + ". Reload the page.";
        throw error;
      });
    });
    busy = opening.catch(function () {});
    return opening;
  }

  function remember() {
    try { sessionStorage.setItem(OPEN, JSON.stringify(Object.keys(opened))); } catch (e) {}
  }

  document.querySelectorAll("[data-open]").forEach(function (button) {
    button.addEventListener("click", function () {
      var name = button.getAttribute("data-open");
      openAll([name]).then(function () {
        var target = name.indexOf("article-") === 0 ? document.getElementById(name) : null;
        (target || document.getElementById("figure-texts")).scrollIntoView();
      }, function () {});
    });
  });

  /* Find: every key's row is loaded (the files of rows, once, on the first search) and
     the table shows those whose key or text in any language holds what was asked, the
     articles opened or not; an empty search shows the rows of what is opened again. */
  var find = document.getElementById("find"), rowsLoaded = {};
  function allRows() {
    var files = [];
    for (var i = 0; i * index.per < index.keys.length; i++) files.push("keys-" + i);
    return Promise.all(files.map(load)).then(function (parts) {
      parts.forEach(function (part) { part.rows.forEach(function (row) { rowsLoaded[row[0]] = row[1]; }); });
    });
  }
  function findText(asked) {
    var said = document.getElementById("find-said"), tbody = document.querySelector("#keys tbody");
    document.querySelectorAll("#keys [data-found]").forEach(function (row) { row.removeAttribute("data-found"); });
    document.body.classList.toggle("finding", !!asked);
    if (!asked) { said.textContent = ""; return Promise.resolve(); }
    said.textContent = "Searching…";
    return allRows().then(function () {
      var wanted = asked.toLowerCase(), found = [], added = [];
      index.keys.forEach(function (key) {
        var row = document.getElementById("key-" + key) || parsed(rowsLoaded[key]);
        var texts = Array.prototype.map.call(row.querySelectorAll("[data-text]"), function (el) { return el.textContent; });
        if ((key + "\n" + texts.join("\n")).toLowerCase().replace(/\u200b/g, "").indexOf(wanted) < 0) return;
        if (!row.isConnected) {
          row.setAttribute("data-searched", "");   /* (shown while searching, or once opened) */
          insertInOrder(tbody, row, position[key]);
          added.push(row);
        }
        row.setAttribute("data-found", "");
        found.push(row);
      });
      said.textContent = found.length + (found.length === 1 ? " key holds " : " keys hold ") + "“" + asked + "”" +
        (found.length ? ": shown below, measured where their articles are open." : ".");
      if (added.length) document.dispatchEvent(new CustomEvent("articlesite-view-opened", { detail: { rows: added, sections: [] } }));
    }, function (error) { said.textContent = "Not searched: " + error.message; });
  }
  find.hidden = false;
  find.addEventListener("submit", function (event) {
    event.preventDefault();
    findText(document.getElementById("find-text").value.trim());
  });

  var again = [];
  try { again = JSON.parse(sessionStorage.getItem(OPEN) || "[]"); } catch (e) {}
  again = again.filter(function (name) { return index.groups.indexOf(name) >= 0; });
  if (index.size <= Number(given.getAttribute("data-open-all") || 0)) again = index.groups;
  said.textContent = "Open an article or a figure above: its texts are measured in this browser " +
    "as they load.";
  if (again.length) openAll(again).catch(function () {});
})();
