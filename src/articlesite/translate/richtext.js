/* A dictionary value as DOM nodes, by the rules of load/markup.py (code in backticks;
   escaped \_ \^ \`; identifiers shown as written; sub/superscripts with _ and ^;
   newlines), built as nodes, never as HTML: shared by serve's editors (the translator's,
   translate/editor.js; the figure editor, figures/editor.js). A test holds the two to
   one table of texts.
   In Japanese and Chinese (the language of the element filled, or `lang`), a <wbr> goes
   where a line may break (an element, not the build's zero-width space: what the editors
   preview is their input, and its text stays the same). The build puts its breaks
   between BudouX's phrases; the browser has no BudouX, so here they go between the words
   of Intl.Segmenter, the words that only end a phrase joined to the one before, with the
   same line-breaking rules: close to the build's phrases, never inside a word; `check`
   measures the build's. An editor that knows the build's breaks for a text sets
   `exact(plain, lang)` to give them (the offsets, or null when it does not know them yet):
   the figure editor asks serve for them (figures/segment.js). */
(function () {
  "use strict";
  var LETTER = "A-Za-z0-9\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u024f\\u0300-\\u036f\\u0370-\\u03ff";
  var SCRIPT_CHARS = "A-Za-z0-9\\u0370-\\u03ff";
  var TOKEN = new RegExp(
    "`([^`\\n]+)`" +
    "|\\\\([_^`])" +
    "|(?<![" + LETTER + "])(_*[" + LETTER + "]+(?:_+[" + LETTER + "]+)*(?:_+(?![{]))?)" +
    "|([_^])(?:\\{([^{}]*)\\}|([" + SCRIPT_CHARS + "]+|[*\u22a4\u2020\u2032]))", "g");
  var SUBSCRIPT = new RegExp("^([" + SCRIPT_CHARS + "]+)([\\s\\S]*)$");
  var NO_START = ")]}）〕］｝〉》」』】〙〗〟’”｠»、。，．,.:;!?：；！？‼⁇⁈⁉・‥…〜～ー゠ゝゞヽヾ々〻" +
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ";
  var NO_END = "([{（〔［｛〈《「『【〘〖〝‘“｟«";
  var PARTICLES = "的地得了着过们";
  var WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/;

  function identifier(word) {
    if (word.split("_").length - 1 >= 2 || word.slice(-1) === "_") return true;
    return word.charAt(0) === "_" ? word.length - 1 > 2 : word.indexOf("_") > 2;
  }

  /* The value's pieces: [kind, text], kind "text", "code", "sub" or "sup". */
  function pieces(value) {
    var out = [], position = 0, match;
    function add(kind, text) {
      var last = out[out.length - 1];
      if (kind === "text" && last && last[0] === "text") last[1] += text;
      else if (text || kind !== "text") out.push([kind, text]);
    }
    function word(w) {
      if (w.indexOf("_") < 0 || identifier(w)) return add("text", w);
      var parts = w.split("_"), found = SUBSCRIPT.exec(parts[1]);
      if (!found) return add("text", w);
      add("text", parts[0]);
      add("sub", found[1]);
      add("text", found[2]);
    }
    TOKEN.lastIndex = 0;
    while ((match = TOKEN.exec(value))) {
      add("text", value.slice(position, match.index));
      if (match[1] !== undefined) add("code", match[1]);
      else if (match[2] !== undefined) add("text", match[2]);
      else if (match[3] !== undefined) word(match[3]);
      else add(match[4] === "_" ? "sub" : "sup", match[5] !== undefined ? match[5] : match[6]);
      position = TOKEN.lastIndex;
    }
    add("text", value.slice(position));
    return out;
  }

  function phrased(lang) {
    var tag = (lang || "").toLowerCase();
    return /^(ja|zh)(-|$)/.test(tag) && typeof Intl !== "undefined" && Intl.Segmenter;
  }
  function mayBreak(before, after) {
    if (/\s/.test(before) || /\s/.test(after)) return false;
    if (!WIDE.test(before) && !WIDE.test(after)) return false;
    return NO_START.indexOf(after) < 0 && NO_END.indexOf(before) < 0;
  }
  /* The offsets in the plain text where a line may break: the starts of the browser's
     words, but that a word that only ends a phrase (Japanese kana after a word:
     particles, inflections; a Chinese particle such as 的; punctuation) joins the one
     before, a word of one character the one after (as the build's phrases do), and a
     run of katakana is never cut. */
  var KATAKANA = /[\u30a0-\u30ff\u31f0-\u31ff]/;
  function breaks(plain, lang) {
    var out = {}, words = [];
    if (!phrased(lang)) return out;
    /* The build's own breaks, when an editor has them (the figure editor asks serve). */
    var exact = api.exact && api.exact(plain, lang);
    if (exact) { exact.forEach(function (at) { out[at] = true; }); return out; }
    var japanese = /^ja/i.test(lang);
    var segments = new Intl.Segmenter(lang, { granularity: "word" }).segment(plain);
    for (var it = segments[Symbol.iterator](), s = it.next(); !s.done; s = it.next()) words.push(s.value);
    var ending = words.map(function (w) {
      return !w.isWordLike || (japanese ? /^[\u3041-\u309f]+$/.test(w.segment)
        : PARTICLES.indexOf(w.segment) >= 0);
    });
    words.forEach(function (w, k) {
      var i = w.index, before = plain.charAt(i - 1), after = plain.charAt(i);
      var single = k > 0 && !ending[k - 1] && words[k - 1].segment.length === 1;
      var katakana = KATAKANA.test(before) && KATAKANA.test(after);
      if (k > 0 && !ending[k] && !single && !katakana && mayBreak(before, after)) out[i] = true;
    });
    return out;
  }

  function appendText(parent, text) {
    text.split("\n").forEach(function (part, i) {
      if (i) parent.appendChild(document.createElement("br"));
      if (part) parent.appendChild(document.createTextNode(part));
    });
  }
  function rich(value, lang) {
    var fragment = document.createDocumentFragment(), found = pieces(value), position = 0;
    var allowed = breaks(found.map(function (p) { return p[1]; }).join(""), lang);
    found.forEach(function (piece) {
      var kind = piece[0], text = piece[1], end = position + text.length, from = 0;
      if (allowed[position] && position) fragment.appendChild(document.createElement("wbr"));
      if (kind !== "text") {
        var el = document.createElement(kind);
        appendText(el, text);
        fragment.appendChild(el);
      } else {
        for (var i = 1; i < text.length; i++) {
          if (!allowed[position + i]) continue;
          appendText(fragment, text.slice(from, i));
          fragment.appendChild(document.createElement("wbr"));
          from = i;
        }
        appendText(fragment, text.slice(from));
      }
      position = end;
    });
    return fragment;
  }
  function replace(el, value, lang) {
    if (lang === undefined) {
      var holder = el.closest ? el.closest("[lang]") : null;
      lang = holder ? holder.getAttribute("lang") : document.documentElement.lang;
    }
    while (el.firstChild) el.removeChild(el.firstChild);
    el.appendChild(rich(value, lang));
  }
  var api = window.articlesiteRichText = { rich: rich, replace: replace, pieces: pieces, breaks: breaks,
                                           exact: null };
})();
