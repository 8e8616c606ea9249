/* Edge labels and group frames in the figure editor (editor.js), drawn from its model
   (an edge's `label`, `label_box`, `label_at`; a group's `title`, `title_box`, `nodes`),
   the build's own elements first: each edge label where the build places it, as serve
   answers once every edge is routed together (editor.js `route`); while a node is
   dragged, at its last offset from the middle of its route's longest run (dragged, or
   new, at `label_at` along the route) until that answer comes; and each
   group's frame follows its members' boxes (geometry/frames.py: 15 px round them, the
   title band on top). Dragging a label slides it along its route (`label_at`, 0 to 1);
   dragging a group's title moves its members (on the editor's 5 px grid); a click
   selects the label's edge or the group, whose fields the bar then shows
   (groups_bar.js). Each operation is one step of the editor's undo. Each label and title
   says whether its text fits its box in every language and both diagram styles, as the
   editor's marks say it of a node (measure.js, on a copy per language). */
(function () {
  "use strict";
  var F = window.articlesiteFigureEditor;
  if (!F) return;
  var PADDING = 15, INSET = 6, TITLE_GAP = 24, GAP = 4, GRID = 5;
  var seen = null, T = F.parts.T;

  function num(value) { return parseFloat(value) || 0; }
  function boxOf(el) {
    return [num(el.style.left), num(el.style.top), num(el.style.width), num(el.style.height)];
  }
  function px(value) { return Math.round(value * 100) / 100 + "px"; }

  /* The middle of the route's longest straight run, and whether it runs across. */
  function anchor(points) {
    var best = null;
    for (var i = 0; i + 1 < points.length; i++) {
      var a = points[i], b = points[i + 1], length = Math.abs(b[0] - a[0]) + Math.abs(b[1] - a[1]);
      if (!best || length > best.length)
        best = { length: length, x: (a[0] + b[0]) / 2, y: (a[1] + b[1]) / 2 };
    }
    return best;
  }

  function pointsOf(edge) { return edge.fields.points || edge.shown || null; }

  /* The point `t` of the way along a route (by length), and whether its run is across. */
  function along(points, t) {
    var total = 0, i;
    for (i = 0; i + 1 < points.length; i++)
      total += Math.abs(points[i + 1][0] - points[i][0]) + Math.abs(points[i + 1][1] - points[i][1]);
    var left = Math.max(0, Math.min(1, t)) * total;
    for (i = 0; i + 1 < points.length; i++) {
      var a = points[i], b = points[i + 1], length = Math.abs(b[0] - a[0]) + Math.abs(b[1] - a[1]);
      if (left <= length || i + 2 === points.length) {
        var k = length ? Math.min(1, left / length) : 0;
        return { x: a[0] + (b[0] - a[0]) * k, y: a[1] + (b[1] - a[1]) * k,
                 across: Math.abs(b[1] - a[1]) <= Math.abs(b[0] - a[0]) };
      }
      left -= length;
    }
    return null;
  }

  /* Where along a route (0 to 1) lies the point nearest to `p`. */
  function nearest(points, p) {
    var total = 0, best = { d: Infinity, at: 0 }, i;
    for (i = 0; i + 1 < points.length; i++) {
      var a = points[i], b = points[i + 1], length = Math.abs(b[0] - a[0]) + Math.abs(b[1] - a[1]);
      var k = length ? Math.max(0, Math.min(1, ((p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1])) /
                                                 (length * length))) : 0;
      var x = a[0] + (b[0] - a[0]) * k, y = a[1] + (b[1] - a[1]) * k, d = Math.hypot(p[0] - x, p[1] - y);
      if (d < best.d) best = { d: d, at: total + k * length };
      total += length;
    }
    return total ? best.at / total : 0;
  }

  /* The elements of the edge labels and group frames, by the uid of their edge or group
     in the editor's model (the build's own elements at first; made for new ones). */
  var els = {}, offsets = {};
  function start(editor) {
    var canvas = editor.canvas;
    els = {};
    offsets = {};
    canvas.querySelectorAll(".edge-label[data-edge]").forEach(function (el) {
      var origin = Number(el.getAttribute("data-edge"));
      var edge = editor.model.edges.filter(function (e) { return e.origin === origin; })[0];
      if (edge && edge.fields.label) els[edge.uid] = el;
      else el.remove();
    });
    canvas.querySelectorAll("[data-group]").forEach(function (el) {
      var id = el.getAttribute("data-group");
      var group = editor.model.groups.filter(function (g) { return g.fields.id === id; })[0];
      if (group) els[group.uid] = el;
      else el.remove();
    });
  }
  function make(tag, className, parent, before) {
    var el = document.createElement(tag);
    el.className = className;
    parent.insertBefore(el, before || null);
    return el;
  }
  /* An element's text in the language shown, filled again only when it changed. */
  function fill(editor, el, key) {
    var text = editor.text(key) || "…", sig = editor.language + "\n" + text + "\n" + ((F.segments || {}).answered || 0);
    if (el.getAttribute("data-shown") === sig) return;
    el.setAttribute("data-shown", sig);
    if (window.articlesiteRichText) window.articlesiteRichText.replace(el, text);
  }

  function sync(editor) {
    var live = {};
    editor.model.groups.forEach(function (group) {
      live[group.uid] = true;
      var el = els[group.uid];
      if (!el || !el.isConnected) {
        el = els[group.uid] = make("div", "figure-group", editor.canvas, editor.canvas.firstChild);
        make("div", "group-title", el);
      }
      el.setAttribute("data-group", group.fields.id);
      el.classList.toggle("fe-selected", editor.isSelected(group));
      frame(editor, group, el);
    });
    editor.model.edges.forEach(function (edge, i) {
      if (!edge.fields.label) return;
      live[edge.uid] = true;
      var el = els[edge.uid];
      if (!el || !el.isConnected) el = els[edge.uid] = make("div", "edge-label", editor.canvas, editor.edgeLayer);
      el.setAttribute("data-edge", String(i));
      el.classList.toggle("fe-selected", editor.isSelected(edge));
      fill(editor, el, edge.fields.label);
      place(edge, el);
    });
    Object.keys(els).forEach(function (uid) {
      if (!live[uid]) { els[uid].remove(); delete els[uid]; delete offsets[uid]; }
    });
  }

  /* A label beside its edge: where the build places it, once every edge has been routed
     together (the server's answer, while the route, the label's size and its `label_at`
     stay as they were then); meanwhile (a node being dragged) at the same offset from
     the middle of the route's longest run as where it was; slid along the route
     (`label_at`) while dragged, and a new label half way along. */
  function place(edge, el) {
    var points = pointsOf(edge), at = points && anchor(points), size = edge.fields.label_box || [0, 0];
    el.style.width = px(size[0]);
    el.style.height = px(size[1]);
    if (!at) return;
    var placed = edge.placed, label_at = edge.fields.label_at === undefined ? null : edge.fields.label_at;
    if (placed && placed.points === points && placed.at === label_at && placed.size === String(size)) {
      el.style.left = px(placed.box[0]);
      el.style.top = px(placed.box[1]);
      if (placed.box[4] && placed.box[4] !== "center") el.setAttribute("data-align", placed.box[4]);
      else el.removeAttribute("data-align");
      /* No free place for it: the build puts it on something (`check` says so). */
      el.classList.toggle("fe-label-on", !!placed.box[5]);
      offsets[edge.uid] = [placed.box[0] - at.x, placed.box[1] - at.y];
      return;
    }
    el.classList.remove("fe-label-on");
    var built = offsets[edge.uid] === undefined && el.style.left && edge.fields.label_at === undefined;
    if (built) offsets[edge.uid] = [num(el.style.left) - at.x, num(el.style.top) - at.y];
    if (edge.fields.label_at !== undefined || !offsets[edge.uid]) {
      var p = along(points, edge.fields.label_at === undefined ? 0.5 : edge.fields.label_at);
      el.style.left = px(p.across ? p.x - size[0] / 2 : p.x + GAP);
      el.style.top = px(p.across ? p.y - GAP - size[1] : p.y - size[1] / 2);
      return;
    }
    el.style.left = px(at.x + offsets[edge.uid][0]);
    el.style.top = px(at.y + offsets[edge.uid][1]);
  }

  /* A group's frame round its members' boxes (geometry/frames.py), its title inside. */
  function frame(editor, group, el) {
    var title = el.querySelector(".group-title"), size = group.fields.title_box || [0, 0];
    fill(editor, title, group.fields.title);
    title.style.cssText = "left:" + px(INSET) + ";top:" + px(INSET) + ";width:" + px(size[0]) + ";height:" + px(size[1]);
    var boxes = members(editor, group).map(function (node) { return node.fields.box; });
    if (!boxes.length) return;
    var left = Math.min.apply(null, boxes.map(function (b) { return b[0]; }));
    var top = Math.min.apply(null, boxes.map(function (b) { return b[1]; }));
    var right = Math.max.apply(null, boxes.map(function (b) { return b[0] + b[2]; }));
    var bottom = Math.max.apply(null, boxes.map(function (b) { return b[1] + b[3]; }));
    var band = INSET + size[1] + TITLE_GAP;
    var box = [left - PADDING, top - band, Math.max(right - left + 2 * PADDING, size[0] + 2 * INSET),
               bottom - top + band + PADDING];
    /* The build grew the frame round its own edges' labels and routes (load/groups.py):
       that room is kept, side by side, as the members move, until serve answers with
       the build's frame for where they are. */
    var grown = offsets[group.uid], placed = group.placed;
    if (placed && placed.key === editor.frameKey(group)) {   /* the build's frame */
      grown = offsets[group.uid] = [Math.max(0, box[0] - placed.box[0]), Math.max(0, box[1] - placed.box[1]),
        Math.max(0, placed.box[0] + placed.box[2] - box[0] - box[2]),
        Math.max(0, placed.box[1] + placed.box[3] - box[1] - box[3])];
    } else if (grown === undefined) {
      var built = el.style.width ? boxOf(el) : box;
      grown = offsets[group.uid] = [Math.max(0, box[0] - built[0]), Math.max(0, box[1] - built[1]),
        Math.max(0, built[0] + built[2] - box[0] - box[2]), Math.max(0, built[1] + built[3] - box[1] - box[3])];
    }
    el.style.left = px(box[0] - grown[0]);
    el.style.top = px(box[1] - grown[1]);
    el.style.width = px(box[2] + grown[0] + grown[2]);
    el.style.height = px(box[3] + grown[1] + grown[3]);
  }

  function members(editor, group) {
    return group.fields.nodes.map(function (id) { return editor.nodeById(id); }).filter(Boolean);
  }
  function owner(target) {
    var el = target.closest(".edge-label, .figure-group");
    return Object.keys(els).filter(function (uid) { return els[uid] === el; })[0] || null;
  }

  /* Dragging: a label along its route, a group by its title; a click selects the
     label's edge or the group (Shift: adds it to the selection, or takes it out). */
  var drag = null;
  function down(e) {
    var editor = F.current, target = e.target;
    if (!editor || !editor.canvas || !editor.canvas.contains(target) || (e.button !== undefined && e.button !== 0)) return;
    var onLabel = target.closest(".edge-label"), onTitle = target.closest(".group-title");
    var uid = (onLabel || onTitle) && owner(target), item = uid && editor.find(uid);
    if (!item) return;
    e.preventDefault();
    e.stopPropagation();
    editor.canvas.focus({ preventScroll: true });
    var nodes = onTitle ? members(editor, item) : [];
    drag = { editor: editor, item: item, label: !!onLabel, from: editor.point(e), moved: false, shift: e.shiftKey,
             nodes: nodes, boxes: nodes.map(function (n) { return n.fields.box.slice(); }) };
  }
  function moved(e) {
    if (!drag) return;
    e.preventDefault();
    var editor = drag.editor, at = editor.point(e);
    if (!drag.moved && Math.hypot(at[0] - drag.from[0], at[1] - drag.from[1]) < 3) return;
    drag.moved = true;
    if (drag.label) {
      var points = pointsOf(drag.item);
      if (points) drag.item.fields.label_at = Math.round(nearest(points, at) * 100) / 100;
      return;
    }
    var dx = Math.round((at[0] - drag.from[0]) / GRID) * GRID, dy = Math.round((at[1] - drag.from[1]) / GRID) * GRID;
    drag.boxes.forEach(function (b) {
      dx = Math.max(-b[0], Math.min(editor.model.width - b[2] - b[0], dx));
      dy = Math.max(-b[1], Math.min(editor.model.height - b[3] - b[1], dy));
    });
    drag.nodes.forEach(function (node, i) {
      var b = drag.boxes[i];
      node.fields.box = [b[0] + dx, b[1] + dy, b[2], b[3]];
    });
    editor.draw(false);
    editor.route();
  }
  function up() {
    if (!drag) return;
    var d = drag, editor = d.editor;
    drag = null;
    if (!d.moved) {
      if (d.shift) editor.toggle(d.item);
      else editor.select([d.item.uid]);
      return;
    }
    if (d.label) {
      editor.commit(T("label-slid", { at: Math.round(d.item.fields.label_at * 100) }));
      editor.route();   // the build's place for it there: on whichever side is free
    } else {
      editor.route();
      editor.commit(T("moved", { what: editor.describe([d.item]) }));
    }
    editor.draw(false);
  }
  var style = document.createElement("style");
  style.textContent = ".fe-on .edge-label,.fe-on .group-title{cursor:grab;touch-action:none}" +
    ".fe-on .fe-label-over{outline:2px solid #d4572a;outline-offset:1px}";
  document.head.appendChild(style);
  document.addEventListener("pointerdown", down, true);
  document.addEventListener("pointermove", moved, true);
  document.addEventListener("pointerup", up, true);

  /* Text fit: a copy of the labels and titles in each language, measured. */
  var measured = null;
  function measureFit(editor) {
    var RT = window.articlesiteRichText;
    if (!window.articlesiteMeasure || !RT) return;
    var holder = document.createElement("div");
    holder.className = "fe-copies";
    holder.setAttribute("aria-hidden", "true");
    document.body.appendChild(holder);
    editor.data.languages.forEach(function (lang) {
      var wrap = document.createElement("div"), figure = document.createElement("figure");
      var canvas = document.createElement("div");
      wrap.setAttribute("data-language", lang.code);
      figure.className = "figure";
      figure.setAttribute("data-figure", editor.id);
      canvas.className = "canvas";
      canvas.lang = lang.lang;
      canvas.style.cssText = "width:" + px(editor.model.width) + ";height:" + px(editor.model.height);
      holder.appendChild(wrap).appendChild(figure).appendChild(canvas);
      function copy(el, key, parent) {
        var made = parent.appendChild(document.createElement("div"));
        made.className = el.className.split(" ").filter(function (c) { return !/^fe-/.test(c); }).join(" ");
        made.style.cssText = el.style.cssText;
        made.setAttribute("data-key", key);
        RT.replace(made, (editor.texts[key] || {})[lang.code] || "");
        return made;
      }
      editor.model.edges.forEach(function (edge, i) {
        var el = els[edge.uid];
        if (el && edge.fields.label) copy(el, edge.fields.label, canvas).setAttribute("data-edge", String(i));
      });
      editor.model.groups.forEach(function (group) {
        var el = els[group.uid];
        if (!el) return;
        var made = canvas.appendChild(document.createElement("div")), title = el.querySelector(".group-title");
        made.className = "figure-group";
        made.style.cssText = el.style.cssText;
        made.setAttribute("data-group", group.fields.id);
        copy(title, group.fields.title, made);
      });
    });
    var findings = window.articlesiteMeasure(holder).findings;
    holder.remove();
    var over = {};
    findings.forEach(function (f) {
      var by = over[f.element] = over[f.element] || {};
      if (!by[f.language] || by[f.language].px < f.px) by[f.language] = f;
    });
    function mark(el, element) {
      var found = over[element] || {}, langs = Object.keys(found);
      el.classList.toggle("fe-label-over", langs.length > 0);
      el.title = langs.length ? langs.map(function (code) {
        return T("fit-over", { language: code, px: found[code].px, style: found[code].style });
      }).join("\n") : T("fit-ok");
    }
    editor.model.edges.forEach(function (edge, i) {
      if (els[edge.uid]) mark(els[edge.uid], "edge-label " + (i + 1));
    });
    editor.model.groups.forEach(function (group) {
      var title = els[group.uid] && els[group.uid].querySelector(".group-title");
      if (title) mark(title, "group " + group.fields.id);
    });
  }

  function tick() {
    var editor = F.current;
    if (editor && editor.model && editor.canvas && editor.canvas.isConnected) {
      if (seen !== editor) { seen = editor; start(editor); measured = null; }
      sync(editor);
      var texts = JSON.stringify([editor.texts, editor.model.groups, editor.model.edges.map(function (e) {
        return e.fields.label_box || null; }), (F.segments || {}).answered]);
      if (texts !== measured) { measured = texts; measureFit(editor); }
    } else seen = null;
    requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
})();
