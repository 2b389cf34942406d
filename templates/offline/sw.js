// Croupier Trainer's service worker (written out by trainer/web/core/offline.py): the reference pages and
// the assets are stored when it is installed; a page is fetched from the network first and its copy
// kept (reference pages, and the last drills opened), so without a network the last copy opens; a
// page never stored falls back to the offline page. Only GETs of this site; never the API or accounts;
// a POST only to bring a failed answer back to its question (below).
const VERSION = "ct-2";
const KEPT = {{ kept|tojson }};
const OFFLINE = {{ offline|tojson }};
const LAST_DRILLS = 20;
// The reference's own pages (not the advisor, whose every answer is a new page, nor the API's).
const PAGES = [/^\/reference\/$/, /^\/reference\/(rules|presets)\/[\w-]+$/, /^\/reference\/(payouts|glossary)$/, /^\/practice\/drill\/\d+$/, /^\/practice\/[\w.]+$/, /^\/$/, /^\/offline$/];
const ASSETS = [/^\/static\//, /^\/table\.css$/, /^\/favicon\.ico$/];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(VERSION).then((cache) => cache.addAll(KEPT)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n !== VERSION).map((n) => caches.delete(n))))
      .then(() => self.clients.claim())
  );
});

async function trimDrills(cache) {
  const drills = (await cache.keys()).filter((r) => /\/practice\/drill\/\d+$/.test(new URL(r.url).pathname));
  for (const old of drills.slice(0, Math.max(0, drills.length - LAST_DRILLS))) await cache.delete(old);
}

async function networkFirst(request) {
  const cache = await caches.open(VERSION);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic") {
      await cache.put(request, response.clone());
      await trimDrills(cache);
    }
    return response;
  } catch (error) {
    const kept = await cache.match(request, { ignoreVary: true });
    return kept || (await cache.match(OFFLINE)) || Response.error();
  }
}

// Assets: the kept copy at once, refreshed from the network behind it (a new stylesheet shows at the
// next visit); fetched and kept when there is no copy yet.
async function keptThenRefreshed(event, request) {
  const cache = await caches.open(VERSION);
  const kept = await cache.match(request);
  const fresh = fetch(request).then(async (response) => {
    if (response.ok && response.type === "basic") await cache.put(request, response.clone());
    return response;
  });
  if (kept) {
    event.waitUntil(fresh.catch(() => undefined));
    return kept;
  }
  return fresh;
}

// An answer posted while the connection is down (the phone believes it is online): back to the page
// it was given on with #kept (a practice question opens from its kept copy; a sprint's question or a
// quiz, which are not kept, open as the offline page at their address), where
// static/js/answer-queue.js keeps the answer it noted before the post and sends it once the server
// answers again. The worker itself sends nothing twice and grades nothing.
const ANSWER = /^\/(practice\/drill\/\d+|sprint\/\d+\/answer|exams\/sittings\/\d+)$/;

function keptAt(request, url) {
  const from = request.referrer ? new URL(request.referrer) : null;
  const page = from && from.origin === url.origin ? from.pathname : url.pathname;
  return Response.redirect(new URL(page + "#kept", url).href, 303);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && request.mode === "navigate" && ANSWER.test(url.pathname)) {
    event.respondWith(fetch(request).catch(() => keptAt(request, url)));
    return;
  }
  if (request.method !== "GET") return;
  if (ASSETS.some((p) => p.test(url.pathname))) {
    event.respondWith(keptThenRefreshed(event, request));
  } else if (request.mode === "navigate") {
    if (PAGES.some((p) => p.test(url.pathname))) event.respondWith(networkFirst(request));
    else event.respondWith(fetch(request).catch(async () => (await caches.match(OFFLINE)) || Response.error()));
  }
});
