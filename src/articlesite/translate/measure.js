/* Text fit of figure copies ([data-figure] inside [data-language]), in every diagram
   style. The translator's view (site/translations.html) runs it live and shows the result
   in its table; `python build.py check` runs the same function in headless Chromium.
   The view holds each figure once, in no language: the copies in every language are made
   here, from it and the texts of the view's table. */
(function () {
  "use strict";

  function makeCopies() {
    var figures = document.querySelectorAll("template[data-figure-copy]"), texts = {};
    document.querySelectorAll("[data-text]").forEach(function (el) {
      texts[el.getAttribute("data-text")] = el;
    });
    document.querySelectorAll(".figure-copies > [data-language]").forEach(function (holder) {
      var code = holder.getAttribute("data-language"), all = document.createDocumentFragment();
      function renamed(value) { return value.replace(/^copy-/, code + "-"); }
      figures.forEach(function (figure) {
        var copy = figure.content.cloneNode(true);
        copy.querySelectorAll("[id]").forEach(function (el) { el.id = renamed(el.id); });
        copy.querySelectorAll("[aria-labelledby]").forEach(function (el) {
          el.setAttribute("aria-labelledby", renamed(el.getAttribute("aria-labelledby")));
        });
        copy.querySelectorAll("[data-key]").forEach(function (el) {
          var text = texts[el.getAttribute("data-key") + "|" + code];
          if (text) el.append.apply(el, Array.prototype.slice.call(text.cloneNode(true).childNodes));
        });
        all.appendChild(copy);
      });
      holder.appendChild(all);
    });
  }
  makeCopies();
  var STYLES = ["blog", "engineering"];
  var SLACK = 0.5; /* px: subpixel rounding, not overflow */

  function paddingBox(el) {
    var r = el.getBoundingClientRect(), cs = getComputedStyle(el);
    return {
      left: r.left + parseFloat(cs.borderLeftWidth), right: r.right - parseFloat(cs.borderRightWidth),
      top: r.top + parseFloat(cs.borderTopWidth), bottom: r.bottom - parseFloat(cs.borderBottomWidth)
    };
  }

  /* Every line box of text under el, with the dictionary key of the text it shows. */
  function textRects(el) {
    var out = [], range = document.createRange();
    var walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT), node;
    while ((node = walker.nextNode())) {
      if (!node.data.trim()) continue;
      range.selectNodeContents(node);
      var owner = node.parentElement.closest("[data-key]");
      var rects = range.getClientRects();
      for (var i = 0; i < rects.length; i++) out.push({ rect: rects[i], key: owner.getAttribute("data-key") });
    }
    return out;
  }

  function beyond(r, box) {
    return {
      x: Math.max(0, box.left - r.left, r.right - box.right),
      y: Math.max(0, box.top - r.top, r.bottom - box.bottom)
    };
  }

  function intersection(r, box) {
    var w = Math.min(r.right, box.right) - Math.max(r.left, box.left);
    var h = Math.min(r.bottom, box.bottom) - Math.max(r.top, box.top);
    return w > 0 && h > 0 ? Math.min(w, h) : 0;
  }

  /* How far a node's or label's text leaves its box: text outside the border, or the
     box's content scrolling (scrollWidth/scrollHeight beyond the client size). A text too
     wide is its own key's fault; too tall a box is the fault of all its texts together. */
  function overflow(el) {
    var box = paddingBox(el), texts = textRects(el), wide = { px: 0, key: null }, tall = 0;
    texts.forEach(function (t) {
      var d = beyond(t.rect, box);
      if (d.x > wide.px) wide = { px: d.x, key: t.key };
      tall = Math.max(tall, d.y);
    });
    wide.px = Math.max(wide.px, el.scrollWidth - el.clientWidth);
    tall = Math.max(tall, el.scrollHeight - el.clientHeight);
    var keys = [];
    texts.forEach(function (t) { if (keys.indexOf(t.key) < 0) keys.push(t.key); });
    if (wide.px >= tall) return { px: wide.px, keys: [wide.key || keys[0]] };
    return { px: tall, keys: keys };
  }

  /* How deep a node covers a label's text (nodes are drawn above labels). */
  function covered(label, nodes) {
    var worst = { px: 0, node: null };
    textRects(label).forEach(function (t) {
      nodes.forEach(function (node) {
        var d = intersection(t.rect, node.getBoundingClientRect());
        if (d > worst.px) worst = { px: d, node: node.getAttribute("data-node") };
      });
    });
    return worst;
  }

  function measure(root) {
    var figures = (root || document).querySelectorAll("[data-language] [data-figure]");
    var findings = [], boxes = 0;
    STYLES.forEach(function (style) {
      figures.forEach(function (figure) {
        figure.setAttribute("data-diagram-style", style);
        var base = {
          figure: figure.getAttribute("data-figure"), style: style,
          language: figure.closest("[data-language]").getAttribute("data-language")
        };
        function add(element, keys, px, coveredBy) {
          findings.push(Object.assign({}, base, {
            element: element, keys: keys, px: Math.round(px * 10) / 10,
            covered_by: coveredBy || null
          }));
        }
        var nodes = Array.prototype.slice.call(figure.querySelectorAll(".node"));
        nodes.forEach(function (node) {
          boxes++;
          var o = overflow(node);
          if (o.px > SLACK) add("node " + node.getAttribute("data-node"), o.keys, o.px);
        });
        figure.querySelectorAll(".figure-label").forEach(function (label) {
          boxes++;
          var key = label.getAttribute("data-key"), o = overflow(label), c = covered(label, nodes);
          if (o.px > SLACK) add("label " + key, [key], o.px);
          if (c.px > SLACK) add("label " + key, [key], c.px, c.node);
        });
        /* Edge labels and group titles: sized to their texts like nodes (figure fit). */
        figure.querySelectorAll(".edge-label, .group-title").forEach(function (el) {
          boxes++;
          var key = el.getAttribute("data-key"), o = overflow(el);
          var name = el.classList.contains("edge-label")
            ? "edge-label " + (Number(el.getAttribute("data-edge")) + 1)
            : "group " + el.closest("[data-group]").getAttribute("data-group");
          if (o.px > SLACK) add(name, [key], o.px);
        });
      });
    });
    figures.forEach(function (figure) { figure.setAttribute("data-diagram-style", STYLES[0]); });
    return { boxes: boxes, findings: findings };
  }
  window.articlesiteMeasure = measure;

  /* The translator's view: show each overflow in its key's row and language's column. */
  function show() {
    var summary = document.getElementById("fit-summary");
    if (!summary) return;
    var filter = document.getElementById("only-problems");
    filter.closest("[hidden]").hidden = false;
    filter.addEventListener("change", function () {
      document.body.classList.toggle("only-problems", filter.checked);
    });
    var result = measure(document), seen = {};
    document.querySelectorAll("[data-fit]").forEach(function (cell) { cell.textContent = ""; });
    result.findings.forEach(function (f) {
      f.keys.forEach(function (key) {
        var id = key + "|" + f.language + "|" + f.figure + "|" + f.element;
        if (seen[id] && seen[id].px >= f.px) return;
        var cell = document.querySelector('[data-fit="' + CSS.escape(key + "|" + f.language) + '"]');
        if (!cell) return;
        var item = seen[id] ? seen[id].item : cell.appendChild(document.createElement("span"));
        item.className = "status overflowing";
        item.textContent = (f.covered_by ? "covered by node " + f.covered_by + " by " : "overflowing by ") +
          f.px + " px (" + f.figure + ", " + f.element + ")";
        seen[id] = { px: f.px, item: item };
        cell.closest("tr").setAttribute("data-problem", "");
      });
    });
    var count = Object.keys(seen).length;
    summary.textContent = "Text fit measured in this browser: " + result.boxes + " boxes in " +
      STYLES.length + " diagram styles, " + (count ? count + " overflowing." : "all fit.");
  }
  if (document.readyState === "complete") show();
  else window.addEventListener("load", show);
})();
