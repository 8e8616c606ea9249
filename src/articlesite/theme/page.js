(function () {
  "use strict";
  var root = document.documentElement;
  var themeButton = document.getElementById("theme-toggle");
  var styleButton = document.getElementById("style-toggle");
  var figures = document.querySelectorAll(".figure");
  function store(key, value) { try { localStorage.setItem(key, value); } catch (e) {} }
  function isDark() {
    var chosen = root.getAttribute("data-theme");
    return chosen ? chosen === "dark" : window.matchMedia("(prefers-color-scheme: dark)").matches;
  }
  function diagramStyle() { return root.getAttribute("data-diagram-style") || "blog"; }
  function show() {
    themeButton.setAttribute("aria-pressed", String(isDark()));
    for (var i = 0; i < figures.length; i++) figures[i].setAttribute("data-diagram-style", diagramStyle());
    if (styleButton) styleButton.setAttribute("aria-pressed", String(diagramStyle() === "engineering"));
  }
  themeButton.parentNode.hidden = false;
  themeButton.addEventListener("click", function () {
    var theme = isDark() ? "light" : "dark";
    root.setAttribute("data-theme", theme);
    store("articlesite-theme", theme);
    show();
  });
  /* A figure that fits its box needs no scroll hint nor fit switch. */
  function markFits() {
    for (var i = 0; i < figures.length; i++) {
      var box = figures[i].querySelector(".figure-scroll"), canvas = box && box.querySelector(".canvas");
      if (!canvas) continue;
      if (parseFloat(canvas.style.width) <= box.clientWidth) figures[i].setAttribute("data-fits", "");
      else figures[i].removeAttribute("data-fits");
    }
  }
  markFits();
  window.addEventListener("resize", markFits);
  if (styleButton) styleButton.addEventListener("click", function () {
    var style = diagramStyle() === "engineering" ? "blog" : "engineering";
    root.setAttribute("data-diagram-style", style);
    store("articlesite-diagram-style", style);
    show();
  });
  show();
  /* Anchors land below the sticky bar, whatever its height (the CSS guesses it). */
  var bar = document.querySelector(".bar");
  function fitBar() { root.style.scrollPaddingTop = bar.offsetHeight + "px"; }
  fitBar();
  window.addEventListener("resize", fitBar);
  /* The language switcher keeps the reader's section: section ids are the same in every language. */
  function currentSection() {
    var headings = document.querySelectorAll("main h2[id]"), current = "";
    for (var i = 0; i < headings.length; i++) {
      if (headings[i].getBoundingClientRect().top <= bar.offsetHeight + 80) current = headings[i].id;
    }
    return current;
  }
  /* Content tabs work without JavaScript (radio buttons); with it, choosing a tab chooses
     the tab of the same label in every group of the page, keeping the chosen tab in place. */
  var tabs = document.querySelectorAll(".tabs > .tab-input");
  function tabLabel(input) { return input.nextElementSibling.textContent; }
  for (var t = 0; t < tabs.length; t++) {
    tabs[t].addEventListener("change", function (event) {
      var chosen = event.currentTarget, top = chosen.parentNode.getBoundingClientRect().top;
      for (var j = 0; j < tabs.length; j++) {
        if (tabs[j] !== chosen && !tabs[j].checked && tabLabel(tabs[j]) === tabLabel(chosen)) tabs[j].checked = true;
      }
      window.scrollBy(0, chosen.parentNode.getBoundingClientRect().top - top);
    });
  }
  var links = document.querySelectorAll("a[data-keep-section]");
  for (var i = 0; i < links.length; i++) {
    links[i].addEventListener("click", function (event) {
      var section = currentSection();
      var link = event.currentTarget;
      link.setAttribute("href", link.getAttribute("href").split("#")[0] + (section ? "#" + section : ""));
    });
  }
})();
