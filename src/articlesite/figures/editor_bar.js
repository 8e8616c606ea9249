/* The figure editor's bar (see editor.js, which serve adds to a page before this file):
   the language menu and the buttons (add a node, a label, a divider or a lifeline;
   delete, undo, redo, save, close; align and space the selection), the message of the
   last operation, and the fields of the selected element (a node's id, texts, style and
   link; a label's text and style; an edge's style and arrow; the figure's title and
   caption), with what they do: renaming a node and its keys, adding and deleting. */
(function () {
  "use strict";
  var F = window.articlesiteFigureEditor, P = F.parts, Editor = P.Editor, make = P.make, T = P.T;
  var ID = P.ID, LISTS = P.LISTS, endName = P.endName, grid = P.grid;

  /* The bar: language, add, delete, undo, redo, save, close; align and space; the
     message of the last operation; the selected element's fields in the language shown. */
  var BUTTONS = ["add-node", "add-label", "add-divider", "add-lifeline", "delete", "undo", "redo", "save", "close"];
  var ARRANGE = ["align-left", "align-centre", "align-right", "align-top", "align-middle", "align-bottom",
                 "space-x", "space-y"];
  Editor.prototype.makeBar = function () {
    var self = this, bar = make("div", "fe-bar");
    bar.setAttribute("role", "toolbar");
    bar.setAttribute("aria-label", T("toolbar"));
    var row = make("div", "fe-row", bar), label = make("label", "", row);
    label.textContent = T("language") + " ";
    var select = make("select", "fe-language", label);
    this.data.languages.forEach(function (lang) {
      var option = make("option", "", select);
      option.value = lang.code;
      option.textContent = lang.name + " (" + lang.code + ")";
    });
    select.value = this.language;
    select.addEventListener("change", function () { self.language = select.value; self.draw(); self.showText(); });
    var actions = {
      "add-node": function () { self.addNode(); }, "add-label": function () { self.addLabel(); },
      "add-divider": function () { self.addRule("dividers"); }, "add-lifeline": function () { self.addRule("lifelines"); },
      "delete": function () { self.remove(); }, undo: function () { self.undo(); }, redo: function () { self.redo(); },
      save: function () { self.save(); }, close: function () { self.close(); },
      "space-x": function () { self.spread("x"); }, "space-y": function () { self.spread("y"); }
    };
    var arrange = make("div", "fe-row fe-arrange", bar);
    BUTTONS.concat(ARRANGE).forEach(function (name) {
      var button = make("button", "", ARRANGE.indexOf(name) >= 0 ? arrange : row);
      button.type = "button";
      button.textContent = T("button-" + name);
      button.setAttribute("data-action", name);
      button.addEventListener("click", actions[name] || function () { self.align(name.slice(6)); });
    });
    var said = make("div", "fe-row", bar);
    this.message = make("span", "fe-message", said);
    this.message.setAttribute("role", "status");
    this.message.setAttribute("aria-live", "polite");
    this.textRow = make("div", "fe-row fe-texts", bar);
    this.figure.querySelector(".figure-scroll").before(bar);
    this.bar = bar;
    this.showText();
    this.say(this.hint());
    return bar;
  };
  Editor.prototype.hint = function () {
    var note = this.data.transforms.length ? " " + T("transforms-note", { names: this.data.transforms.map(function (t) {
      return Object.keys(t)[0]; }).join(T("list-separator")) }) : "";
    return T("hint") + note;
  };

  Editor.prototype.updateBar = function () {
    if (!this.bar) return;
    var q = this.bar.querySelector.bind(this.bar), count = this.movable().length;
    q('[data-action="undo"]').disabled = this.history.length < 2;
    q('[data-action="redo"]').disabled = !this.future.length;
    q('[data-action="delete"]').disabled = !this.selection.length;
    q('[data-action="save"]').disabled = !this.dirty();
    ARRANGE.forEach(function (name) { q('[data-action="' + name + '"]').disabled = count < (name.indexOf("space") === 0 ? 3 : 2); });
  };

  Editor.prototype.say = function (text, refused) {
    this.message.textContent = text;
    this.message.classList.toggle("fe-refused", !!refused);
  };

  /* What an element is called in the bar's messages. */
  Editor.prototype.describe = function (items) {
    if (items.length !== 1) return T("what-many", { count: items.length });
    var item = items[0];
    return item.list === "nodes" ? T("what-node", { id: item.fields.id })
      : item.list === "groups" ? T("what-group", { id: item.fields.id }) : T("what-" + item.list);
  };

  /* The selected element's fields: a node's id, texts, style and link; a label's text
     and style; an edge's style, arrow and ends; with nothing selected, the figure's title
     and caption. */
  var STYLES = { nodes: ["soft", "accent"], edges: ["cache", "feedback"], labels: ["stage", "task-title", "math"] };
  Editor.prototype.showText = function () {
    var row = this.textRow, item = this.one();
    while (row.firstChild) row.removeChild(row.firstChild);
    if (this.selection.length > 1) { make("span", "fe-note", row).textContent = T("selected-many", { count: this.selection.length }); return; }
    if (!item) { this.textFields(this.head, [["title", T("field-title")], ["caption", T("field-caption")]]); return; }
    if (item.list === "dividers" || item.list === "lifelines") { make("span", "fe-note", row).textContent = T("rule-note"); return; }
    if (item.list === "nodes") this.idField(item);
    if (item.list !== "edges")
      this.textFields(item, item.list === "nodes" ? [["text", T("field-text")], ["sub", T("field-sub")]] : [["text", T("field-text")]]);
    this.styleField(item);
    if (item.list === "nodes") this.linkField(item);
    if (item.list === "edges") this.arrowField(item);
  };

  Editor.prototype.field = function (name, tag) {
    var label = make("label", "fe-style", this.textRow);
    label.textContent = name + " ";
    return make(tag, "", label);
  };
  Editor.prototype.choices = function (select, values, names) {
    values.forEach(function (value, i) {
      var option = make("option", "", select);
      option.value = value;
      option.textContent = names[i];
    });
  };

  Editor.prototype.idField = function (item) {
    var self = this, input = this.field(T("field-id"), "input");
    input.className = "fe-id";
    input.value = item.fields.id;
    input.spellcheck = false;
    input.addEventListener("change", function () { self.rename(item, input.value.trim()); });
  };

  Editor.prototype.styleField = function (item) {
    var self = this, select = this.field(T("field-style"), "select");
    // Each style by what it looks like in the page's language, and the class written in
    // the spec beside it.
    this.choices(select, [""].concat(STYLES[item.list]), [T("style-plain")].concat(
      STYLES[item.list].map(function (name) { return T("style-" + name) + " (" + name + ")"; })));
    select.value = item.fields["class"] || "";
    select.addEventListener("change", function () {
      if (select.value) item.fields["class"] = select.value;
      else delete item.fields["class"];
      self.draw();
      self.commit(T("styled", { what: self.describe([item]), style: select.value || T("style-plain") }));
    });
  };

  /* A node's link: one of the sections of the article the figure is on. */
  Editor.prototype.linkField = function (item) {
    var self = this, select = this.field(T("field-link"), "select"), found = sectionsOf(this.figure);
    var ids = found.map(function (s) { return s.id; }), link = item.fields.link;
    if (link && ids.indexOf(link) < 0) found.push({ id: link, text: link });
    this.choices(select, [""].concat(found.map(function (s) { return s.id; })),
                 [T("link-none")].concat(found.map(function (s) { return s.text + " (#" + s.id + ")"; })));
    select.value = link || "";
    select.addEventListener("change", function () {
      if (select.value) item.fields.link = select.value;
      else delete item.fields.link;
      self.commit(select.value ? T("linked", { what: self.describe([item]), section: select.value })
        : T("unlinked", { what: self.describe([item]) }));
    });
  };
  /* The article's sections: its headings with an id, but those of the page's template
     (its contents, its references: F.reserved), each named by its text without its
     number. */
  function sectionsOf(figure) {
    var root = figure.closest("article, main") || document.body, reserved = F.reserved || [];
    return [].filter.call(root.querySelectorAll("h2[id], h3[id], h4[id]"), function (h) {
      return ID.test(h.id) && reserved.indexOf(h.id) < 0 && !h.closest("figure");
    }).map(function (h) {
      var copy = h.cloneNode(true);
      copy.querySelectorAll(".secno, a").forEach(function (el) { el.remove(); });
      return { id: h.id, text: copy.textContent.trim() };
    });
  }

  Editor.prototype.arrowField = function (item) {
    var self = this, box = this.field(T("field-arrow"), "input");
    box.type = "checkbox";
    box.checked = item.fields.arrow !== false;
    box.addEventListener("change", function () {
      if (box.checked) delete item.fields.arrow;
      else item.fields.arrow = false;
      self.draw();
      self.commit(T(box.checked ? "arrow-on" : "arrow-off"));
    });
  };

  Editor.prototype.textFields = function (item, fields) {
    var self = this, row = this.textRow;
    fields.forEach(function (field) {
      var label = make("label", "", row), key = item.fields[field[0]];
      label.textContent = field[1] + " (" + self.language + ") ";
      var area = make("textarea", "fe-text", label);
      area.setAttribute("data-field", field[0]);
      area.rows = 2;
      area.lang = self.canvas.lang;
      area.value = key ? self.text(key) : "";
      if (key) area.placeholder = self.text(key, self.data.source);
      area.addEventListener("input", function () { self.typed(item, field[0], area.value); });
      area.addEventListener("change", function () { self.commit(T("text-edited", { what: field[1] })); });
    });
  };

  Editor.prototype.typed = function (item, field, value) {
    var key = item.fields[field];
    if (!key) {
      if (!value) return;
      key = item.fields[field] = this.newKey(item.fields.id + "-" + field);
    }
    (this.texts[key] = this.texts[key] || {})[this.language] = value;
    if (!value && field === "sub" && !Object.keys(this.loadedOf(key)).length) delete item.fields.sub;
    this.draw();
  };

  /* The texts of a key as loaded: a renamed key's are those of the key it was. */
  Editor.prototype.loadedOf = function (key) {
    var self = this, was = Object.keys(this.renames).filter(function (old) { return self.renames[old] === key; })[0];
    if (was) return this.loaded[was] || {};
    return this.renames[key] ? {} : this.loaded[key] || {};
  };
  Editor.prototype.isTaken = function (key) {
    var self = this, renamedAway = this.data.taken.indexOf(key) >= 0 && this.renames[key];
    return (this.data.taken.indexOf(key) >= 0 && !renamedAway) || key in this.texts ||
      Object.keys(this.renames).some(function (old) { return self.renames[old] === key; });
  };
  Editor.prototype.newKey = function (stem) {
    var key = this.id + "-" + stem, n = 2;
    while (this.isTaken(key)) key = this.id + "-" + stem + "-" + n++;
    return key;
  };

  /* Renaming a node: its edges follow; its keys FIGURE-ID and FIGURE-ID-… are renamed
     with it unless another figure uses them (they then keep their names). */
  Editor.prototype.rename = function (item, id) {
    var old = item.fields.id;
    if (id === old) return;
    var refused = !ID.test(id) ? T("id-refused", { id: id }) : this.nodeById(id) ? T("id-taken", { id: id }) : "";
    if (refused) { this.say(refused, true); this.showText(); return; }
    item.fields.id = id;
    this.model.edges.forEach(function (edge) {
      ["from", "to"].forEach(function (end) {
        var value = edge.fields[end];
        if (endName(value) === old) edge.fields[end] = id + value.slice(old.length);
      });
      (edge.ends || []).forEach(function (end) { if (end && end.node === old) end.node = id; });
    });
    this.model.groups.forEach(function (group) {
      group.fields.nodes = group.fields.nodes.map(function (n) { return n === old ? id : n; });
    });
    var kept = this.renameKeys(item, old, id);
    this.draw();
    this.showText();
    this.commit(T("renamed", { old: old, id: id }) + (kept.length ? " " + T("keys-kept", { keys: kept.join(T("list-separator")) }) : ""));
  };
  Editor.prototype.renameKeys = function (item, old, id) {
    var self = this, stem = this.id + "-" + old, kept = [];
    ["text", "sub"].forEach(function (field) {
      var key = item.fields[field];
      if (!key || (key !== stem && key.indexOf(stem + "-") !== 0)) return;
      var next = self.id + "-" + id + key.slice(stem.length);
      if (self.data.elsewhere.indexOf(key) >= 0 || self.isTaken(next)) { kept.push(key); return; }
      self.texts[next] = self.texts[key] || {};
      delete self.texts[key];
      item.fields[field] = next;
      var was = Object.keys(self.renames).filter(function (o) { return self.renames[o] === key; })[0];
      if (was) {
        if (was === next) delete self.renames[was];
        else self.renames[was] = next;
      } else if (self.data.taken.indexOf(key) >= 0) self.renames[key] = next;
    });
    return kept;
  };

  /* Adding: a node, a label, a divider or a lifeline, where there is room. */
  Editor.prototype.add = function (list, fields, message) {
    var item = { uid: "e" + this.uid++, list: list, origin: null, fields: fields };
    if (fields.text) this.texts[fields.text] = {};
    this.model[list].push(item);
    this.select([item.uid]);
    this.commit(message);
    var area = this.textRow.querySelector("textarea");
    if (area) area.focus();
    return item;
  };
  Editor.prototype.addNode = function () {
    var m = this.model, used = m.nodes.map(function (n) { return n.fields.id; }), n = 1;
    while (used.indexOf("node-" + n) >= 0) n++;
    var id = "node-" + n, w = 140, h = 60, spot = this.freeSpot(w, h);
    this.add("nodes", { id: id, box: [spot[0], spot[1], w, h], text: this.newKey(id) }, T("added-node", { id: id }));
  };
  Editor.prototype.addLabel = function () {
    var spot = this.freeSpot(120, 25);
    this.add("labels", { text: this.newKey("label"), box: [spot[0], spot[1], 120] }, T("added-label"));
  };
  Editor.prototype.addRule = function (list) {
    var across = list === "dividers", spot = across ? this.freeSpot(200, 10) : this.freeSpot(10, 120);
    var box = across ? [spot[0], spot[1] + 5, 200] : [spot[0] + 5, spot[1], 120];
    this.add(list, { box: box }, T(across ? "added-divider" : "added-lifeline"));
  };

  /* The first place on the grid, row by row, where a box of w × h keeps 10 px from
     everything; with none, the canvas grows at the bottom to make one. */
  Editor.prototype.freeSpot = function (w, h) {
    var self = this, m = this.model, others = [].concat(m.nodes, m.labels, m.dividers, m.lifelines).map(function (o) {
      var r = self.rect(o);
      return { x: r.x - 5, y: r.y - 5, w: r.w + 10, h: r.h + 10 };
    }).concat([].map.call(this.canvas.querySelectorAll(".figure-group"), function (el) {
      return { x: parseFloat(el.style.left), y: parseFloat(el.style.top),   // a group's frame
               w: parseFloat(el.style.width), h: parseFloat(el.style.height) };
    }).filter(function (r) { return !isNaN(r.x + r.y + r.w + r.h); }));
    for (var y = 10; y + h <= m.height; y += 10) {
      for (var x = 10; x + w <= m.width; x += 10) {
        var clear = others.every(function (o) {
          return x + w + 10 <= o.x || o.x + o.w + 10 <= x || y + h + 10 <= o.y || o.y + o.h + 10 <= y;
        });
        if (clear) return [x, y];
      }
    }
    var bottom = others.reduce(function (low, o) { return Math.max(low, o.y + o.h); }, 0);
    m.height = grid(Math.max(m.height, bottom + 20 + h + 10) + 2);
    return [10, grid(bottom + 20)];
  };

  /* Deleting the selected elements; a node's edges go with it. */
  Editor.prototype.remove = function () {
    var items = this.chosen(), m = this.model;
    if (!items.length) return;
    var ids = items.filter(function (i) { return i.list === "nodes"; }).map(function (i) { return i.fields.id; });
    var what = this.describe(items);
    LISTS.forEach(function (list) { m[list] = m[list].filter(function (o) { return items.indexOf(o) < 0; }); });
    m.edges = m.edges.filter(function (e) {
      var ends = e.ends || [];
      return ids.indexOf(endName(e.fields.from)) < 0 && ids.indexOf(endName(e.fields.to)) < 0 &&
        !ends.some(function (end) { return end && ids.indexOf(end.node) >= 0; });
    });
    /* A deleted node leaves its group; a group left with no node goes (a deleted group's
       nodes stay). */
    m.groups.forEach(function (g) {
      g.fields.nodes = g.fields.nodes.filter(function (n) { return ids.indexOf(n) < 0; });
    });
    m.groups = m.groups.filter(function (g) { return g.fields.nodes.length; });
    this.selection = [];
    this.draw();
    this.showText();
    this.commit(T("deleted", { what: what }));
  };

  Editor.prototype.select = function (uids) {
    this.selection = uids;
    this.draw();
    this.showText();
  };
})();
