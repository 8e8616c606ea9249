/* The figure editor: added by `python build.py serve` to the pages it serves
   (figures/editor.py), never to site/. Each figure gets a button "Edit figure" that turns
   it into an editor in place. The figure is then drawn from its spec's own coordinates
   (its transforms, if any, are left out while editing, and applied again by the build).
   Nodes, labels, dividers and lifelines move by dragging (pointer events: mouse, pen and
   touch) and with the arrow keys (1 px, Shift 10 px), snapping to a 5 px grid and to the
   other boxes (edges, centres, equal gaps); they resize by their handles; several
   selected (Shift+click, a band drawn on the empty canvas) move, align and space
   together. An edge's ends are dragged to another node or side. The edges attached to
   what moves are routed again by the build's router, on the server, as it moves. Every
   operation is one step of undo, and the bar says what it did, in the page's language
   (the theme's editor-* strings). The bar itself is editor_bar.js. Every box says
   whether its text fits in every language and both diagram styles (measure.js, on a copy
   of the figure per language). Save writes the spec and the dictionary through the
   server, which refuses a save when either file changed on disk since the editor loaded
   it; the page then keeps every edit. */
(function () {
  "use strict";
  var F = window.articlesiteFigureEditor, RT = window.articlesiteRichText;
  var GRID = 5, NEAR = 6, SIDES = ["top", "right", "bottom", "left"];
  var REOPEN = "articlesite-figure-reopen";
  var stats = F.stats = { routes: [] };
  var current = null;   /* the figure being edited: one at a time */
  var ID = /^[a-z0-9][a-z0-9-]*$/;
  var LISTS = ["nodes", "edges", "labels", "dividers", "lifelines", "groups"];

  /* The editor's interface strings (the theme's `editor-` strings, which a project's
     templates/strings.yaml overrides), in the page's language, else the source
     language's; `{name}` in a string is replaced by vars.name. */
  var CODE = (function () {
    var lang = document.documentElement.getAttribute("lang") || "", codes = F.codes || {};
    return codes[lang] || (F.strings && F.strings[lang] ? lang : F.source);
  })();
  /* A string with its {placeholders} filled. A value that ends (or starts) with a Latin
     letter or digit next to a Chinese or Japanese character of the string gets a space
     between them, as the strings write their own: "ノード env を移動しました", where
     the string is "{what}を移動しました" and `what` "ノード env". */
  var CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/, LATIN = /[A-Za-z0-9]/;
  function T(name, vars) {
    var all = F.strings || {}, text = (all[CODE] || {})[name] || (all[F.source] || {})[name] || name;
    return text.replace(/\{(\w+)\}/g, function (whole, key, at) {
      if (!vars || vars[key] === undefined) return whole;
      var value = String(vars[key]), before = text.charAt(at - 1), after = text.charAt(at + whole.length);
      if (LATIN.test(value.charAt(0)) && CJK.test(before)) value = " " + value;
      if (LATIN.test(value.charAt(value.length - 1)) && CJK.test(after)) value += " ";
      return value;
    });
  }

  /* What serve answered, in the page's language: its message key (`editor-server-KEY`)
     with its arguments, the build's own messages (`problems`) after it; the server's
     English message only for a key the strings lack. */
  function told(answer) {
    if (!answer || !answer.key) return (answer && answer.message) || "";
    var name = "server-" + answer.key, text = T(name, answer.args || {});
    if (text === name) return answer.message;
    if (answer.problems && answer.problems.length) text += " " + answer.problems.join("; ");
    return text;
  }

  function post(action, body) {
    var headers = { "Content-Type": "application/json" };
    headers[F.header] = F.token;
    return fetch(F.prefix + action, { method: "POST", headers: headers, body: JSON.stringify(body),
                                      credentials: "same-origin" })
      .then(function (response) {
        return response.json().then(function (answer) { return { status: response.status, answer: answer }; });
      });
  }
  function make(tag, className, parent) {
    var el = document.createElement(tag);
    if (className) el.className = className;
    if (parent) parent.appendChild(el);
    return el;
  }
  function copy(value) { return JSON.parse(JSON.stringify(value)); }
  function px(value) { return Math.round(value * 100) / 100 + "px"; }
  function grid(value) { return Math.round(value / GRID) * GRID; }

  /* Geometry ------------------------------------------------------------------------- */
  function sideOf(box, point) {
    var x = box[0], y = box[1], w = box[2], h = box[3], e = 1.5;
    var inX = point[0] >= x - e && point[0] <= x + w + e, inY = point[1] >= y - e && point[1] <= y + h + e;
    if (inY && Math.abs(point[0] - x) <= e) return "left";
    if (inY && Math.abs(point[0] - x - w) <= e) return "right";
    if (inX && Math.abs(point[1] - y) <= e) return "top";
    if (inX && Math.abs(point[1] - y - h) <= e) return "bottom";
    return null;
  }
  function nearestSide(box, point) {
    var d = { left: Math.abs(point[0] - box[0]), right: Math.abs(point[0] - box[0] - box[2]),
              top: Math.abs(point[1] - box[1]), bottom: Math.abs(point[1] - box[1] - box[3]) };
    return SIDES.reduce(function (best, side) { return d[side] < d[best] ? side : best; }, "top");
  }
  function sidePoint(box, side, t) {
    if (side === "left" || side === "right")
      return [side === "left" ? box[0] : box[0] + box[2], box[1] + t * box[3]];
    return [box[0] + t * box[2], side === "top" ? box[1] : box[1] + box[3]];
  }
  function along(box, side, point) {
    var t = side === "left" || side === "right" ? (point[1] - box[1]) / box[3] : (point[0] - box[0]) / box[2];
    return Math.max(0, Math.min(1, t));
  }
  function endName(end) { return typeof end === "string" ? end.split(".")[0] : null; }

  /* The editor of one figure ----------------------------------------------------------- */
  function Editor(figure, data) {
    this.figure = figure;
    this.id = data.figure;
    this.canvas = figure.querySelector(".canvas");
    this.data = data;
    this.loaded = copy(data.texts);
    this.texts = copy(data.texts);
    this.language = this.pageLanguage();
    this.selection = [];   /* the uids of the selected elements, the last one clicked last */
    this.renames = {};     /* dictionary keys renamed: the key loaded -> its new name */
    this.uid = 0;
    this.els = {};
    this.model = this.modelOf(data.spec);
    this.head = { list: "figure", fields: { title: data.title, caption: data.caption } };
    this.history = [{ state: this.snapshot(), message: "" }];
    this.future = [];
    this.routing = { busy: false, again: false, since: null };
    this.build();
  }

  Editor.prototype.pageLanguage = function () {
    var lang = (this.figure.closest("[lang]") || document.documentElement).getAttribute("lang") || "";
    var found = this.data.languages.filter(function (l) { return l.lang === lang || l.code === lang; })[0];
    return found ? found.code : this.data.source;
  };

  Editor.prototype.modelOf = function (spec) {
    var self = this, model = { width: spec.width, height: spec.height };
    LISTS.forEach(function (list) {
      model[list] = (spec[list] || []).map(function (fields, i) {
        return { uid: "e" + self.uid++, list: list, origin: i, fields: copy(fields) };
      });
    });
    model.edges.forEach(function (edge) { self.attach(edge, model); });
    return model;
  };

  /* Where an edge written as points meets the nodes: its ends, each on a node's side. */
  Editor.prototype.attach = function (edge, model) {
    var points = edge.fields.points;
    edge.ends = [null, null];
    if (!points) return;
    [0, points.length - 1].forEach(function (at, end) {
      model.nodes.forEach(function (node) {
        var side = sideOf(node.fields.box, points[at]);
        if (side && !edge.ends[end])
          edge.ends[end] = { node: node.fields.id, side: side, t: along(node.fields.box, side, points[at]) };
      });
    });
  };

  Editor.prototype.all = function () {
    var m = this.model;
    return [].concat(m.nodes, m.labels, m.dividers, m.lifelines, m.edges, m.groups);
  };
  /* The selected elements, in the order they were selected; the one selected alone. */
  Editor.prototype.chosen = function () {
    var self = this;
    return this.selection.map(function (uid) { return self.find(uid); }).filter(Boolean);
  };
  Editor.prototype.one = function () {
    return this.selection.length === 1 ? this.find(this.selection[0]) : null;
  };
  Editor.prototype.isSelected = function (item) { return this.selection.indexOf(item.uid) >= 0; };
  Editor.prototype.find = function (uid) {
    return this.all().filter(function (item) { return item.uid === uid; })[0] || null;
  };
  Editor.prototype.nodeById = function (id) {
    return this.model.nodes.filter(function (node) { return node.fields.id === id; })[0] || null;
  };

  /* The box an element takes on the canvas: [x, y, w, h] (a label's height as drawn). */
  Editor.prototype.rect = function (item) {
    var b = item.fields.box;
    if (item.list === "nodes") return { x: b[0], y: b[1], w: b[2], h: b[3] };
    if (item.list === "labels") return { x: b[0], y: b[1], w: b[2], h: this.els[item.uid] ? this.els[item.uid].offsetHeight : 20 };
    if (item.list === "dividers") return { x: b[0], y: b[1], w: b[2], h: 1 };
    return { x: b[0], y: b[1], w: 1, h: b[2] };
  };

  /* Building and drawing ----------------------------------------------------------- */
  Editor.prototype.build = function () {
    var self = this, canvas = this.canvas;
    this.figure.classList.add("fe-on");
    var toggle = this.figure.querySelector(".fit-toggle");
    if (toggle) toggle.checked = false;
    canvas.querySelectorAll(".edge").forEach(function (el) { el.remove(); });
    /* The canvas takes the focus: Tab then goes through its elements (see key). */
    canvas.tabIndex = 0;
    canvas.setAttribute("role", "group");
    canvas.setAttribute("aria-label", T("canvas-label"));
    var labels = canvas.querySelectorAll(".figure-label"), dividers = canvas.querySelectorAll(".figure-divider");
    var lifelines = canvas.querySelectorAll(".figure-lifeline");
    this.model.nodes.forEach(function (node) {
      self.els[node.uid] = canvas.querySelector('[data-node="' + CSS.escape(node.fields.id) + '"]');
    });
    this.model.labels.forEach(function (label, i) { self.els[label.uid] = labels[i]; });
    this.model.dividers.forEach(function (rule, i) { self.els[rule.uid] = dividers[i]; });
    this.model.lifelines.forEach(function (rule, i) { self.els[rule.uid] = lifelines[i]; });
    this.edgeLayer = make("div", "fe-layer fe-edges", canvas);
    this.overlay = make("div", "fe-layer fe-overlay", canvas);
    this.badges = make("div", "fe-layer fe-badges", canvas);
    this.copies = make("div", "fe-copies", document.body);
    this.copies.setAttribute("aria-hidden", "true");
    this.bar = this.makeBar();
    this.listen();
    this.draw();
    this.route();
  };

  Editor.prototype.elementFor = function (item) {
    var el = this.els[item.uid];
    if (el && el.isConnected) return el;
    if (item.list === "nodes") {
      el = make("div", "node");
      make("strong", "", el);
    } else if (item.list === "labels") el = make("div", "label figure-label");
    else el = make("span", item.list === "dividers" ? "figure-divider" : "figure-lifeline");
    this.canvas.insertBefore(el, this.edgeLayer);
    return (this.els[item.uid] = el);
  };

  Editor.prototype.text = function (key, language) {
    var entry = this.texts[key] || {};
    return entry[language || this.language] || "";
  };

  Editor.prototype.fillNode = function (el, node, language) {
    var f = node.fields, strong = el.querySelector("strong") || make("strong", "", el);
    var sub = el.querySelector(".sub");
    el.className = "node" + (f["class"] ? " " + f["class"] : "");
    el.setAttribute("data-node", f.id);
    RT.replace(strong, this.text(f.text, language) || "…");
    if (f.sub) {
      sub = sub || make("span", "sub", el);
      RT.replace(sub, this.text(f.sub, language) || "…");
    } else if (sub) sub.remove();
  };

  Editor.prototype.fillLabel = function (el, label, language) {
    var cls = label.fields["class"];
    el.className = "label figure-label" + (cls && cls !== "math" ? " " + cls : "") + (cls === "math" ? " math-label" : "");
    RT.replace(el, this.text(label.fields.text, language) || "…");
  };

  Editor.prototype.place = function (el, item) {
    var b = item.fields.box;
    el.style.left = px(b[0]);
    el.style.top = px(b[1]);
    if (item.list === "lifelines") el.style.height = px(b[2]);
    else el.style.width = px(b[2]);
    if (item.list === "nodes") el.style.height = px(b[3]);
  };

  /* Draw the model: every box placed; their texts filled again only when texts, the
     language or the elements changed (`refill`), not on every move of a drag. */
  Editor.prototype.draw = function (refill) {
    var self = this, m = this.model, live = {};
    this.canvas.style.width = px(m.width);
    this.canvas.style.height = px(m.height);
    this.canvas.style.setProperty("--canvas-width", px(m.width));
    this.figure.style.setProperty("--fe-canvas-width", px(m.width));
    var lang = this.data.languages.filter(function (l) { return l.code === self.language; })[0];
    this.canvas.lang = lang ? lang.lang : "";
    [m.nodes, m.labels, m.dividers, m.lifelines].forEach(function (items) {
      items.forEach(function (item) {
        var fresh = !self.els[item.uid] || !self.els[item.uid].isConnected, el = self.elementFor(item);
        live[item.uid] = true;
        if ((refill !== false || fresh) && item.list === "nodes") self.fillNode(el, item);
        if ((refill !== false || fresh) && item.list === "labels") self.fillLabel(el, item);
        self.place(el, item);
        el.classList.toggle("fe-selected", self.isSelected(item));
      });
    });
    Object.keys(this.els).forEach(function (uid) {
      if (!live[uid] && self.els[uid]) { self.els[uid].remove(); delete self.els[uid]; }
    });
    var over = this.overlaps();
    m.nodes.forEach(function (node) {
      if (self.els[node.uid]) self.els[node.uid].classList.toggle("fe-overlap", !!over[node.uid]);
    });
    if (refill !== false) this.fillHead();
    this.drawEdges();
    this.drawHandles();
    if (refill !== false || !this.drag || this.drag.kind !== "move") this.scheduleFit();
    else this.drawBadges();
    this.updateBar();
  };

  /* Nodes whose boxes overlap (as `check` finds them: a problem): uid -> the ids of the
     nodes it overlaps. */
  Editor.prototype.overlaps = function () {
    var nodes = this.model.nodes, found = {};
    nodes.forEach(function (a, i) {
      nodes.slice(i + 1).forEach(function (b) {
        var p = a.fields.box, q = b.fields.box;
        if (p[0] < q[0] + q[2] && q[0] < p[0] + p[2] && p[1] < q[1] + q[3] && q[1] < p[1] + p[3]) {
          (found[a.uid] = found[a.uid] || []).push(b.fields.id);
          (found[b.uid] = found[b.uid] || []).push(a.fields.id);
        }
      });
    });
    return found;
  };

  Editor.prototype.fillHead = function () {
    var heading = this.figure.querySelector(".figure-heading"), caption = this.figure.querySelector("figcaption");
    if (heading) RT.replace(heading, this.text(this.head.fields.title) || "…");
    if (caption) RT.replace(caption, this.text(this.head.fields.caption) || "…");
  };

  Editor.prototype.drawEdges = function () {
    var self = this, layer = this.edgeLayer;
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    this.model.edges.forEach(function (edge) {
      var points = edge.fields.points || edge.shown;
      if (!points) return;
      for (var i = 0; i + 1 < points.length; i++) {
        var a = points[i], b = points[i + 1], seg = make("span", "edge", layer);
        if (edge.fields["class"]) seg.classList.add(edge.fields["class"]);
        if (i === points.length - 2 && edge.fields.arrow !== false) seg.classList.add("arrow");
        if (self.isSelected(edge)) seg.classList.add("fe-selected");
        if (edge.problem) seg.classList.add("fe-problem");
        seg.setAttribute("data-edge", edge.uid);
        seg.style.left = px(a[0]);
        seg.style.top = px(a[1]);
        seg.style.width = px(Math.hypot(b[0] - a[0], b[1] - a[1]));
        seg.style.transform = "rotate(" + Math.round(Math.atan2(b[1] - a[1], b[0] - a[0]) * 180 / Math.PI * 100) / 100 + "deg)";
      }
    });
  };

  /* Resize handles around the selected node, label, divider or lifeline; on a node, the
     ports an edge is drawn from (one per side); on an edge, a handle at each end, dragged
     to another node or side. */
  var HANDLES = { nodes: ["nw", "n", "ne", "e", "se", "s", "sw", "w"], labels: ["w", "e"],
                  dividers: ["w", "e"], lifelines: ["n", "s"] };
  Editor.prototype.drawHandles = function () {
    var overlay = this.overlay, item = this.one();
    overlay.querySelectorAll(".fe-handle, .fe-port").forEach(function (el) { el.remove(); });
    /* The canvas's own handle, at its bottom right corner: its width and height. */
    var corner = make("span", "fe-handle fe-canvas-handle", overlay);
    corner.setAttribute("data-handle", "canvas");
    corner.title = T("canvas-handle");
    corner.style.left = px(this.model.width);
    corner.style.top = px(this.model.height);
    if (item && item.list === "edges") { this.drawEnds(item); return; }
    if (!item || !item.fields.box) return;   /* a group: its title moves it */
    var r = this.rect(item);
    HANDLES[item.list].forEach(function (name) {
      var h = make("span", "fe-handle", overlay);
      h.setAttribute("data-handle", name);
      h.style.left = px(r.x + (name.indexOf("w") >= 0 ? 0 : name.indexOf("e") >= 0 ? r.w : r.w / 2));
      h.style.top = px(r.y + (name.indexOf("n") >= 0 ? 0 : name.indexOf("s") >= 0 ? r.h : r.h / 2));
      h.style.cursor = name + "-resize";
    });
    if (item.list !== "nodes") return;
    SIDES.forEach(function (side) {
      var p = sidePoint(item.fields.box, side, 0.5), dx = { left: -14, right: 14 }[side] || 0;
      var dy = { top: -14, bottom: 14 }[side] || 0, port = make("span", "fe-port", overlay);
      port.setAttribute("data-port", side);
      port.title = T("port-hint");
      port.style.left = px(p[0] + dx);
      port.style.top = px(p[1] + dy);
    });
  };
  Editor.prototype.drawEnds = function (edge) {
    var points = edge.fields.points || edge.shown, overlay = this.overlay;
    if (!points) return;
    [0, 1].forEach(function (end) {
      var p = points[end ? points.length - 1 : 0], h = make("span", "fe-handle fe-end", overlay);
      h.setAttribute("data-end", String(end));
      h.title = T("end-hint");
      h.style.left = px(p[0]);
      h.style.top = px(p[1]);
    });
  };

  /* History: every operation is one step, made by commit(message) once it is done; the
     bar then says that message, and only until the next operation. --------------------- */
  function unrouted(key, value) {
    return key === "shown" || key === "problem" || key === "placed" ? undefined : value;
  }
  Editor.prototype.snapshot = function () {
    var m = this.model;
    return JSON.stringify({ model: { width: m.width, height: m.height, nodes: m.nodes, edges: m.edges,
                                     labels: m.labels, dividers: m.dividers, lifelines: m.lifelines,
                                     groups: m.groups },
                            texts: this.texts, renames: this.renames }, unrouted);
  };
  Editor.prototype.commit = function (message) {
    var now = this.snapshot(), over = this.overlaps(), self = this;
    this.selection.forEach(function (uid) {   /* a box just put on another: said at once */
      var item = self.find(uid);
      if (item && over[uid] && message) message += " " + T("overlap", { id: item.fields.id, other: over[uid][0] });
    });
    this.say(message || "");
    if (now === this.history[this.history.length - 1].state) return;
    this.history.push({ state: now, message: message || "", selection: this.selection.slice() });
    this.future = [];
    this.updateBar();
  };
  Editor.prototype.restore = function (entry) {
    var s = JSON.parse(entry.state), shown = {};
    this.model.edges.forEach(function (edge) { shown[edge.uid] = edge.shown; });
    this.model = s.model;
    this.model.edges.forEach(function (edge) { if (shown[edge.uid]) edge.shown = shown[edge.uid]; });
    this.texts = s.texts;
    this.renames = s.renames;
    var self = this;
    this.selection = (entry.selection || []).filter(function (uid) { return self.find(uid); });
    this.draw();
    this.route();
    this.showText();
  };
  /* An operation under way (a drag, a text being typed) ends before an undo or a redo. */
  Editor.prototype.settle = function () {
    if (this.drag) this.up({ clientX: 0, clientY: 0, cancel: true });
    var typing = this.textRow && this.textRow.querySelector(":focus");
    if (typing) typing.blur();
  };
  Editor.prototype.undo = function () {
    this.settle();
    if (this.history.length < 2) return;
    var undone = this.history.pop();
    this.future.push(undone);
    this.restore(this.history[this.history.length - 1]);
    this.say(T("undone", { what: undone.message || T("a-change") }));
    this.updateBar();
  };
  Editor.prototype.redo = function () {
    this.settle();
    if (!this.future.length) return;
    var redone = this.future.pop();
    this.history.push(redone);
    this.restore(redone);
    this.say(T("redone", { what: redone.message || T("a-change") }));
    this.updateBar();
  };
  Editor.prototype.dirty = function () { return this.snapshot() !== this.history[0].state; };

  /* Moving, with snapping ------------------------------------------------------------ */
  /* The boxes of the nodes and labels but `item` (or but the items of a list). */
  Editor.prototype.others = function (item) {
    var self = this, but = [].concat(item || []);
    return [].concat(this.model.nodes, this.model.labels).filter(function (o) { return but.indexOf(o) < 0; })
      .map(function (o) { return self.rect(o); });
  };

  /* The snapped position of one axis: to another box's edge or centre within NEAR px,
     to the middle of the gap between its two neighbours, or else to the grid. */
  function snapAxis(start, size, lo, hi, others, horizontal) {
    var best = null, mine = [start, start + size / 2, start + size];
    function pos(o) { return horizontal ? o.x : o.y; }
    function len(o) { return horizontal ? o.w : o.h; }
    function across(o) { return horizontal ? [o.y, o.y + o.h] : [o.x, o.x + o.w]; }
    others.forEach(function (o) {
      [pos(o), pos(o) + len(o) / 2, pos(o) + len(o)].forEach(function (theirs) {
        mine.forEach(function (m) {
          var d = theirs - m;
          if (Math.abs(d) <= NEAR && (!best || Math.abs(d) < Math.abs(best.d)))
            best = { d: d, at: theirs, box: o, kind: "align" };
        });
      });
    });
    var band = others.filter(function (o) { var a = across(o); return a[1] > lo && a[0] < hi; });
    var before = band.filter(function (o) { return pos(o) + len(o) <= start + size / 2; })
      .sort(function (a, b) { return pos(b) + len(b) - pos(a) - len(a); })[0];
    var after = band.filter(function (o) { return pos(o) >= start + size / 2; })
      .sort(function (a, b) { return pos(a) - pos(b); })[0];
    if (before && after) {
      var middle = (pos(before) + len(before) + pos(after) - size) / 2, d = middle - start;
      if (Math.abs(d) <= NEAR && (!best || Math.abs(d) < Math.abs(best.d)))
        best = { d: d, kind: "gap", before: before, after: after, gap: pos(after) - middle - size };
    }
    if (best) return { value: start + best.d, guide: best };
    return { value: grid(start), guide: null };
  }

  Editor.prototype.moveTo = function (item, x, y, snap) {
    var r = this.rect(item), guides = [], others = this.others(item), m = this.model;
    if (snap) {
      var sx = snapAxis(x, r.w, y, y + r.h, others, true);
      var sy = snapAxis(y, r.h, sx.value, sx.value + r.w, others, false);
      x = sx.value;
      y = sy.value;
      if (sx.guide) guides.push({ axis: "x", g: sx.guide });
      if (sy.guide) guides.push({ axis: "y", g: sy.guide });
    }
    x = Math.max(0, Math.min(m.width - r.w, x));
    y = Math.max(0, Math.min(m.height - Math.max(r.h, 1), y));
    var before = item.fields.box.slice();
    item.fields.box[0] = snap ? Math.round(x) : Math.round(x * 100) / 100;
    item.fields.box[1] = snap ? Math.round(y) : Math.round(y * 100) / 100;
    this.showGuides(guides, { x: x, y: y, w: r.w, h: r.h });
    if (item.list === "nodes") this.follow(item, before);
    else if (item.list === "labels") this.rerouteAll();
    this.draw(false);
  };

  /* Several elements moved together by (dx, dy) from their boxes `boxes` (by uid): the
     one grabbed (`lead`) snaps as one element would, the others keep their places
     around it; none leaves the canvas. */
  Editor.prototype.moveGroup = function (items, boxes, lead, dx, dy, snap) {
    var self = this, m = this.model, r = this.rect(lead), start = boxes[lead.uid];
    if (snap) {
      var others = this.others(items), sx = snapAxis(start[0] + dx, r.w, start[1] + dy, start[1] + dy + r.h, others, true);
      var sy = snapAxis(start[1] + dy, r.h, sx.value, sx.value + r.w, others, false);
      dx = Math.round(sx.value - start[0]);
      dy = Math.round(sy.value - start[1]);
    }
    items.forEach(function (item) {
      var b = boxes[item.uid], q = self.rect(item);
      dx = Math.max(-b[0], Math.min(m.width - q.w - b[0], dx));
      dy = Math.max(-b[1], Math.min(m.height - Math.max(q.h, 1) - b[1], dy));
    });
    items.forEach(function (item) {
      var b = boxes[item.uid];
      item.fields.box[0] = Math.round((b[0] + dx) * 100) / 100;
      item.fields.box[1] = Math.round((b[1] + dy) * 100) / 100;
    });
    items.forEach(function (item) { if (item.list === "nodes") self.follow(item); });
    this.rerouteAll();
    this.draw(false);
  };
  Editor.prototype.boxesOf = function (items) {
    var boxes = {};
    items.forEach(function (item) { boxes[item.uid] = item.fields.box.slice(); });
    return boxes;
  };
  /* What the selection moves: its boxes, a group's members for the group. */
  Editor.prototype.movable = function () {
    var self = this, found = [];
    this.chosen().forEach(function (item) {
      var items = item.list === "groups" ? item.fields.nodes.map(function (id) { return self.nodeById(id); }) : [item];
      items.forEach(function (one) { if (one && one.fields.box && found.indexOf(one) < 0) found.push(one); });
    });
    return found;
  };

  /* Align the selected elements on the first one selected's side or middle, or space
     them evenly (equal gaps between them, the outermost two staying). */
  var ALIGN = { left: ["x", 0], centre: ["x", 0.5], right: ["x", 1],
                top: ["y", 0], middle: ["y", 0.5], bottom: ["y", 1] };
  Editor.prototype.align = function (how) {
    var self = this, items = this.movable();
    if (items.length < 2) return;
    var boxes = this.boxesOf(items), axis = ALIGN[how][0], at = ALIGN[how][1];
    var size = function (r) { return axis === "x" ? r.w : r.h; }, first = this.rect(items[0]);
    var line = (axis === "x" ? first.x : first.y) + at * size(first);
    items.forEach(function (item) {
      var r = self.rect(item), b = boxes[item.uid];
      b[axis === "x" ? 0 : 1] = Math.round((line - at * size(r)) * 100) / 100;
    });
    this.placeAll(items, boxes);
    this.commit(T("aligned", { count: items.length, how: T("align-" + how) }));
  };
  Editor.prototype.spread = function (axis) {
    var self = this, items = this.movable();
    if (items.length < 3) return;
    var key = axis === "x" ? 0 : 1, boxes = this.boxesOf(items);
    var rects = items.map(function (item) { return { item: item, r: self.rect(item) }; });
    var pos = function (o) { return axis === "x" ? o.r.x : o.r.y; }, len = function (o) { return axis === "x" ? o.r.w : o.r.h; };
    rects.sort(function (a, b) { return pos(a) - pos(b); });
    var last = rects[rects.length - 1], total = rects.reduce(function (sum, o) { return sum + len(o); }, 0);
    var gap = (pos(last) + len(last) - pos(rects[0]) - total) / (rects.length - 1), at = pos(rects[0]);
    rects.forEach(function (o) {
      boxes[o.item.uid][key] = Math.round(at * 100) / 100;
      at += len(o) + gap;
    });
    this.placeAll(items, boxes);
    this.commit(T("spaced", { count: items.length }));
  };
  Editor.prototype.placeAll = function (items, boxes) {
    var self = this;
    items.forEach(function (item) {
      item.fields.box[0] = boxes[item.uid][0];
      item.fields.box[1] = boxes[item.uid][1];
    });
    items.forEach(function (item) { if (item.list === "nodes") self.follow(item); });
    this.rerouteAll();
    this.draw(false);
  };

  Editor.prototype.showGuides = function (guides, box) {
    var overlay = this.overlay;
    overlay.querySelectorAll(".fe-guide").forEach(function (el) { el.remove(); });
    guides.forEach(function (one) {
      var g = one.g, line = make("span", "fe-guide", overlay);
      if (g.kind === "align") {
        var o = g.box;
        if (one.axis === "x") {
          var top = Math.min(o.y, box.y), bottom = Math.max(o.y + o.h, box.y + box.h);
          line.style.cssText = "left:" + px(g.at) + ";top:" + px(top) + ";height:" + px(bottom - top) + ";width:0";
        } else {
          var left = Math.min(o.x, box.x), right = Math.max(o.x + o.w, box.x + box.w);
          line.style.cssText = "top:" + px(g.at) + ";left:" + px(left) + ";width:" + px(right - left) + ";height:0";
        }
      } else {
        line.classList.add("fe-gap");
        line.textContent = "= " + Math.round(g.gap) + " px";
        if (one.axis === "x") line.style.cssText = "left:" + px(g.before.x + g.before.w) + ";top:" + px(box.y + box.h / 2) +
          ";width:" + px(g.after.x - g.before.x - g.before.w) + ";height:0";
        else line.style.cssText = "top:" + px(g.before.y + g.before.h) + ";left:" + px(box.x + box.w / 2) +
          ";height:" + px(g.after.y - g.before.y - g.before.h) + ";width:0";
      }
    });
  };

  /* The edges of a node that moved or changed size: routed again when both their ends
     are on nodes; an edge written as points with one end elsewhere keeps that end, its
     end on the node moves with it. */
  Editor.prototype.follow = function (node) {
    var self = this, id = node.fields.id, route = false;
    this.model.edges.forEach(function (edge) {
      var f = edge.fields;
      if (!f.points) { if (endName(f.from) === id || endName(f.to) === id) route = true; return; }
      var ends = edge.ends || [null, null], mine = [0, 1].filter(function (i) { return ends[i] && ends[i].node === id; });
      if (!mine.length) return;
      if (ends[0] && ends[1]) {
        edge.shown = f.points;
        delete f.points;
        f.from = ends[0].node + "." + ends[0].side;
        f.to = ends[1].node + "." + ends[1].side;
        route = true;
        return;
      }
      mine.forEach(function (i) {
        var at = i === 0 ? 0 : f.points.length - 1, next = i === 0 ? 1 : at - 1;
        var old = f.points[at], p = sidePoint(node.fields.box, ends[i].side, ends[i].t);
        var n = f.points[next];
        if (Math.abs(n[1] - old[1]) < 0.01) n[1] = p[1];
        else if (Math.abs(n[0] - old[0]) < 0.01) n[0] = p[0];
        f.points[at] = [Math.round(p[0] * 100) / 100, Math.round(p[1] * 100) / 100];
      });
    });
    if (route) this.route(id);
  };
  Editor.prototype.rerouteAll = function () {
    if (this.model.edges.some(function (e) { return !e.fields.points; })) this.route();
  };

  Editor.prototype.resize = function (item, handle, start, dx, dy) {
    var b = item.fields.box, others = this.others(item), min = item.list === "nodes" ? 30 : 20;
    function edge(value, horizontal) {
      var best = null;
      others.forEach(function (o) {
        (horizontal ? [o.x, o.x + o.w] : [o.y, o.y + o.h]).forEach(function (t) {
          if (Math.abs(t - value) <= NEAR && (!best || Math.abs(t - value) < Math.abs(best - value))) best = t;
        });
      });
      return best === null ? grid(value) : best;
    }
    if (item.list === "lifelines") {
      var top = start[1], bottom = start[1] + start[2];
      if (handle === "n") top = Math.min(edge(top + dy, false), bottom - min);
      if (handle === "s") bottom = Math.max(edge(bottom + dy, false), top + min);
      b[1] = Math.max(0, top);
      b[2] = Math.min(this.model.height, bottom) - b[1];
      this.draw(false);
      return;
    }
    var x1 = start[0], y1 = start[1], x2 = start[0] + start[2], y2 = start[1] + (start[3] || 0);
    if (handle.indexOf("w") >= 0) x1 = Math.min(edge(x1 + dx, true), x2 - min);
    if (handle.indexOf("e") >= 0) x2 = Math.max(edge(x2 + dx, true), x1 + min);
    if (item.list === "nodes") {
      if (handle.indexOf("n") >= 0) y1 = Math.min(edge(y1 + dy, false), y2 - 20);
      if (handle.indexOf("s") >= 0) y2 = Math.max(edge(y2 + dy, false), y1 + 20);
    }
    b[0] = Math.max(0, x1);
    b[2] = Math.min(this.model.width, x2) - b[0];
    if (item.list === "nodes") { b[1] = Math.max(0, y1); b[3] = Math.min(this.model.height, y2) - b[1]; }
    if (item.list === "nodes") this.follow(item);
    else if (item.list === "labels") this.rerouteAll();
    this.draw(false);
  };

  /* The canvas, never smaller than what it holds. */
  Editor.prototype.resizeCanvas = function (width, height) {
    var self = this, right = 20, bottom = 20;
    [].concat(this.model.nodes, this.model.labels, this.model.dividers, this.model.lifelines).forEach(function (item) {
      var r = self.rect(item);
      right = Math.max(right, r.x + r.w);
      bottom = Math.max(bottom, r.y + r.h);
    });
    this.model.width = Math.max(grid(width), Math.ceil(right));
    this.model.height = Math.max(grid(height), Math.ceil(bottom));
    this.draw(false);
  };

  /* Routing, on the server ------------------------------------------------------------ */
  /* What a group's frame is drawn from: its members' boxes and its title's size. */
  Editor.prototype.frameKey = function (group) {
    var self = this;
    return JSON.stringify([group.fields.nodes.map(function (id) {
      var node = self.nodeById(id);
      return node ? node.fields.box : null;
    }), group.fields.title_box || null]);
  };
  /* While a node is dragged, only its own edges are routed (`only`: its id), the others
     stay; once it is dropped, every edge that names its ends is routed again together,
     as the build routes them. One request at a time: the geometry as it is when the
     answer comes is sent next. */
  Editor.prototype.route = function (only) {
    var routed = this.model.edges.filter(function (e) {
      return !e.fields.points && (!only || endName(e.fields.from) === only || endName(e.fields.to) === only);
    });
    if (!routed.length) return;
    if (this.routing.since === null) this.routing.since = performance.now();
    if (this.routing.busy) {
      this.routing.again = this.routing.again === false || this.routing.again === (only || null) ? (only || null) : null;
      return;
    }
    var self = this, since = this.routing.since, m = this.model;
    this.routing = { busy: true, again: false, since: null };
    var request = {
      figure: this.id, width: m.width, height: m.height,
      nodes: m.nodes.map(function (n) { return { id: n.fields.id, box: n.fields.box }; }),
      labels: m.labels.map(function (l) { return { box: l.fields.box, "class": l.fields["class"] || null }; }),
      edges: routed.map(function (e) {
        return { from: e.fields.from, to: e.fields.to, "class": e.fields["class"] || null,
                 label_box: e.fields.label ? e.fields.label_box || null : null,
                 label_at: e.fields.label_at === undefined ? null : e.fields.label_at };
      }),
      groups: m.groups.map(function (g) { return { id: g.fields.id, nodes: g.fields.nodes, title_box: g.fields.title_box }; }),
      /* Every edge routed together: the labels placed too, as the build places them
         (beside the routes, those given by their points among them). */
      place: !only,
      lines: only ? [] : m.edges.filter(function (e) { return e.fields.points; })
        .map(function (e) { return e.fields.points; })
    };
    var sent = m.groups.map(function (g) { return self.frameKey(g); });
    post("route", request).then(function (result) {
      if (result.status !== 200) { self.say(told(result.answer), true); return; }
      var problems = [];
      routed.forEach(function (edge, i) {
        var answer = result.answer.edges[i];
        /* No route: the last one stays, drawn as a problem, and the bar says why. */
        if (answer.points.length) edge.shown = answer.points;
        edge.problem = answer.problem || null;
        /* The build's place for its label, while its route, size and label_at stay. */
        edge.placed = answer.label && answer.points.length
          ? { box: answer.label, points: edge.shown, at: request.edges[i].label_at,
              size: String(request.edges[i].label_box) }
          : null;
        if (answer.no_route) problems.push(T("no-route", { from: answer.no_route[0], to: answer.no_route[2],
          from_side: T("side-" + answer.no_route[1]), to_side: T("side-" + answer.no_route[3]) }));
        else if (answer.problem) problems.push(answer.problem);
      });
      /* The build's frame of each group, while its members' boxes and title stay. */
      if (!only) m.groups.forEach(function (group, i) {
        var frame = (result.answer.groups || [])[i];
        group.placed = frame && request.groups[i].nodes === group.fields.nodes
          ? { box: frame, key: sent[i] } : null;
      });
      self.drawEdges();
      requestAnimationFrame(function () { stats.routes.push(performance.now() - since); });
      if (problems.length) self.say(problems.join("; "), true);
      else if (self.routeTrouble) self.say(T("routed"));
      self.routeTrouble = problems.length > 0;
    }, function (error) { self.say(T("not-routed", { error: String(error) }), true); })
      .finally(function () {
        var again = self.routing.again;
        self.routing.busy = false;
        if (again !== false) self.route(again || undefined);
      });
  };

  /* Text fit ------------------------------------------------------------------------- */
  Editor.prototype.scheduleFit = function () {
    var self = this;
    if (this.fitTimer) return;
    this.fitTimer = setTimeout(function () { self.fitTimer = null; self.fit(); }, 60);
  };

  /* A copy of the figure's boxes in each language, measured in both diagram styles. */
  Editor.prototype.fit = function () {
    var self = this, holder = this.copies, m = this.model;
    if (!window.articlesiteMeasure) return;
    while (holder.firstChild) holder.removeChild(holder.firstChild);
    this.data.languages.forEach(function (lang) {
      var wrap = make("div", "", holder), figure = make("figure", "figure", wrap);
      wrap.setAttribute("data-language", lang.code);
      wrap.lang = lang.lang;
      figure.setAttribute("data-figure", self.id);
      figure.setAttribute("data-diagram-style", "blog");
      var canvas = make("div", "canvas", figure);
      canvas.lang = lang.lang;
      canvas.style.cssText = "width:" + px(m.width) + ";height:" + px(m.height);
      m.nodes.forEach(function (node) {
        var el = make("div", "", canvas);
        self.fillNode(el, node, lang.code);
        el.querySelector("strong").setAttribute("data-key", node.fields.text);
        if (node.fields.sub) el.querySelector(".sub").setAttribute("data-key", node.fields.sub);
        self.place(el, node);
      });
      m.labels.forEach(function (label) {
        var el = make("div", "", canvas);
        self.fillLabel(el, label, lang.code);
        el.setAttribute("data-key", label.fields.text);
        el.setAttribute("data-label", label.uid);
        self.place(el, label);
      });
    });
    var findings = window.articlesiteMeasure(holder).findings, worst = {};
    findings.forEach(function (f) {
      var uid = f.element.indexOf("node ") === 0 ? (self.nodeById(f.element.slice(5)) || {}).uid
        : self.labelUid(f.element.slice(6));
      if (!uid) return;
      var by = worst[uid] = worst[uid] || {}, now = by[f.language];
      if (!now || now.px < f.px) by[f.language] = f;
    });
    this.fits = worst;
    this.drawBadges();
  };
  Editor.prototype.labelUid = function (key) {
    var found = this.model.labels.filter(function (l) { return l.fields.text === key; })[0];
    return found && found.uid;
  };

  Editor.prototype.drawBadges = function () {
    var self = this, layer = this.badges, worst = this.fits || {};
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    [].concat(this.model.nodes, this.model.labels).forEach(function (item) {
      var r = self.rect(item), found = worst[item.uid] || {}, langs = Object.keys(found);
      var badge = make("span", "fe-fit " + (langs.length ? "fe-over" : "fe-fits"), layer);
      badge.setAttribute("data-fit", item.list === "nodes" ? "node " + item.fields.id : "label " + item.fields.text);
      badge.style.left = px(r.x + r.w);
      badge.style.top = px(r.y);
      if (!langs.length) {
        badge.textContent = "✓";
        badge.title = T("fit-ok");
        return;
      }
      badge.textContent = langs.map(function (code) { return code + " +" + found[code].px + " px"; }).join(" · ");
      badge.title = langs.map(function (code) {
        var f = found[code];
        return T(f.covered_by ? "fit-covered" : "fit-over", { language: code, node: f.covered_by, px: f.px, style: f.style });
      }).join("\n");
    });
  };

  /* Pointer and keys ------------------------------------------------------------------- */
  Editor.prototype.point = function (event) {
    var r = this.canvas.getBoundingClientRect(), scale = r.width / this.model.width || 1;
    return [(event.clientX - r.left) / scale, (event.clientY - r.top) / scale];
  };

  Editor.prototype.itemAt = function (target) {
    var self = this, uid = target.getAttribute && target.getAttribute("data-edge");
    if (uid) return this.find(uid);
    var el = target.closest && target.closest(".node, .figure-label, .figure-divider, .figure-lifeline");
    return this.all().filter(function (item) { return self.els[item.uid] === el; })[0] || null;
  };

  Editor.prototype.listen = function () {
    var self = this, canvas = this.canvas;
    this.handlers = {
      pointerdown: function (e) { self.down(e); },
      pointermove: function (e) { self.moved(e); },
      pointerup: function (e) { self.up(e); },
      pointercancel: function (e) { self.up(e); },
      click: function (e) { e.preventDefault(); },
      dragstart: function (e) { e.preventDefault(); }
    };
    Object.keys(this.handlers).forEach(function (name) { canvas.addEventListener(name, self.handlers[name]); });
    this.keys = function (e) { if (!self.saving && !self.saved) self.key(e); };   /* (see save) */
    document.addEventListener("keydown", this.keys);
  };

  Editor.prototype.down = function (e) {
    if (e.button !== undefined && e.button !== 0) return;
    var target = e.target, at = this.point(e);
    var handle = target.getAttribute("data-handle"), port = target.getAttribute("data-port"), end = target.getAttribute("data-end");
    e.preventDefault();
    this.canvas.focus({ preventScroll: true });
    this.canvas.setPointerCapture(e.pointerId);
    if (handle === "canvas") {
      /* In screen px: the canvas is centred, and moves under the pointer as it grows. */
      this.drag = { kind: "canvas", client: [e.clientX, e.clientY], size: [this.model.width, this.model.height] };
      return;
    }
    if (end !== null) {
      this.drag = { kind: "end", item: this.one(), end: Number(end), from: at, line: make("span", "fe-guide fe-drawing", this.overlay) };
      return;
    }
    var item = handle || port ? this.one() : this.itemAt(target);
    if (!item) { this.drag = { kind: "band", from: at, add: e.shiftKey, el: make("span", "fe-band", this.overlay) }; return; }
    if (e.shiftKey && !handle && !port) { this.drag = null; this.toggle(item); return; }
    if (!handle && !port && !this.isSelected(item)) { this.select([item.uid]); at = this.point(e); }
    var group = handle || port || item.list === "edges" ? [item] : this.movable();
    this.drag = { kind: handle ? "resize" : port ? "connect" : item.list === "edges" ? "none" : "move",
                  item: item, handle: handle, side: port, from: at, box: item.fields.box ? item.fields.box.slice() : null,
                  group: group, boxes: item.fields.box ? this.boxesOf(group) : {} };
    if (port) this.drag.line = make("span", "fe-guide fe-drawing", this.overlay);
  };
  Editor.prototype.toggle = function (item) {
    var uids = this.selection.filter(function (uid) { return uid !== item.uid; });
    if (uids.length === this.selection.length) uids.push(item.uid);
    this.select(uids);
  };

  function lineTo(line, p, at) {
    line.style.cssText = "left:" + px(p[0]) + ";top:" + px(p[1]) + ";width:" + px(Math.hypot(at[0] - p[0], at[1] - p[1])) +
      ";height:0;transform-origin:0 0;transform:rotate(" + Math.atan2(at[1] - p[1], at[0] - p[0]) * 180 / Math.PI + "deg)";
  }
  Editor.prototype.moved = function (e) {
    var d = this.drag;
    if (!d) return;
    var at = this.point(e), dx = d.from ? at[0] - d.from[0] : 0, dy = d.from ? at[1] - d.from[1] : 0;
    if (d.kind === "move" && (d.moved || Math.abs(dx) + Math.abs(dy) > 2)) {
      d.moved = true;
      if (d.group.length > 1) this.moveGroup(d.group, d.boxes, d.item, dx, dy, true);
      else this.moveTo(d.item, d.box[0] + dx, d.box[1] + dy, true);
    } else if (d.kind === "resize") {
      d.moved = true;
      this.resize(d.item, d.handle, d.box, dx, dy);
    } else if (d.kind === "canvas") {
      d.moved = true;
      this.resizeCanvas(d.size[0] + e.clientX - d.client[0], d.size[1] + e.clientY - d.client[1]);
    } else if (d.kind === "connect") {
      lineTo(d.line, sidePoint(d.item.fields.box, d.side, 0.5), at);
    } else if (d.kind === "end") {
      lineTo(d.line, d.from, at);
    } else if (d.kind === "band") {
      d.moved = true;
      d.el.style.cssText = "left:" + px(Math.min(at[0], d.from[0])) + ";top:" + px(Math.min(at[1], d.from[1])) +
        ";width:" + px(Math.abs(dx)) + ";height:" + px(Math.abs(dy));
      d.to = at;
    }
  };

  var DONE = { move: "moved", resize: "resized", canvas: "canvas-resized" };
  Editor.prototype.up = function (e) {
    var d = this.drag;
    this.drag = null;
    this.overlay.querySelectorAll(".fe-guide, .fe-band").forEach(function (el) { el.remove(); });
    if (!d) return;
    if (d.kind === "connect" && !e.cancel) this.connect(d, e);
    else if (d.kind === "end" && !e.cancel) this.reattach(d, e);
    else if (d.kind === "band") this.band(d);
    else if (d.moved) {
      this.route();
      this.commit(d.kind === "canvas" ? T(DONE.canvas, { width: this.model.width, height: this.model.height })
        : T(DONE[d.kind], { what: this.describe(d.group) }));
      this.scheduleFit();
    }
    if (d.kind === "canvas") this.figure.querySelector(".figure-scroll").scrollLeft = 0;
  };

  /* The rubber band: the elements it touches are selected (added to the selection with
     Shift); a click on the empty canvas selects nothing. */
  Editor.prototype.band = function (d) {
    if (!d.to || Math.abs(d.to[0] - d.from[0]) + Math.abs(d.to[1] - d.from[1]) < 3) {
      if (!d.add) this.select([]);
      return;
    }
    var self = this, x1 = Math.min(d.from[0], d.to[0]), x2 = Math.max(d.from[0], d.to[0]);
    var y1 = Math.min(d.from[1], d.to[1]), y2 = Math.max(d.from[1], d.to[1]);
    var hit = this.all().filter(function (item) {
      if (!item.fields.box) return false;
      var r = self.rect(item);
      return r.x <= x2 && r.x + r.w >= x1 && r.y <= y2 && r.y + r.h >= y1;
    }).map(function (item) { return item.uid; });
    var uids = d.add ? this.selection.concat(hit.filter(function (uid) { return self.selection.indexOf(uid) < 0; })) : hit;
    this.select(uids);
  };

  Editor.prototype.connect = function (d, e) {
    var under = document.elementFromPoint(e.clientX, e.clientY), el = under && under.closest(".node");
    var target = el && this.itemAt(el);
    if (!target || target.list !== "nodes" || target === d.item) {
      this.say(T("edge-refused"), true);
      return;
    }
    this.addEdge(d.item, d.side, target, nearestSide(target.fields.box, this.point(e)));
  };
  Editor.prototype.addEdge = function (from, fromSide, to, toSide) {
    var edge = { uid: "e" + this.uid++, list: "edges", origin: null, ends: [null, null],
                 fields: { from: from.fields.id + "." + fromSide, to: to.fields.id + "." + toSide } };
    this.model.edges.push(edge);
    this.selection = [edge.uid];
    this.draw();
    this.showText();
    this.route();
    this.commit(T("added-edge", { from: from.fields.id, to: to.fields.id }));
  };

  /* An edge's end dropped on a node: the edge now names its ends (`from`/`to` with the
     side nearest to where it was dropped), and the build's router draws it. */
  Editor.prototype.reattach = function (d, e) {
    var under = document.elementFromPoint(e.clientX, e.clientY), el = under && under.closest(".node");
    var target = el && this.itemAt(el);
    if (!target || target.list !== "nodes") { this.say(T("end-refused"), true); this.drawHandles(); return; }
    this.attachEnd(d.item, d.end, target, nearestSide(target.fields.box, this.point(e)));
  };
  /* The node an edge's other end is on (null: none). */
  Editor.prototype.otherEnd = function (edge, end) {
    var f = edge.fields, kept = f.points ? (edge.ends || [])[end ? 0 : 1] : null;
    if (f.points) return kept ? { node: kept.node, side: kept.side } : null;
    var value = f[end ? "from" : "to"];
    return value ? { node: endName(value), side: value.split(".")[1] || null } : null;
  };
  Editor.prototype.attachEnd = function (edge, end, target, side) {
    var f = edge.fields, name = end ? "to" : "from", other = this.otherEnd(edge, end);
    var refused = !other ? T("end-unattached") : other.node === target.fields.id ? T("edge-refused") : "";
    if (refused) { this.say(refused, true); this.drawHandles(); return; }
    if (f.points) {
      edge.shown = f.points;
      delete f.points;
      f[end ? "from" : "to"] = other.node + "." + other.side;
    }
    f[name] = target.fields.id + "." + side;
    if (name === "from") { var to = f.to; delete f.to; f.to = to; }   /* from before to */
    edge.ends = [null, null];
    this.draw();
    this.route();
    this.commit(T("reattached", { end: T("end-" + name), id: target.fields.id, side: T("side-" + side) }));
  };

  /* Keys: Tab and Shift+Tab go through the elements while the canvas has the focus;
     arrows move (Shift: 10 px), Alt+arrows resize; E starts an edge from the selected
     node (Tab to the node it goes to, Enter draws it); Delete, Escape, Ctrl+A, undo and
     redo. Each key press that changes the figure is one operation. */
  Editor.prototype.key = function (e) {
    var tag = e.target.tagName;
    if (tag === "TEXTAREA" || tag === "INPUT" || tag === "SELECT") return;
    var ctrl = e.ctrlKey || e.metaKey, k = e.key.toLowerCase(), onCanvas = document.activeElement === this.canvas;
    if (ctrl && (k === "y" || (k === "z" && e.shiftKey))) { e.preventDefault(); this.redo(); return; }
    if (ctrl && k === "z") { e.preventDefault(); this.undo(); return; }
    if (onCanvas && e.key === "Tab") { this.tab(e); return; }
    if (onCanvas && ctrl && k === "a") { e.preventDefault(); this.select(this.all().map(function (i) { return i.uid; })); return; }
    if (e.key === "Escape") { this.linking = null; this.kept = []; this.select([]); return; }
    if (onCanvas && e.key === " " && !this.linking) { e.preventDefault(); this.keep(); return; }
    if (this.linking && e.key === "Enter") { e.preventDefault(); this.linkTo(); return; }
    var items = this.chosen(), by = ARROWS[e.key];
    if (!items.length && by && e.altKey && onCanvas) {   /* the canvas's own size */
      e.preventDefault();
      var step = e.shiftKey ? 10 : GRID;
      this.resizeCanvas(this.model.width + by[0] * step, this.model.height + by[1] * step);
      this.commit(T(DONE.canvas, { width: this.model.width, height: this.model.height }));
      return;
    }
    if (!items.length) return;
    if (e.key === "Delete" || e.key === "Backspace") { e.preventDefault(); this.remove(); return; }
    if (k === "e" && !ctrl && !e.altKey && this.one()) { e.preventDefault(); this.startLink(e.shiftKey); return; }
    var step = e.shiftKey ? 10 : 1, moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (!moves[e.key]) return;
    e.preventDefault();
    if (e.altKey) { this.nudgeSize(moves[e.key]); return; }
    var movable = this.movable();
    if (!movable.length) return;
    this.moveGroup(movable, this.boxesOf(movable), movable[0], moves[e.key][0], moves[e.key][1], false);
    this.commit(T("moved", { what: this.describe(movable) }));
    var self = this;
    clearTimeout(this.keyTimer);
    this.keyTimer = setTimeout(function () { self.route(); }, 300);
  };

  /* E on a node: an edge from it; on an edge: its end moves (Shift+E: its start). */
  Editor.prototype.startLink = function (start) {
    var item = this.one();
    if (item.list === "nodes") {
      this.linking = item;
      this.say(T("edge-start", { id: item.fields.id }));
    } else if (item.list === "edges") {
      this.linking = { edge: item, end: start ? 0 : 1 };
      this.say(T("end-start", { end: T(start ? "end-from" : "end-to") }));
    }
  };
  var ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  Editor.prototype.tab = function (e) {
    var items = this.linking ? this.model.nodes.filter(function (n) { return n !== this.linking; }, this) : this.all();
    var at = this.selection.length ? items.indexOf(this.find(this.selection[this.selection.length - 1])) : -1;
    var next = at < 0 ? (e.shiftKey ? items.length - 1 : 0) : at + (e.shiftKey ? -1 : 1);
    if (next < 0 || next >= items.length) { if (!this.linking) { this.select([]); return; } next = (next + items.length) % items.length; }
    e.preventDefault();
    var kept = this.linking ? [] : (this.kept || []).filter(function (uid) { return uid !== items[next].uid; });
    this.select(kept.concat([items[next].uid]));
    this.say(!this.linking ? this.describe([items[next]]) : this.linking.edge ? this.describe([items[next]])
      : T("edge-to", { from: this.linking.fields.id, id: items[next].fields.id }));
  };
  /* Space keeps the element Tab reached selected while Tab goes on (again: no longer);
     the keyboard's Shift+click. */
  Editor.prototype.keep = function () {
    var uid = this.selection[this.selection.length - 1], kept = this.kept = this.kept || [];
    if (!uid) return;
    if (kept.indexOf(uid) >= 0) kept.splice(kept.indexOf(uid), 1);
    else kept.push(uid);
    this.say(T(kept.indexOf(uid) >= 0 ? "kept" : "not-kept", { what: this.describe([this.find(uid)]), count: kept.length }));
  };
  /* Enter: the edge drawn, or the edge's end moved, to the node Tab reached, on the
     sides that face each other. */
  Editor.prototype.linkTo = function () {
    var from = this.linking, to = this.one();
    this.linking = null;
    if (from.edge) {
      var other = this.otherEnd(from.edge, from.end), node = other && this.nodeById(other.node);
      if (!to || to.list !== "nodes" || !node) { this.say(T(node ? "end-refused" : "end-unattached"), true); return; }
      this.selection = [from.edge.uid];   /* the edge stays selected */
      this.attachEnd(from.edge, from.end, to, facing(this.rect(node), this.rect(to))[1]);
      this.showText();
      return;
    }
    if (!to || to.list !== "nodes" || to === from) { this.say(T("edge-refused"), true); return; }
    var sides = facing(this.rect(from), this.rect(to));
    this.addEdge(from, sides[0], to, sides[1]);
  };
  function facing(a, b) {
    var dx = b.x + b.w / 2 - a.x - a.w / 2, dy = b.y + b.h / 2 - a.y - a.h / 2;
    return Math.abs(dx) >= Math.abs(dy) ? (dx >= 0 ? ["right", "left"] : ["left", "right"])
      : (dy >= 0 ? ["bottom", "top"] : ["top", "bottom"]);
  }
  Editor.prototype.nudgeSize = function (by) {
    var item = this.one();
    if (!item || !item.fields.box || item.list === "edges") return;
    var b = item.fields.box, tall = item.list === "lifelines";
    if (item.list === "nodes" || !tall) b[2] = Math.max(20, b[2] + by[0]);
    if (item.list === "nodes") b[3] = Math.max(20, b[3] + by[1]);
    if (tall) b[2] = Math.max(20, b[2] + by[1]);
    if (item.list === "nodes") this.follow(item);
    this.draw(false);
    this.commit(T("resized", { what: this.describe([item]) }));
  };

  /* Saving ------------------------------------------------------------------------------- */
  Editor.prototype.request = function () {
    var m = this.model, spec = { width: m.width, height: m.height }, texts = [], self = this;
    LISTS.forEach(function (list) {
      spec[list] = m[list].map(function (item) { return Object.assign({ origin: item.origin }, item.fields); });
    });
    Object.keys(this.texts).forEach(function (key) {
      var loaded = self.loadedOf(key);
      Object.keys(self.texts[key]).forEach(function (language) {
        var value = self.texts[key][language];
        if (loaded[language] !== value) texts.push({ key: key, language: language, text: value });
      });
    });
    return { figure: this.id, base: this.data.base, spec: spec, texts: texts, renames: this.renames };
  };

  /* From Save on, the editor takes no edit: once the save's build ends the page reloads
     with what was sent, and an edit made meanwhile would be dropped without a word. A
     refusal gives the editor back with every edit; so does an answer that nothing
     changed (no build follows it, so no reload). */
  Editor.prototype.save = function () {
    var self = this;
    if (this.saving || this.saved) return;
    this.settle();
    this.say(T("saving"));
    this.saving = true;
    this.freeze(true);
    post("save", this.request()).then(function (result) {
      self.saving = false;
      if (result.status !== 200) { self.freeze(false); self.say(told(result.answer), true); return; }
      var changed = result.answer.changed;
      if (!changed.length) { self.freeze(false); self.say(T("nothing-to-save")); return; }
      self.saved = true;
      try { sessionStorage.setItem(REOPEN, self.id); } catch (e) {}
      self.say(T("saved", { files: changed.join(T("list-separator")) }) + " " + T("reloading"));
      reloadIfDue();
    }, function (error) { self.saving = false; self.freeze(false); self.say(T("not-saved", { error: String(error) }), true); });
  };
  /* The canvas and the bar's controls out of reach (inert), its message still read. */
  Editor.prototype.freeze = function (on) {
    var said = this.message.parentNode;
    [this.canvas].concat([].slice.call(this.bar.querySelectorAll(".fe-row"))).forEach(function (el) {
      if (el !== said) el.inert = on;
    });
  };

  Editor.prototype.close = function () {
    if (this.dirty() && !window.confirm(T("confirm-close"))) return;
    this.saved = true;
    location.reload();
  };

  /* What editor_bar.js (the bar, its fields and what its buttons do) builds on. */
  F.parts = { Editor: Editor, make: make, T: T, ID: ID, LISTS: LISTS, endName: endName, grid: grid,
              told: told };

  function holds() { return !!current && !current.saved; }
  function reloadIfDue() {
    var live = window.articlesiteLive;
    if (live && live.pending && !holds()) location.reload();
  }

  /* The buttons ---------------------------------------------------------------------- */
  function open(figure, button) {
    if (current) { current.say(T("close-first"), true); return; }
    var id = figure.id.replace(/^figure-/, "");
    button.disabled = true;
    post("open", { figure: id }).then(function (result) {
      button.disabled = false;
      if (result.status !== 200) { button.after(make("span", "fe-refused")); button.nextSibling.textContent = told(result.answer); return; }
      button.hidden = true;
      current = new Editor(figure, result.answer);
      F.current = current;
    }, function () { button.disabled = false; });
  }

  function setUp() {
    var live = window.articlesiteLive;
    if (live) {
      var before = live.hold;
      live.hold = function () { return holds() || (before ? before() : false); };
    }
    var reopen = null;
    try { reopen = sessionStorage.getItem(REOPEN); sessionStorage.removeItem(REOPEN); } catch (e) {}
    document.querySelectorAll("figure.figure[id^='figure-']").forEach(function (figure) {
      var button = make("button", "fe-open");
      button.type = "button";
      button.textContent = T("edit-figure");
      figure.querySelector(".figure-heading").after(button);
      button.addEventListener("click", function () { open(figure, button); });
      if (reopen && figure.id === "figure-" + reopen) open(figure, button);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
