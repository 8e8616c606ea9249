/* The figure editor's groups and edge labels in its bar (editor.js and editor_bar.js
   come first; annotations.js draws both on the canvas and drags them):
   - "Make a group" of the selected nodes: a new group (`groups:` in the spec) with a
     title key in the dictionary, its text a placeholder in the project's source
     language until it is typed; a node is in one group at most;
   - a selected group (a click on its title): its title in the bar like a node's text, its
     members each with a button that takes it out, a menu that adds a node; Delete
     removes the group, never its nodes;
   - a selected edge that names its ends: its label's text, or a button that gives it
     one; and a button that takes the label away.
   A title's or label's box (`title_box`, `label_box`) is its text's size in every
   language and both diagram styles, measured here as `figure layout` measures it
   (figures/sizes.py), and it grows as its text does. */
(function () {
  "use strict";
  var F = window.articlesiteFigureEditor, P = F.parts, Editor = P.Editor, make = P.make, T = P.T;
  var ID = P.ID, endName = P.endName;
  var STYLES = ["blog", "engineering"], SPARE = 4;

  /* A text in the project's source language (a placeholder until it is translated). */
  function sourceText(name, vars) {
    var all = F.strings || {}, text = (all[F.source] || {})[name] || T(name);
    return text.replace(/\{(\w+)\}/g, function (whole, k) { return vars && vars[k] !== undefined ? vars[k] : whole; });
  }

  /* The size of a title ("group-title") or an edge label ("edge-label") for the texts
     of `key`: the largest over the languages and styles, as sizes.py sizes it. */
  Editor.prototype.measureBox = function (kind, key) {
    var self = this, holder = make("div", "fe-copies", document.body), w = 0, h = 0;
    holder.setAttribute("aria-hidden", "true");
    var els = [];
    this.data.languages.forEach(function (lang) {
      var figure = make("figure", "figure", holder), canvas = make("div", "canvas", figure);
      canvas.lang = lang.lang;
      canvas.style.cssText = "position:relative;width:2000px;height:200px";
      var el = make("div", kind, canvas);
      el.style.cssText = "position:absolute;left:0;top:0;width:max-content;height:auto";
      window.articlesiteRichText.replace(el, self.text(key, lang.code) || "…", lang.lang);
      els.push([figure, el]);
    });
    STYLES.forEach(function (style) {
      els.forEach(function (pair) {
        pair[0].setAttribute("data-diagram-style", style);
        var r = pair[1].getBoundingClientRect();
        w = Math.max(w, r.width);
        h = Math.max(h, r.height);
      });
    });
    holder.remove();
    return [Math.ceil(w) + SPARE, Math.ceil(h)];
  };
  /* The box of a group's title or an edge's label, grown to hold its texts. */
  Editor.prototype.sizeText = function (item) {
    var group = item.list === "groups", name = group ? "title_box" : "label_box";
    var key = item.fields[group ? "title" : "label"];
    if (!key) return;
    var need = this.measureBox(group ? "group-title" : "edge-label", key), old = item.fields[name] || [0, 0];
    if (need[0] > old[0] || need[1] > old[1]) item.fields[name] = [Math.max(need[0], old[0]), Math.max(need[1], old[1])];
  };
  var typed = Editor.prototype.typed;
  Editor.prototype.typed = function (item, field, value) {
    typed.call(this, item, field, value);
    if (item.list === "groups" || item.list === "edges") { this.sizeText(item); this.rerouteAll(); }
  };

  /* A new key for a text, its placeholder in the source language. */
  Editor.prototype.newText = function (stem, placeholder) {
    var key = this.newKey(stem);
    this.texts[key] = {};
    this.texts[key][this.data.source] = placeholder;
    return key;
  };
  Editor.prototype.groupOf = function (id) {
    return this.model.groups.filter(function (g) { return g.fields.nodes.indexOf(id) >= 0; })[0] || null;
  };

  /* Groups --------------------------------------------------------------------------- */
  Editor.prototype.makeGroup = function () {
    var self = this, nodes = this.chosen().filter(function (i) { return i.list === "nodes"; });
    if (!nodes.length) return;
    var taken = nodes.filter(function (n) { return self.groupOf(n.fields.id); });
    if (taken.length) {
      this.say(T("group-refused", { ids: taken.map(function (n) { return n.fields.id; }).join(T("list-separator")),
                                    group: this.groupOf(taken[0].fields.id).fields.id }), true);
      return;
    }
    var used = this.model.groups.map(function (g) { return g.fields.id; }), n = 1;
    while (used.indexOf("group-" + n) >= 0) n++;
    var id = "group-" + n, title = this.newText(id + "-title", sourceText("group-placeholder", { n: n }));
    var item = { uid: "e" + this.uid++, list: "groups", origin: null,
                 fields: { id: id, title: title, nodes: nodes.map(function (node) { return node.fields.id; }) } };
    this.sizeText(item);
    this.model.groups.push(item);
    this.select([item.uid]);
    this.route();
    this.commit(T("group-made", { id: id, count: nodes.length }));
    var area = this.textRow.querySelector("textarea");
    if (area) { area.focus(); area.select(); }
  };

  Editor.prototype.setMembers = function (group, nodes, message) {
    group.fields.nodes = nodes;
    this.draw();
    this.showText();
    this.route();
    this.commit(message);
  };

  Editor.prototype.groupFields = function (group) {
    var self = this, row = this.textRow, input = this.field(T("field-id"), "input");
    input.className = "fe-id";
    input.value = group.fields.id;
    input.spellcheck = false;
    input.addEventListener("change", function () { self.renameGroup(group, input.value.trim()); });
    this.textFields(group, [["title", T("field-group-title")]]);
    var list = make("div", "fe-members", row), heading = make("span", "fe-note", list);
    heading.textContent = T("members") + " ";
    group.fields.nodes.forEach(function (id) {
      var button = make("button", "fe-member", list);
      button.type = "button";
      button.textContent = id + " ×";
      button.setAttribute("aria-label", T("member-remove", { id: id }));
      button.setAttribute("data-member", id);
      button.disabled = group.fields.nodes.length < 2;
      if (button.disabled) button.title = T("member-last");
      button.addEventListener("click", function () {
        self.setMembers(group, group.fields.nodes.filter(function (n) { return n !== id; }),
                        T("member-removed", { id: id, group: group.fields.id }));
      });
    });
    var free = this.model.nodes.filter(function (n) { return !self.groupOf(n.fields.id); });
    if (!free.length) return;
    var select = this.field(T("member-add"), "select");
    select.className = "fe-add-member";
    this.choices(select, [""].concat(free.map(function (n) { return n.fields.id; })),
                 [T("member-pick")].concat(free.map(function (n) { return n.fields.id; })));
    select.addEventListener("change", function () {
      if (!select.value) return;
      self.setMembers(group, group.fields.nodes.concat([select.value]),
                      T("member-added", { id: select.value, group: group.fields.id }));
    });
  };

  Editor.prototype.renameGroup = function (group, id) {
    var old = group.fields.id;
    if (id === old) return;
    var taken = this.model.groups.some(function (g) { return g !== group && g.fields.id === id; });
    var refused = !ID.test(id) ? T("id-refused", { id: id }) : taken ? T("group-id-taken", { id: id }) : "";
    if (refused) { this.say(refused, true); this.showText(); return; }
    group.fields.id = id;
    this.draw();
    this.showText();
    this.commit(T("renamed", { old: old, id: id }));
  };

  /* Edge labels ---------------------------------------------------------------------- */
  Editor.prototype.edgeLabelFields = function (edge) {
    var self = this, f = edge.fields;
    if (f.points) { make("span", "fe-note", this.textRow).textContent = T("label-needs-ends"); return; }
    if (f.label) this.textFields(edge, [["label", T("field-label")]]);
    var placed = edge.placed, on = f.label && placed && placed.points === (f.points || edge.shown) && placed.box[5];
    if (on) make("span", "fe-note fe-label-on-note", this.textRow).textContent =
      T("label-on", { what: T("grown-" + on[0], { id: on[1] }) });
    var button = make("button", "fe-edge-label", this.textRow);
    button.type = "button";
    button.setAttribute("data-action", f.label ? "remove-label" : "add-edge-label");
    button.textContent = T(f.label ? "button-remove-label" : "button-add-edge-label");
    button.addEventListener("click", function () { if (f.label) self.dropLabel(edge); else self.giveLabel(edge); });
  };
  Editor.prototype.giveLabel = function (edge) {
    var f = edge.fields, from = endName(f.from), to = endName(f.to);
    f.label = this.newText(from + "-" + to, sourceText("label-placeholder"));
    this.sizeText(edge);
    this.draw();
    this.showText();
    this.route();
    this.commit(T("label-added", { from: from, to: to }));
    var area = this.textRow.querySelector("textarea");
    if (area) { area.focus(); area.select(); }
  };
  Editor.prototype.dropLabel = function (edge) {
    var f = edge.fields;
    delete f.label;
    delete f.label_box;
    delete f.label_at;
    this.draw();
    this.showText();
    this.route();
    this.commit(T("label-removed", { from: endName(f.from), to: endName(f.to) }));
  };

  /* The keyboard: the arrow keys slide the selected edge's label along it (2% of its
     length a press, Shift 10%), as a drag does. */
  var SLIDE = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
  var key = Editor.prototype.key;
  Editor.prototype.key = function (e) {
    var edge = this.one(), tag = e.target.tagName;
    if (!edge || edge.list !== "edges" || !edge.fields.label || !SLIDE[e.key] || e.altKey ||
        e.ctrlKey || e.metaKey || tag === "TEXTAREA" || tag === "INPUT" || tag === "SELECT") return key.call(this, e);
    e.preventDefault();
    var at = edge.fields.label_at === undefined ? 0.5 : edge.fields.label_at;
    at = Math.max(0, Math.min(1, Math.round((at + SLIDE[e.key] * (e.shiftKey ? 0.1 : 0.02)) * 100) / 100));
    edge.fields.label_at = at;
    this.draw(false);
    this.commit(T("label-slid", { at: Math.round(at * 100) }));
    this.route();
  };

  /* The bar: "Make a group" beside the alignments; a selected group's or edge's fields. */
  var makeBar = Editor.prototype.makeBar;
  Editor.prototype.makeBar = function () {
    var self = this, bar = makeBar.call(this), button = make("button", "", bar.querySelector(".fe-arrange"));
    button.type = "button";
    button.textContent = T("button-make-group");
    button.setAttribute("data-action", "make-group");
    button.addEventListener("click", function () { self.makeGroup(); });
    this.updateBar();
    return bar;
  };
  var updateBar = Editor.prototype.updateBar;
  Editor.prototype.updateBar = function () {
    updateBar.call(this);
    var button = this.bar && this.bar.querySelector('[data-action="make-group"]');
    if (button) button.disabled = !this.chosen().some(function (i) { return i.list === "nodes"; });
  };
  var showText = Editor.prototype.showText;
  Editor.prototype.showText = function () {
    var item = this.one();
    if (item && item.list === "groups") {
      var row = this.textRow;
      while (row.firstChild) row.removeChild(row.firstChild);
      this.groupFields(item);
      return;
    }
    showText.call(this);
    if (item && item.list === "edges") this.edgeLabelFields(item);
    if (this.selection.length > 1) this.membersOfSelection();
  };
  /* A group selected with nodes (Shift+click): the bar adds them to it, or takes them out. */
  Editor.prototype.membersOfSelection = function () {
    var self = this, chosen = this.chosen();
    var groups = chosen.filter(function (i) { return i.list === "groups"; });
    var ids = chosen.filter(function (i) { return i.list === "nodes"; }).map(function (n) { return n.fields.id; });
    if (groups.length !== 1 || !ids.length) return;
    var group = groups[0], inside = ids.filter(function (id) { return group.fields.nodes.indexOf(id) >= 0; });
    var free = ids.filter(function (id) { return !self.groupOf(id); });
    [["members-add", free, function () { return group.fields.nodes.concat(free); }],
     ["members-remove", inside, function () {
       return group.fields.nodes.filter(function (id) { return inside.indexOf(id) < 0; });
     }]].forEach(function (how) {
      if (!how[1].length) return;
      var button = make("button", "", self.textRow), vars = { ids: how[1].join(T("list-separator")), group: group.fields.id };
      button.type = "button";
      button.setAttribute("data-action", how[0]);
      button.textContent = T("button-" + how[0], vars);
      button.disabled = how[0] === "members-remove" && inside.length === group.fields.nodes.length;
      button.addEventListener("click", function () {
        self.setMembers(group, how[2](), T(how[0] === "members-add" ? "member-added" : "member-removed",
                                           { id: vars.ids, group: vars.group }));
      });
    });
  };
})();
