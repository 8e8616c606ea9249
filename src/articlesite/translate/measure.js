/* Text fit of figure copies ([data-figure] inside [data-language]), in every diagram
   style. The translator's view (site/translations.html) runs it live and shows the result
   in its table; `python build.py check` runs the same function in headless Chromium.
   The view holds each figure once, in no language: the copies in every language are made
   here, from it and the texts of the view's table. */
(function () {
  "use strict";

  /* The copies of these figures ([id, HTML of the figure in no language]) in every
     language, their texts those of the view's table; the copies made, every language's. */
  function makeCopies(figures) {
    var texts = {}, made = [];
    document.querySelectorAll("[data-text]").forEach(function (el) {
      texts[el.getAttribute("data-text")] = el;
    });
    document.querySelectorAll(".figure-copies > [data-language]").forEach(function (holder) {
      var code = holder.getAttribute("data-language"), all = document.createDocumentFragment();
      function renamed(value) { return value.replace(/^copy-/, code + "-"); }
      figures.forEach(function (figure) {
        var template = document.createElement("template");
        template.innerHTML = figure[1];
        var copy = template.content;
        copy.querySelectorAll("[id]").forEach(function (el) { el.id = renamed(el.id); });
        copy.querySelectorAll("[aria-labelledby]").forEach(function (el) {
          el.setAttribute("aria-labelledby", renamed(el.getAttribute("aria-labelledby")));
        });
        copy.querySelectorAll("[data-key]").forEach(function (el) {
          var text = texts[el.getAttribute("data-key") + "|" + code];
          if (text) el.append.apply(el, Array.prototype.slice.call(text.cloneNode(true).childNodes));
        });
        made.push.apply(made, copy.querySelectorAll("[data-figure]"));
        all.appendChild(copy);
      });
      holder.appendChild(all);
    });
    return made;
  }
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

  /* Where the browser broke each line of el's text, and every break a reader of the
     language would not accept: inside a word (no hyphen) or a phrase (Japanese and
     Chinese break only at the zero-width spaces between phrases, load/phrases.py), a
     line starting with a character that may not start one (a small kana, the prolonged
     sound mark, closing punctuation) or ending with one that may not end one (opening
     punctuation). The two sets are load/phrases.py's (a test keeps them equal). */
  var BREAK = "\u200b";
  var NO_START = ")]}）〕］｝〉》」』】〙〗〟’”｠»、。，．,.:;!?：；！？‼⁇⁈⁉・‥…〜～ー゠ゝゞヽヾ々〻" +
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ";
  var NO_END = "([{（〔［｛〈《「『【〘〖〝‘“｟«";
  var AFTER_OK = "-\u2010\u2011\u2013\u2014/、。，．：；！？)]}）〕］｝〉》」』】";
  var WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/;

  /* The glyphs of el in order, each with its rect, and whether a space or a zero-width
     space (gap), a space (space) or a <br> (forced) comes before it. */
  function glyphs(el) {
    var out = [], range = document.createRange(), gap = false, space = false, forced = false, node;
    var walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
    while ((node = walker.nextNode())) {
      if (node.nodeType === 1) {   /* a <br> breaks the line; a <wbr> (the editors') may */
        forced = forced || node.tagName === "BR";
        gap = gap || node.tagName === "WBR";
        continue;
      }
      for (var i = 0; i < node.data.length; i++) {
        var ch = node.data.charAt(i);
        if (/\s/.test(ch) || ch === BREAK) { gap = true; space = space || ch !== BREAK; continue; }
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        var rects = range.getClientRects();
        if (!rects.length) continue;
        out.push({ ch: ch, rect: rects[0], gap: gap, space: space, forced: forced });
        gap = space = forced = false;
      }
    }
    return out;
  }

  function badBreak(prev, cur) {
    if (NO_START.indexOf(cur.ch) >= 0) return "breaks before “" + cur.ch + "”, which may not start a line";
    if (NO_END.indexOf(prev.ch) >= 0) return "breaks after “" + prev.ch + "”, which may not end a line";
    if (cur.gap || AFTER_OK.indexOf(prev.ch) >= 0 || NO_END.indexOf(cur.ch) >= 0) return null;
    return WIDE.test(prev.ch) || WIDE.test(cur.ch) ? "breaks inside a phrase"
      : "breaks inside a word, without a hyphen";
  }

  function lineBreaks(el) {
    var all = glyphs(el), lines = [""], found = [];
    all.forEach(function (cur, i) {
      var prev = all[i - 1];
      var broken = prev && cur.rect.left < prev.rect.left - 1 && cur.rect.top > prev.rect.top + 2;
      if (broken) {
        lines.push("");
        var why = cur.forced ? null : badBreak(prev, cur);
        if (why) found.push({ line: lines.length - 2, why: why });
      } else if (cur.space && i) lines[lines.length - 1] += " ";
      lines[lines.length - 1] += cur.ch;
    });
    return found.map(function (f) {
      return { why: f.why, before: lines[f.line].slice(-12), after: lines[f.line + 1].slice(0, 12) };
    });
  }

  function measure(root) {
    var figures = Array.isArray(root) ? root
      : (root || document).querySelectorAll("[data-language] [data-figure]");
    var findings = [], breaks = [], boxes = 0;
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
        function broken(element, el) {
          lineBreaks(el).forEach(function (b) {
            breaks.push(Object.assign({}, base, b, { element: element, key: el.getAttribute("data-key") }));
          });
        }
        var nodes = Array.prototype.slice.call(figure.querySelectorAll(".node"));
        nodes.forEach(function (node) {
          boxes++;
          var o = overflow(node);
          if (o.px > SLACK) add("node " + node.getAttribute("data-node"), o.keys, o.px);
          node.querySelectorAll("[data-key]").forEach(function (el) {
            broken("node " + node.getAttribute("data-node"), el);
          });
        });
        figure.querySelectorAll(".figure-label").forEach(function (label) {
          boxes++;
          var key = label.getAttribute("data-key"), o = overflow(label), c = covered(label, nodes);
          if (o.px > SLACK) add("label " + key, [key], o.px);
          if (c.px > SLACK) add("label " + key, [key], c.px, c.node);
          broken("label " + key, label);
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
    return { boxes: boxes, findings: findings, breaks: breaks };
  }
  window.articlesiteMeasure = measure;

  /* The translator's view: show each overflow in its key's row and language's column,
     for the figures opened so far (view.js adds them, a batch at a time). */
  var seen = {}, badly = {}, boxes = 0, measured = 0;
  function show(figures) {
    var summary = document.getElementById("fit-summary");
    if (!summary) return;
    var result = measure(figures);
    boxes += result.boxes;
    measured += figures.length / document.querySelectorAll(".figure-copies > [data-language]").length;
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
    result.breaks.forEach(function (b) {
      var id = [b.key, b.language, b.figure, b.element, b.before, b.after].join("|");
      var cell = document.querySelector('[data-fit="' + CSS.escape(b.key + "|" + b.language) + '"]');
      if (badly[id] || !cell) return;
      var item = badly[id] = cell.appendChild(document.createElement("span"));
      item.className = "status overflowing";
      item.textContent = b.why + ": " + b.before + " | " + b.after + " (" + b.figure + ", " +
        b.element + ")";
      cell.closest("tr").setAttribute("data-problem", "");
    });
    var count = Object.keys(seen).length, bad = Object.keys(badly).length;
    var total = window.articlesiteView ? window.articlesiteView.figures : measured;
    summary.textContent = "Text fit measured in this browser: " + boxes + " boxes in " +
      STYLES.length + " diagram styles" + (measured < total ? " (the " + measured + " of " + total +
      " figures opened)" : "") + ", " + (count ? count + " overflowing" : "all fit") +
      (bad ? ", " + bad + " broken where a line may not break." : ".");
  }
  /* Copies of these figures in every language, measured, their findings shown. */
  window.articlesiteFit = function (figures) {
    var made = makeCopies(figures);
    if (made.length && !window.articlesiteMeasureLater) show(made);   /* (`check` measures them all) */
    return made;
  };
  var filter = document.getElementById("only-problems");
  if (filter) {
    filter.closest("[hidden]").hidden = false;
    filter.addEventListener("change", function () {
      document.body.classList.toggle("only-problems", filter.checked);
    });
  }
})();
