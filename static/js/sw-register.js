// Installs the service worker (served from /sw.js, see trainer/web/core/offline.py) where the browser has
// them and the page came over HTTPS or from this machine; nothing changes where it does not.
// On a phone shared by a class, the kept copies of drill pages and the home page belong to whoever
// was signed in: when the page's visitor mark names another visitor (signed in, out, or another account),
// those copies are dropped before anything else is kept. The reference pages stay.
(function () {
  var mark = document.querySelector("meta[name=visitor]");
  var visitor = (mark && mark.getAttribute("content")) || "guest";
  var before = null;
  try {
    before = window.localStorage.getItem("ct-visitor");
    window.localStorage.setItem("ct-visitor", visitor);
  } catch (error) { /* storage refused: nothing was kept for anybody either */ }
  var personal = /^\/($|practice\/)/;
  var dropped = Promise.resolve();
  if (before !== null && before !== visitor && "caches" in window) {
    dropped = caches.keys().then(function (names) {
      return Promise.all(names.map(function (name) {
        return caches.open(name).then(function (cache) {
          return cache.keys().then(function (requests) {
            return Promise.all(requests.filter(function (r) { return personal.test(new URL(r.url).pathname); })
              .map(function (r) { return cache.delete(r); }));
          });
        });
      }));
    }).catch(function () {});
  }
  if ("serviceWorker" in navigator) {
    window.addEventListener("load", function () {
      dropped.then(function () { return navigator.serviceWorker.register("/sw.js", { scope: "/" }); }).catch(function () {});
    });
  }
})();
