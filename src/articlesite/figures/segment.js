/* Where a Japanese or Chinese text may break, as the build breaks it: the figure editor
   (editor.js) shows a text while it is typed with richtext.js, which alone would only
   guess the build's phrases (Intl.Segmenter's words); this asks serve (`segment`,
   figures/editor.py: BudouX and the line-breaking rules of load/phrases.py) for each
   text it has not asked about yet, and once the answer comes the editor draws again,
   its fit marks measured on the build's breaks. Until then the guess stands in. */
(function () {
  "use strict";
  var F = window.articlesiteFigureEditor, RT = window.articlesiteRichText;
  if (!F || !RT) return;
  var known = {}, asked = {}, queue = [], timer = null;
  var stats = F.segments = { asked: 0, answered: 0 };

  function key(plain, lang) { return lang.toLowerCase() + "\n" + plain; }

  function send() {
    timer = null;
    var batch = queue.splice(0, 200);
    if (!batch.length) return;
    var headers = { "Content-Type": "application/json" };
    headers[F.header] = F.token;
    stats.asked += batch.length;
    fetch(F.prefix + "segment", { method: "POST", headers: headers, credentials: "same-origin",
                                  body: JSON.stringify({ texts: batch }) })
      .then(function (response) { return response.json(); })
      .then(function (answer) {
        if (!answer.ok) return;
        batch.forEach(function (text, i) { known[key(text.text, text.lang)] = answer.breaks[i]; });
        stats.answered += batch.length;
        var editor = F.current;
        if (editor && editor.canvas && editor.canvas.isConnected) editor.draw();
      }, function () {})
      .then(function () {
        batch.forEach(function (text) { delete asked[key(text.text, text.lang)]; });
        if (queue.length && !timer) timer = setTimeout(send, 0);
      });
  }

  RT.exact = function (plain, lang) {
    if (!F.current || !plain) return null;   /* the editor is open: else the page as built */
    var k = key(plain, lang);
    if (known[k]) return known[k];
    if (!asked[k]) {
      asked[k] = true;
      queue.push({ text: plain, lang: lang });
      if (!timer) timer = setTimeout(send, 30);
    }
    return null;
  };
})();
