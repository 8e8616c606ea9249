/* Live reload for `python build.py serve`: the server adds this script to the HTML it
   serves (never to the files in site/). It listens to the server's build events: after a
   good build that changed this page (or may have) the page reloads at the same scroll
   position; after a failed one it shows the problems in an overlay, until a good build
   reloads it. A page may set articlesiteLive.hold to a function that says it holds what a
   reload would lose (the translator's editor, with unsaved text): it is then not
   reloaded, and articlesiteLive.pending says a reload is due. */
(function () {
  "use strict";
  var live = window.articlesiteLive, key = "articlesite-scroll:" + location.pathname;
  try {
    var saved = JSON.parse(sessionStorage.getItem(key) || "null");
    sessionStorage.removeItem(key);
    if (saved) window.scrollTo({ left: saved[0], top: saved[1], behavior: "instant" });
  } catch (e) { /* storage may be disabled: the browser's own restoration remains */ }

  function showOverlay(html) {
    var old = document.getElementById("articlesite-overlay");
    if (old) old.remove();
    if (html) document.body.insertAdjacentHTML("beforeend", html);
  }

  /* This page's path in site/, as the build events name pages. */
  var here = decodeURIComponent(location.pathname).replace(/^\//, "");
  if (here === "" || here.charAt(here.length - 1) === "/") here += "index.html";

  /* The page is named: after a build that changed it, the server serves its reload
     before the build goes on (BuildState.settle). */
  var events = new EventSource(live.events + "?page=" + encodeURIComponent(here));
  events.onmessage = function (message) {
    var state = JSON.parse(message.data);
    if (state.ok && state.version !== live.version && state.changed &&
        state.previous === live.version && state.changed.indexOf(here) < 0) {
      live.version = state.version;  /* only other pages changed since this one was sent */
      showOverlay("");
    } else if (state.ok && state.version !== live.version && live.hold && live.hold()) {
      live.pending = true;  /* the page holds what reloading would lose (the editor) */
      showOverlay("");
    } else if (state.ok && state.version !== live.version) {
      try { sessionStorage.setItem(key, JSON.stringify([window.scrollX, window.scrollY])); } catch (e) {}
      events.close();
      location.reload();
    } else {
      showOverlay(state.ok ? "" : state.overlay);
    }
  };
})();
