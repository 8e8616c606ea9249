/* "Fit to texts": a button under each figure's heading in `python build.py serve`, beside
   "Edit figure" (editor.js), that runs `figure fit ID` on the server (figures/fitting.py):
   every box sized to its longest text in every language, what lies beyond moved, room
   opened for an edge label the build could put nowhere free. The
   spec is written; serve rebuilds and the page reloads with the figure fitted. */
(function () {
  "use strict";
  var F = window.articlesiteFigureEditor;
  if (!F || !F.parts) return;
  var T = F.parts.T;

  /* The answer with what grew named in the page's language ("ノード env"), from the
     items serve lists (its `grown` is English). */
  function named(answer) {
    var args = answer && answer.args;
    if (!args || !args.items) return answer;
    var names = args.items.map(function (item) { return T("grown-" + item[0], { id: item[1] }); });
    var copy = {};
    Object.keys(answer).forEach(function (k) { copy[k] = answer[k]; });
    copy.args = { grown: names.join(T("list-separator")), moved: args.moved };
    return copy;
  }

  /* What fit did, said in the page's language: what grew, then the edge labels it made
     room for (boxes moved beside their routes, or the canvas grown) and those that still
     have no free place, then a canvas it made wider than a page. */
  function said(answer) {
    var text = F.parts.told(named(answer)), args = answer && answer.args;
    if (!args || text === answer.message) return text;   /* English already says it all */
    function labels(numbers) {
      return numbers.map(function (n) { return T("grown-edge-label", { id: n }); })
        .join(T("list-separator"));
    }
    /* no space after a Japanese or Chinese full stop, as those languages write */
    function gap() { return /[\u3002\uff01\uff1f]$/.test(text) ? "" : " "; }
    if (args.room && args.room.length && !args.room_moved && args.canvas)
      text += gap() + T("fit-room-canvas", { labels: labels(args.room),
                                             width: args.canvas[0], height: args.canvas[1] });
    else if (args.room && args.room.length)
      text += gap() + T(args.room_moved === 1 ? "fit-room-one" : "fit-room",
                        { labels: labels(args.room), moved: args.room_moved });
    if (args.crowded && args.crowded.length)
      text += gap() + T("fit-crowded", { labels: labels(args.crowded) });
    if (args.wide) text += gap() + T("fit-too-wide", { width: args.wide, page: args.page });
    return text;
  }

  function fit(figure, button, status) {
    var headers = { "Content-Type": "application/json" };
    headers[F.header] = F.token;
    button.disabled = true;
    status.textContent = T("fit-measuring");
    fetch(F.prefix + "fit", { method: "POST", headers: headers, credentials: "same-origin",
                              body: JSON.stringify({ figure: figure.id.replace(/^figure-/, "") }) })
      .then(function (response) { return response.json(); })
      .then(function (answer) { status.textContent = said(answer); })
      .catch(function (error) { status.textContent = T("fit-failed", { error: String(error) }); })
      .then(function () { button.disabled = false; });
  }

  /* A figure narrower than its title and the two buttons: the buttons go just right of
     its column, where the page has room, rather than over the title. */
  function aside(figure, button, open, status) {
    var heading = figure.querySelector(".figure-heading"), range = document.createRange();
    range.selectNodeContents(heading);
    var title = range.getBoundingClientRect().right, column = heading.getBoundingClientRect().right;
    var fit = button.offsetWidth, edit = open.offsetWidth;
    if (button.getBoundingClientRect().left >= title + 8) return;
    if (figure.getBoundingClientRect().right - column < fit + edit + 24) return;
    button.style.right = status.style.right = -(fit + 8) + "px";
    open.style.right = -(fit + edit + 16) + "px";
  }

  function setUp() {
    document.querySelectorAll("figure.figure[id^='figure-']").forEach(function (figure) {
      var button = document.createElement("button"), status = document.createElement("span");
      button.type = "button";
      button.className = "fe-fit-button";
      button.textContent = T("button-fit");
      status.className = "fe-fit-message";
      status.setAttribute("role", "status");
      var open = figure.querySelector(".fe-open"), after = open || figure.querySelector(".figure-heading");
      after.after(button, status);
      /* Beside "Edit figure", at the right end of the heading's row. */
      if (open) button.style.right = status.style.right = open.offsetWidth + 8 + "px";
      if (open) aside(figure, button, open, status);
      button.addEventListener("click", function () { fit(figure, button, status); });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
