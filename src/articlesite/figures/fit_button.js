/* "Fit to texts": a button under each figure's heading in `python build.py serve`, beside
   "Edit figure" (editor.js), that runs `figure fit ID` on the server (figures/fitting.py):
   every box sized to its longest text in every language, what lies beyond moved. The
   spec is written; serve rebuilds and the page reloads with the figure fitted. */
(function () {
  "use strict";
  var F = window.articlesiteFigureEditor;
  if (!F) return;

  function fit(figure, button, status) {
    var headers = { "Content-Type": "application/json" };
    headers[F.header] = F.token;
    button.disabled = true;
    status.textContent = "Measuring the texts…";
    fetch(F.prefix + "fit", { method: "POST", headers: headers, credentials: "same-origin",
                              body: JSON.stringify({ figure: figure.id.replace(/^figure-/, "") }) })
      .then(function (response) { return response.json(); })
      .then(function (answer) { status.textContent = answer.message; })
      .catch(function (error) { status.textContent = "Not fitted: " + error; })
      .then(function () { button.disabled = false; });
  }

  function setUp() {
    document.querySelectorAll("figure.figure[id^='figure-']").forEach(function (figure) {
      var button = document.createElement("button"), status = document.createElement("span");
      button.type = "button";
      button.className = "fe-fit";
      button.textContent = "Fit to texts";
      status.className = "fe-fit-message";
      status.setAttribute("role", "status");
      var after = figure.querySelector(".fe-open") || figure.querySelector(".figure-heading");
      after.after(button, status);
      button.addEventListener("click", function () { fit(figure, button, status); });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
