/* Edge labels and group frames in the figure editor (editor.js), which draws nodes,
   labels and edges from the spec but not these: while a figure is edited, each edge
   label keeps its place beside its edge (the same offset from the middle of the route's
   longest run as the build gave it), and each group's frame follows its members' boxes
   (geometry/frames.py: 15 px round them, the title band on top). The build places both
   again from the saved spec. */
(function () {
  "use strict";
  var F = window.articlesiteFigureEditor;
  if (!F) return;
  var PADDING = 15, INSET = 6;
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
      });
      groups.push({ el: el, title: title ? boxOf(title).slice(2) : [0, 0], members: members });
    });
  }

  function follow(editor) {
    labels.forEach(function (label) {
      var points = pointsOf(label.edge), at = points && anchor(points);
      if (!at) return;
      var box = boxOf(label.el);
      if (label.offset === null) label.offset = [box[0] - at.x, box[1] - at.y];
      label.el.style.left = px(at.x + label.offset[0]);
      label.el.style.top = px(at.y + label.offset[1]);
    });
    groups.forEach(function (group) {
      if (!group.members.length) return;
      var boxes = group.members.map(function (node) { return node.fields.box; });
      var left = Math.min.apply(null, boxes.map(function (b) { return b[0]; }));
      var top = Math.min.apply(null, boxes.map(function (b) { return b[1]; }));
      var right = Math.max.apply(null, boxes.map(function (b) { return b[0] + b[2]; }));
      var bottom = Math.max.apply(null, boxes.map(function (b) { return b[1] + b[3]; }));
      var band = INSET + group.title[1] + PADDING;
      group.el.style.left = px(left - PADDING);
      group.el.style.top = px(top - band);
      group.el.style.width = px(Math.max(right - left + 2 * PADDING, group.title[0] + 2 * INSET));
      group.el.style.height = px(bottom - top + band + PADDING);
    });
  }

  function tick() {
    var editor = F.current;
    if (editor && editor.model && editor.canvas && editor.canvas.isConnected) {
      if (seen !== editor) { seen = editor; start(editor); }
      follow(editor);
    } else seen = null;
    requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
})();
