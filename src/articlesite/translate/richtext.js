/* A dictionary value as DOM nodes, by the rules of texts.rich_text (sub/superscripts
   with _ and ^, escaped \_ and \^, newlines), built as nodes, never as HTML: shared by
   serve's editors (the translator's, translate/editor.js; the figure editor, figures/editor.js). */
(function () {
  "use strict";
  var SCRIPT = /\\([_^])|([_^])(?:\{([^{}]*)\}|([A-Za-z0-9\u0370-\u03ff]+))/g;

  function appendText(parent, text) {
    text.split("\n").forEach(function (part, i) {
      if (i) parent.appendChild(document.createElement("br"));
      if (part) parent.appendChild(document.createTextNode(part));
    });
  }
  function rich(value) {
    var fragment = document.createDocumentFragment(), position = 0, match;
    SCRIPT.lastIndex = 0;
    while ((match = SCRIPT.exec(value))) {
      appendText(fragment, value.slice(position, match.index));
      if (match[1]) appendText(fragment, match[1]);
      else {
        var el = document.createElement(match[2] === "_" ? "sub" : "sup");
        appendText(el, match[3] !== undefined ? match[3] : match[4]);
        fragment.appendChild(el);
      }
      position = SCRIPT.lastIndex;
    }
    appendText(fragment, value.slice(position));
    return fragment;
  }
  function replace(el, value) {
    while (el.firstChild) el.removeChild(el.firstChild);
    el.appendChild(rich(value));
  }
  window.articlesiteRichText = { rich: rich, replace: replace };
})();
