// Installs the service worker (served from /sw.js, see trainer/web/offline.py) where the browser has
// them and the page came over HTTPS or from this machine; nothing changes where it does not.
if ("serviceWorker" in navigator) {
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
  });
}
