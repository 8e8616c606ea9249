(function () {
  "use strict";
  /* Search with the Pagefind bundle the build writes (site/pagefind/): the page's own
     language only (Pagefind picks the index of <html lang>), its shards merged in;
     results link to the section. Opened from a file, the box says that search needs a web server. */
  var form = document.querySelector("form.search");
  if (!form) return;
  var input = form.querySelector("input"), results = form.querySelector(".search-results");
  var notice = form.querySelector(".search-notice");
  form.hidden = false;
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  if (location.protocol === "file:") {
    input.disabled = true;
    notice.hidden = false;
    return;
  }
  var pagefind = null, loading = null, latest = 0;
  function load() {
    if (!loading) {
      var bundle = new URL(form.getAttribute("data-bundle"), location.href).href;
      var base = new URL(form.getAttribute("data-root"), location.href).pathname;
      var options = { baseUrl: base, excerptLength: 24 };
      loading = import(bundle + "pagefind.js").then(function (module) {
        pagefind = module;
        return module.options(options);
      }).then(function () { return pagefind.init(); })
        .then(function () { return shards(bundle); })
        .then(function (folders) {
          return Promise.all(folders.map(function (folder) {
            return pagefind.mergeIndex(new URL(folder, bundle).pathname, options);
          }));
        });
    }
    return loading;
  }
  function shards(bundle) {
    /* A large language's index is in shards (search_shards.py): the main bundle holds the
       first, the manifest names the others' folders, merged into it. No manifest: one. */
    return fetch(bundle + "articlesite-shards.json", { cache: "no-cache" })
      .then(function (response) { return response.ok ? response.json() : {}; })
      .then(function (found) {
        var folders = found[document.documentElement.lang.toLowerCase()];
        return Array.isArray(folders) ? folders : [];
      });
  }
  function text(tag, value, className) {
    var element = document.createElement(tag);
    element.textContent = value;
    if (className) element.className = className;
    return element;
  }
  function excerpt(html) {
    /* Pagefind's excerpt marks the words found: keep its text and <mark>s only. */
    var parsed = document.createElement("template"), out = document.createElement("p");
    parsed.innerHTML = html;
    parsed.content.childNodes.forEach(function (node) {
      out.append(node.nodeName === "MARK" ? text("mark", node.textContent) : node.textContent);
    });
    out.className = "search-excerpt";
    return out;
  }
  function show(items) {
    results.replaceChildren();
    if (!items.length) { results.append(text("p", form.getAttribute("data-none"))); return; }
    var list = document.createElement("ul");
    items.forEach(function (item) {
      var entry = document.createElement("li"), title = text("a", item.meta.title || item.url);
      title.href = item.url;
      title.className = "search-title";
      entry.append(title);
      var sections = (item.sub_results || []).filter(function (sub) { return sub.url.indexOf("#") > 0; });
      sections.slice(0, 3).forEach(function (sub) {
        var link = text("a", sub.title);
        link.href = sub.url;
        link.className = "search-section";
        entry.append(link, excerpt(sub.excerpt));
      });
      if (!sections.length) entry.append(excerpt(item.excerpt));
      list.append(entry);
    });
    results.append(list);
  }
  input.addEventListener("focus", function () { load().catch(function () {}); });
  input.addEventListener("input", function () {
    var query = input.value.trim(), ticket = ++latest;
    if (!query) { results.replaceChildren(); return; }
    load().then(function () { return pagefind.debouncedSearch(query, {}, 120); })
      .then(function (found) {
        if (!found || ticket !== latest) return null;
        return Promise.all(found.results.slice(0, 8).map(function (result) { return result.data(); }));
      })
      .then(function (items) { if (items && ticket === latest) show(items); })
      .catch(function () {
        results.replaceChildren(text("p", form.getAttribute("data-failed")));
      });
  });
  input.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { input.value = ""; results.replaceChildren(); }
  });
})();
