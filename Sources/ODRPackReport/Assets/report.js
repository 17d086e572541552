(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("data").textContent);
  // Sizes as the text reports write them (ByteCount.format): "999 B", "1.5 KB", "512 MB", one decimal, ".0" dropped.
  var units = ["B", "KB", "MB", "GB", "TB", "PB"];
  function fmt(n) {
    if (n === null || n === undefined) return "–";
    var sign = n < 0 ? "-" : "", a = Math.abs(n);
    if (a < 1000) return sign + String(a) + " B";
    var v = a / 1000, i = 1;
    while (v >= 999.95 && i < units.length - 1) { v /= 1000; i++; }
    var t = v.toFixed(1);
    if (t.slice(-2) === ".0") t = t.slice(0, -2);
    return sign + t + " " + units[i];
  }
  // "1 file", "2 files": a count with its noun.
  function count(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }
  function el(tag, attrs) {
    var e = document.createElement(tag);
    attrs = attrs || {};
    Object.keys(attrs).forEach(function (k) {
      if (k === "text") e.textContent = attrs[k]; else if (k === "cls") e.className = attrs[k]; else e.setAttribute(k, attrs[k]);
    });
    for (var i = 2; i < arguments.length; i++) {
      var kid = arguments[i];
      if (kid === null || kid === undefined) continue;
      e.appendChild(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    }
    return e;
  }
  function anchor(kind, name) { return kind + "-" + encodeURIComponent(name).replace(/[%.]/g, "_"); }
  var isDiff = data.kind === "diff", isBuild = data.kind === "build";
  var groups = isDiff ? ["added", "changed", "removed", "unchanged"] : ["initial-install", "prefetch", "on-demand"];
  var packById = {};
  (data.packs || []).forEach(function (p) { packById[p.id] = p; });
  var tagByName = {};
  (data.tags || []).forEach(function (t) { tagByName[t.name] = t; });
  function pill(group) { return el("span", { cls: "pill g-" + group, text: group }); }

  // Summary
  var summary = document.getElementById("summary"), cards = el("div", { cls: "cards" });
  function card(value, label) { cards.appendChild(el("div", { cls: "card" }, el("b", { text: value }), el("span", { text: label }))); }
  if (isDiff) {
    document.getElementById("subtitle").textContent = data.old + " → " + data.new;
    card(data.summary.packsChanged + " of " + data.summary.packsTotal, "packs changed");
    // What devices download (archive bytes) leads; the installed bytes are the second figure.
    data.headline.forEach(function (h) { card(h.value, h.label); });
    var moved = (data.moves || []).length;
    card(String(moved), (moved === 1 ? "file" : "files") + " moved between packs");
    if (data.prefetchOrderNote) summary.appendChild(el("p", { cls: "note", id: "prefetch-order-note", text: data.prefetchOrderNote }));
  } else {
    document.getElementById("subtitle").textContent = data.manifest + " · profile " + data.profile;
    // A build's page leads with what devices download (its archives), the installed bytes second.
    if (isBuild) card(fmt(data.totals.downloadSize), "to download (archives), " + count(data.totals.packs, "pack"));
    card(fmt(data.totals.size), count(data.totals.files, "file") + " in " + count(data.totals.packs, "pack") + (isBuild ? ", installed" : ""));
    card(fmt(data.totals.initialInstallSize), "initial-install");
    card(fmt(data.totals.initialPrefetchSize), "initial-install + prefetch");
    if (data.totals.appBundleFiles !== null) card(fmt(data.totals.appBundleSize), count(data.totals.appBundleFiles, "file") + (data.totals.appBundleFiles === 1 ? " stays" : " stay") + " in the app");
    var errors = data.diagnostics.filter(function (d) { return d.severity === "error"; }).length;
    card(errors + " / " + (data.diagnostics.length - errors), "errors / warnings");
  }
  summary.appendChild(cards);

  // Treemap: squarified, zoom by click, breadcrumb to zoom out.
  function worst(row, side) {
    var s = 0, max = 0, min = Infinity;
    row.forEach(function (r) { s += r.area; max = Math.max(max, r.area); min = Math.min(min, r.area); });
    return Math.max(side * side * max / (s * s), (s * s) / (side * side * min));
  }
  function squarify(nodes, x, y, w, h) {
    var total = 0, out = [];
    nodes.forEach(function (n) { total += n.s; });
    if (total <= 0 || w <= 0 || h <= 0) return out;
    var scale = w * h / total, items = nodes.filter(function (n) { return n.s > 0; }).map(function (n) { return { node: n, area: n.s * scale }; });
    var i = 0;
    while (i < items.length) {
      var side = Math.min(w, h), row = [items[i]], j = i + 1, current = worst(row, side);
      while (j < items.length) {
        var next = worst(row.concat([items[j]]), side);
        if (next > current) break;
        row.push(items[j]); current = next; j++;
      }
      var area = 0;
      row.forEach(function (r) { area += r.area; });
      if (w >= h) {
        var cw = area / h, cy = y;
        row.forEach(function (r) { var ch = r.area / cw; out.push({ node: r.node, x: x, y: cy, w: cw, h: ch }); cy += ch; });
        x += cw; w -= cw;
      } else {
        var rh = area / w, cx = x;
        row.forEach(function (r) { var rw = r.area / rh; out.push({ node: r.node, x: cx, y: y, w: rw, h: rh }); cx += rw; });
        y += rh; h -= rh;
      }
      i = j;
    }
    return out;
  }
  var map = document.getElementById("treemap"), crumbs = document.getElementById("crumbs");
  var path = [data.treemap];
  function describe(node, trail) {
    var names = trail.slice(1).map(function (n) { return n.n; }).concat([node.n]);
    var text = names.join(" / ") + "\n" + fmt(node.s);
    if (node.k) text += " in " + count(node.k, "file");
    var pack = trail.length > 1 ? trail[1] : node;
    if (pack !== data.treemap) text += "\npack " + pack.n + " (" + pack.g + ")";
    return text;
  }
  function draw() {
    map.textContent = "";
    var focus = path[path.length - 1], width = map.clientWidth, height = map.clientHeight;
    var children = focus.c || [];
    squarify(children, 0, 0, width, height).forEach(function (t) {
      var node = t.node;
      var tile = el("div", { cls: "tile g-" + node.g + (node.k ? " grouped" : ""), title: describe(node, path) });
      tile.style.left = t.x + "px"; tile.style.top = t.y + "px"; tile.style.width = t.w + "px"; tile.style.height = t.h + "px";
      if (t.w > 44 && t.h > 16) tile.appendChild(el("span", { cls: "label" }, node.n + " ", el("span", { cls: "size", text: fmt(node.s) })));
      if (node.c && t.w > 80 && t.h > 60) {
        // A pack of one folder shows that folder's contents inside it.
        var inside = node.c.length === 1 && node.c[0].c ? node.c[0].c : node.c;
        squarify(inside, 2, 20, t.w - 6, t.h - 24).forEach(function (u) {
          var inner = el("div", { cls: "inner g-" + u.node.g, title: describe(u.node, path.concat([node])) });
          inner.style.left = u.x + "px"; inner.style.top = u.y + "px"; inner.style.width = u.w + "px"; inner.style.height = u.h + "px";
          tile.appendChild(inner);
        });
      }
      if (node.c) tile.addEventListener("click", function () { path.push(node); draw(); });
      map.appendChild(tile);
    });
    if (!children.length) map.appendChild(el("p", { cls: "muted", text: "  Nothing to show: no tagged file." }));
    crumbs.textContent = "";
    path.forEach(function (node, index) {
      if (index > 0) crumbs.appendChild(el("span", { cls: "sep", text: "›" }));
      var label = node.n + " (" + fmt(node.s) + ")";
      if (index === path.length - 1) { crumbs.appendChild(el("span", { text: label })); return; }
      var button = el("button", { type: "button", text: label });
      button.addEventListener("click", function () { path = path.slice(0, index + 1); draw(); });
      crumbs.appendChild(button);
    });
  }
  var legend = document.getElementById("legend");
  groups.forEach(function (g) { legend.appendChild(el("span", {}, el("i", { cls: "g-" + g }), g)); });
  draw();
  var resizeTimer;
  window.addEventListener("resize", function () { clearTimeout(resizeTimer); resizeTimer = setTimeout(draw, 100); });

  // Limits
  var gauges = document.getElementById("gauges");
  if (isDiff) {
    document.getElementById("gauges-section").querySelector("h2").textContent = "Downloaded again, by category";
    // Each bar: the bytes devices download again out of that category's download bytes in the new build.
    var totals = data.categoryDownloadTotals || {};
    data.headline.map(function (h) { return [h.category, h.download]; }).forEach(function (row) {
      var total = totals[row[0]] || 0;
      var fraction = total > 0 ? Math.min(1, row[1] / total) : 0;
      var right = fmt(row[1]) + " of " + fmt(total) + (total > 0 ? " (" + (fraction * 100).toFixed(1) + "%)" : "");
      var g = el("div", { cls: "gauge", id: "limit-" + row[0] }, el("div", { cls: "text" }, el("span", { text: row[0] }), el("span", { text: right })),
                 el("div", { cls: "bar" }, el("div", { cls: "fill" })));
      g.querySelector(".fill").style.width = (fraction * 100) + "%";
      gauges.appendChild(g);
    });
  } else {
    data.limits.forEach(function (row) {
      var shown = function (v) { return row.count ? String(v) : fmt(v); };
      var fraction = row.limit === null ? null : (row.limit > 0 ? row.value / row.limit : (row.value > 0 ? Infinity : 0));
      // The model's level: a limit that only warns (recommended-size) is amber even past 100%, never red.
      var level = row.level === "over" ? " over" : row.level === "warn" ? " warn" : "";
      var right = row.limit === null ? shown(row.value) + " · no limit in this profile"
        : shown(row.value) + " of " + shown(row.limit) + " (" + (isFinite(fraction) ? (fraction * 100).toFixed(1) : "∞") + "%)";
      var g = el("div", { cls: "gauge" + level, id: "limit-" + row.key },
                 el("div", { cls: "text" }, el("span", { text: row.name + " — " + row.key }), el("span", { text: right })),
                 el("div", { cls: "bar" }, el("div", { cls: "fill" })));
      g.querySelector(".fill").style.width = (fraction === null ? 0 : Math.min(100, fraction * 100)) + "%";
      gauges.appendChild(g);
    });
  }

  // Problems, each linked to the pack or tag it names.
  var list = document.getElementById("diagnostics");
  var diagnostics = data.diagnostics || [];
  if (!diagnostics.length) list.appendChild(el("li", { cls: "ok", text: isDiff ? "A diff has no problems to show." : "No problems." }));
  var packByName = {};
  (data.packs || []).forEach(function (p) { packByName[p.name || (p.tags || []).join("+")] = p; });
  diagnostics.forEach(function (d) {
    var where = d.file ? d.file + ":" + d.line + ":" + d.column + ": " : "";
    var item = el("li", { cls: d.severity }, el("strong", { text: d.severity + " " }), where, d.message + " ", el("code", { text: "[" + d.code + "]" }));
    var subject = d.subject, target = null;
    if (subject && packById[subject]) target = anchor("pack", subject);
    else if (subject && tagByName[subject]) target = anchor("tag", subject);
    else if (subject && packByName[subject]) target = anchor("pack", packByName[subject].id);
    else if (/pack '([^']+)'/.test(d.message) && packByName[RegExp.$1]) target = anchor("pack", packByName[RegExp.$1].id);
    else if (/tag '([^']+)'/.test(d.message) && tagByName[RegExp.$1]) target = anchor("tag", RegExp.$1);
    if (target) item.appendChild(el("a", { href: "#" + target, text: " → " + (subject || "details") }));
    list.appendChild(item);
  });

  // Tag sets, for too-many-packs.
  if (data.tagSets && data.tagSets.length) {
    document.getElementById("tagsets-section").hidden = false;
    var sets = document.getElementById("tagsets");
    data.tagSets.forEach(function (s) {
      sets.appendChild(el("div", { cls: "tagset" }, el("a", { href: "#" + anchor("pack", s.pack), text: s.tags.join(" + ") }),
        el("span", { cls: "muted", text: " — " + count(s.tags.length, "tag") + ", " + count(s.fileCount, "file") + ": " + s.files.join(", ") + (s.fileCount > s.files.length ? ", …" : "") })));
    });
  }

  // Sortable, searchable tables.
  function table(id, columns, rows, rowId) {
    var t = document.getElementById(id), head = el("tr"), body = el("tbody");
    columns.forEach(function (c, index) {
      var th = el("th", { cls: c.num ? "num" : "", text: c.title, scope: "col" });
      th.addEventListener("click", function () {
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        head.querySelectorAll("th").forEach(function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        rows.sort(function (a, b) {
          var x = c.key(a), y = c.key(b);
          var r = (typeof x === "number" && typeof y === "number") ? x - y : String(x).localeCompare(String(y));
          return ascending ? r : -r;
        });
        fill();
      });
      head.appendChild(th);
    });
    function fill() {
      body.textContent = "";
      rows.forEach(function (r) {
        var tr = el("tr", rowId ? { id: rowId(r) } : {});
        columns.forEach(function (c) {
          var value = c.show ? c.show(r) : c.key(r);
          tr.appendChild(el("td", { cls: c.num ? "num" : "" }, value));
        });
        body.appendChild(tr);
      });
      filter();
    }
    var search = document.querySelector('input[data-for="' + id + '"]');
    function filter() {
      var q = search ? search.value.trim().toLowerCase() : "";
      body.querySelectorAll("tr").forEach(function (tr) { tr.hidden = q !== "" && tr.textContent.toLowerCase().indexOf(q) < 0; });
    }
    if (search) search.addEventListener("input", filter);
    t.appendChild(el("thead", {}, head));
    t.appendChild(body);
    fill();
  }
  function tagLinks(tags) {
    var span = el("span");
    tags.forEach(function (tag, i) { if (i) span.appendChild(document.createTextNode(" + ")); span.appendChild(el("a", { href: "#" + anchor("tag", tag), text: tag })); });
    return span;
  }
  function packLink(id, label) { return el("a", { href: "#" + anchor("pack", id), text: label }); }
  if (isDiff) {
    document.getElementById("tags-section").querySelector("h2").textContent = "Tags: bytes downloaded again";
    document.getElementById("files-title").textContent = "Files moved between packs";
    table("packs", [
      { title: "Pack", key: function (p) { return p.tags.join("+"); } },
      { title: "Status", key: function (p) { return p.status; }, show: function (p) { return pill(p.status); } },
      { title: "Category", key: function (p) { return p.categoryText; } },
      { title: "Old size", num: true, key: function (p) { return p.oldSize || 0; }, show: function (p) { return fmt(p.oldSize); } },
      { title: "New size", num: true, key: function (p) { return p.newSize || 0; }, show: function (p) { return fmt(p.newSize); } },
      { title: "Difference", num: true, key: function (p) { return (p.newSize || 0) - (p.oldSize || 0); }, show: function (p) { return p.sizeChange === null ? "–" : p.sizeChange; } },
      { title: "Downloaded again", num: true, key: function (p) { return p.redownloadDownloadSize; }, show: function (p) { return fmt(p.redownloadDownloadSize); } },
      { title: "Installed", num: true, key: function (p) { return p.redownloadSize; }, show: function (p) { return fmt(p.redownloadSize); } },
      { title: "Files (+ added, − removed, ~ modified, moved)", num: true, key: function (p) { return p.fileChanges; }, show: function (p) { return p.filesText; } },
      { title: "Id", key: function (p) { return p.id; } }
    ], data.packs.slice(), function (p) { return anchor("pack", p.id); });
    table("tags", [
      { title: "Tag", key: function (t) { return t.name; } },
      { title: "Status", key: function (t) { return t.status; }, show: function (t) { return pill(t.status); } },
      { title: "Category", key: function (t) { return t.category; } },
      { title: "Downloaded again", num: true, key: function (t) { return t.redownloadDownloadSize; }, show: function (t) { return fmt(t.redownloadDownloadSize); } },
      { title: "Installed", num: true, key: function (t) { return t.redownloadSize; }, show: function (t) { return fmt(t.redownloadSize); } }
    ], data.tags.slice(), function (t) { return anchor("tag", t.name); });
    table("files", [
      { title: "File", key: function (m) { return m.path; } },
      { title: "From pack", key: function (m) { return m.fromPack; }, show: function (m) { return packLink(m.fromPack, m.fromPack); } },
      { title: "To pack", key: function (m) { return m.toPack; }, show: function (m) { return packLink(m.toPack, m.toPack); } },
      { title: "Content changed", key: function (m) { return m.modified ? "yes" : "no"; } }
    ], data.moves.slice());
  } else {
    var backgroundAssets = data.format === "background-assets";
    table("packs", [
      { title: "Pack", key: function (p) { return p.name; } },
      { title: "Tags", key: function (p) { return p.tags.join("+"); }, show: function (p) { return tagLinks(p.tags); } },
      { title: "Category", key: function (p) { return p.category; }, show: function (p) { return pill(p.category); } },
      backgroundAssets
        ? { title: "Download policy", key: function (p) { return p.policy; } }
        : { title: "Priority", num: true, key: function (p) { return p.priority === null ? -1 : p.priority; }, show: function (p) { return p.priority === null ? "–" : String(Number(p.priority.toFixed(3))); } },
      { title: "Files", num: true, key: function (p) { return p.files; } }
    ].concat(isBuild ? [{ title: "Download (archive)", num: true, key: function (p) { return p.downloadSize; }, show: function (p) { return fmt(p.downloadSize); } }] : []).concat([
      { title: isBuild ? "Installed" : "Size", num: true, key: function (p) { return p.size; }, show: function (p) { return fmt(p.size); } },
      backgroundAssets
        ? { title: "Asset pack id", key: function (p) { return p.assetPackId; } }
        : { title: "Id", key: function (p) { return p.id; } }
    ]), data.packs.slice(), function (p) { return anchor("pack", p.id); });
    table("tags", [
      { title: "Tag", key: function (t) { return t.name; } },
      { title: "Category", key: function (t) { return t.category; }, show: function (t) { return pill(t.category); } },
      { title: "Packs", num: true, key: function (t) { return t.packs.length; } }
    ].concat(isBuild ? [
      { title: "Download (archives)", num: true, key: function (t) { return t.downloadSize; }, show: function (t) { return fmt(t.downloadSize); } },
      { title: "Installed", num: true, key: function (t) { return t.size; }, show: function (t) { return fmt(t.size); } }
    ] : [
      { title: "Size (downloaded for the tag)", num: true, key: function (t) { return t.size; }, show: function (t) { return fmt(t.size); } }
    ]), data.tags.slice(), function (t) { return anchor("tag", t.name); });
    table("files", [
      { title: "File", key: function (f) { return f.path; } },
      { title: "Size", num: true, key: function (f) { return f.size; }, show: function (f) { return fmt(f.size); } },
      { title: "Pack", key: function (f) { return f.tags.join("+"); }, show: function (f) { return packLink(f.pack, f.tags.join("+")); } }
    ], data.largestFiles.slice());
  }
  document.body.setAttribute("data-ready", "true");
})();
