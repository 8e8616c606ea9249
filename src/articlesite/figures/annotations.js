/* Edge labels and group frames in the figure editor (editor.js), which draws nodes,
   labels and edges from the spec but not these: while a figure is edited, each edge
   label keeps its place beside its edge (the same offset from the middle of the route's
   longest run as the build gave it), and each group's frame follows its members' boxes
   (geometry/frames.py: 15 px round them, the title band on top). Dragging a label slides
   it along its route (the edge's `label_at`, 0 to 1, saved with the spec); dragging a
   group's title moves its members (on the editor's 5 px grid); a click on either opens
   its text in every language in the editor's bar, saved with the editor's texts. Each
   label and title says
   whether its text fits its box in every language and both diagram styles, as the
   editor's marks say it of a node (measure.js, on a copy per language). The build places
   both again from the saved spec. */
(function () {
  "use strict";
  var F = window.articlesiteFigureEditor;
  if (!F) return;
  var PADDING = 15, INSET = 6, TITLE_GAP = 24, GAP = 4, GRID = 5;
  var seen = null, labels = [], groups = [];

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

  function start(editor) {
    var canvas = editor.canvas;
    labels = [];
    canvas.querySelectorAll(".edge-label[data-edge]").forEach(function (el) {
      var edge = editor.model.edges[Number(el.getAttribute("data-edge"))];
      if (edge) labels.push({ el: el, edge: edge, offset: null });
    });
    groups = [];
    canvas.querySelectorAll("[data-group]").forEach(function (el) {
      var frame = boxOf(el), title = el.querySelector(".group-title");
      var members = editor.model.nodes.filter(function (node) {
        var b = node.fields.box;
        return b[0] >= frame[0] && b[1] >= frame[1] && b[0] + b[2] <= frame[0] + frame[2] &&
          b[1] + b[3] <= frame[1] + frame[3];
      }).map(function (node) { return node.fields.id; });
      var id = el.getAttribute("data-group");
      var named = (editor.data.groups || []).filter(function (g) { return g.id === id; })[0];
      groups.push({ el: el, title: title ? boxOf(title).slice(2) : [0, 0], members: members,
                    key: named ? named.title : null });
    });
  }

  function follow(editor) {
    labels.forEach(function (label) {
      var points = pointsOf(label.edge), at = points && anchor(points);
      if (!at) return;
      var box = boxOf(label.el);
      if (label.slid) {   /* where the drag put it: as the build puts a slid label */
        var p = along(points, label.edge.fields.label_at);
        label.el.style.left = px(p.across ? p.x - box[2] / 2 : p.x + GAP);
        label.el.style.top = px(p.across ? p.y - GAP - box[3] : p.y - box[3] / 2);
        return;
      }
      if (label.offset === null) label.offset = [box[0] - at.x, box[1] - at.y];
      label.el.style.left = px(at.x + label.offset[0]);
      label.el.style.top = px(at.y + label.offset[1]);
    });
    groups.forEach(function (group) {
      var boxes = members(editor, group).map(function (node) { return node.fields.box; });
      if (!boxes.length) return;
      var left = Math.min.apply(null, boxes.map(function (b) { return b[0]; }));
      var top = Math.min.apply(null, boxes.map(function (b) { return b[1]; }));
      var right = Math.max.apply(null, boxes.map(function (b) { return b[0] + b[2]; }));
      var bottom = Math.max.apply(null, boxes.map(function (b) { return b[1] + b[3]; }));
      var band = INSET + group.title[1] + TITLE_GAP;
      group.el.style.left = px(left - PADDING);
      group.el.style.top = px(top - band);
      group.el.style.width = px(Math.max(right - left + 2 * PADDING, group.title[0] + 2 * INSET));
      group.el.style.height = px(bottom - top + band + PADDING);
    });
  }

  function members(editor, group) {
    return editor.model.nodes.filter(function (node) { return group.members.indexOf(node.fields.id) >= 0; });
  }

  /* Dragging: a label along its route, a group by its title. */
  var drag = null;
  function down(e) {
    var editor = F.current, target = e.target;
    if (!editor || !editor.canvas || !editor.canvas.contains(target)) return;
    var label = target.closest(".edge-label"), title = target.closest(".group-title");
    var found = label ? labels.filter(function (l) { return l.el === label; })[0] :
      title ? groups.filter(function (g) { return g.el.contains(title); })[0] : null;
    if (!found) return;
    e.preventDefault();
    e.stopPropagation();
    var from = editor.point(e);
    drag = { editor: editor, label: label ? found : null, group: title ? found : null, from: from,
             moved: false, el: label || title,
             boxes: title ? members(editor, found).map(function (n) { return n.fields.box.slice(); }) : null };
  }
  function moved(e) {
    if (!drag) return;
    e.preventDefault();
    var editor = drag.editor, at = editor.point(e);
    if (!drag.moved && Math.hypot(at[0] - drag.from[0], at[1] - drag.from[1]) < 3) return;
    drag.moved = true;
    if (drag.label) {
      var points = pointsOf(drag.label.edge);
      if (!points) return;
      drag.label.edge.fields.label_at = Math.round(nearest(points, at) * 100) / 100;
      drag.label.slid = true;
    } else {
      var dx = Math.round((at[0] - drag.from[0]) / GRID) * GRID, dy = Math.round((at[1] - drag.from[1]) / GRID) * GRID;
      members(editor, drag.group).forEach(function (node, i) {
        var b = drag.boxes[i];
        node.fields.box = [b[0] + dx, b[1] + dy, b[2], b[3]];
      });
      editor.draw();
      editor.route();
    }
  }
  function up() {
    if (!drag) return;
    var editor = drag.editor, clicked = !drag.moved && drag;
    drag = null;
    if (clicked) {
      openTexts(editor, clicked.el, clicked.label ? clicked.label.edge.fields.label : clicked.group.key);
      return;
    }
    if (editor.route) editor.route();
    if (editor.commit) editor.commit();
  }
  var style = document.createElement("style");
  style.textContent = ".fe-on .edge-label,.fe-on .group-title{cursor:grab;touch-action:none}" +
    ".fe-on .fe-label-over{outline:2px solid #d4572a;outline-offset:1px}" +
    ".fe-annotation-texts{margin-top:6px}.fe-annotation-texts p{margin:0}" +
    ".fe-annotation-texts label{display:inline-flex;gap:4px;align-items:center;margin-right:10px}";
  document.head.appendChild(style);
  document.addEventListener("pointerdown", down, true);
  document.addEventListener("pointermove", moved, true);
  document.addEventListener("pointerup", up, true);

  /* A label's or title's text in every language, in the editor's bar. */
  function openTexts(editor, el, key) {
    var bar = editor.figure.querySelector(".fe-bar");
    if (!bar || !key) return;
    var old = bar.querySelector(".fe-annotation-texts");
    if (old) old.remove();
    var box = bar.appendChild(document.createElement("div")), RT = window.articlesiteRichText;
    box.className = "fe-annotation-texts";
    var what = box.appendChild(document.createElement("p"));
    what.textContent = (el.classList.contains("edge-label") ? "Edge label" : "Group title") + " (" + key + ")";
    editor.data.languages.forEach(function (lang) {
      var label = box.appendChild(document.createElement("label")), area = document.createElement("textarea");
      label.textContent = lang.name + " ";
      label.appendChild(area);
      area.lang = lang.lang;
      area.rows = 1;
      area.value = (editor.texts[key] || {})[lang.code] || "";
      area.setAttribute("data-language", lang.code);
      area.addEventListener("input", function () {
        (editor.texts[key] = editor.texts[key] || {})[lang.code] = area.value;
        if (lang.code === editor.language && RT) RT.replace(el, area.value);
      });
      area.addEventListener("change", function () { editor.commit(); });
    });
  }

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
      labels.forEach(function (label) {
        copy(label.el, label.edge.fields.label, canvas).setAttribute("data-edge", label.el.getAttribute("data-edge"));
      });
      groups.forEach(function (group) {
        var frame = canvas.appendChild(document.createElement("div")), title = group.el.querySelector(".group-title");
        frame.className = "figure-group";
        frame.style.cssText = group.el.style.cssText;
        frame.setAttribute("data-group", group.el.getAttribute("data-group"));
        if (title && group.key) copy(title, group.key, frame);
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
        return code + ": overflowing by " + found[code].px + " px (" + found[code].style + " style)";
      }).join("\n") : "fits in every language and both diagram styles";
    }
    labels.forEach(function (label) {
      mark(label.el, "edge-label " + (Number(label.el.getAttribute("data-edge")) + 1));
    });
    groups.forEach(function (group) {
      var title = group.el.querySelector(".group-title");
      if (title) mark(title, "group " + group.el.getAttribute("data-group"));
    });
  }

  function tick() {
    var editor = F.current;
    if (editor && editor.model && editor.canvas && editor.canvas.isConnected) {
      if (seen !== editor) { seen = editor; start(editor); measured = null; }
      follow(editor);
      var texts = JSON.stringify(editor.texts);
      if (texts !== measured) { measured = texts; measureFit(editor); }
    } else seen = null;
    requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
})();
