// Juror's service worker. scripts/post_build.py writes dist/sw.js from this template, filling
// in the build's version and the files of the app shell; it is never edited by hand in dist/.
//
// - The app shell (HTML, wasm, JS, CSS, icons, manifest) is cached on install, in a cache named
//   after the build, so that the app opens offline after the first visit.
// - Studies and their media are cached as they are fetched (network first, cache when offline),
//   so an annotator can reload on a train.
// - A new deployment installs beside the running one and waits: the page offers "A new version
//   is available — reload" and only then does the new worker take over (message SKIP_WAITING).
//   Old caches are removed when a new worker activates.
// - Only same-origin GET requests are handled; nothing is ever sent elsewhere.
const VERSION = '__VERSION__';
const SHELL = `juror-shell-${VERSION}`;
const RUNTIME = 'juror-runtime';
const PRECACHE = __PRECACHE__;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(PRECACHE)));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys
            .filter((key) => key.startsWith('juror-shell-') && key !== SHELL)
            .map((key) => caches.delete(key)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'SKIP_WAITING') self.skipWaiting();
  if (event.data && event.data.type === 'VERSION') event.source.postMessage({ type: 'VERSION', version: VERSION });
});

async function fromShell(request) {
  const cache = await caches.open(SHELL);
  // The page itself is cached once, whatever its query (?study=...&slot=...).
  const hit = await cache.match(request, { ignoreSearch: request.mode === 'navigate' });
  return hit || fetch(request);
}

async function networkFirst(request) {
  const cache = await caches.open(RUNTIME);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (offline) {
    const hit = await cache.match(request);
    if (hit) return hit;
    throw offline;
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  const scope = new URL(self.registration.scope);
  const path = url.pathname.startsWith(scope.pathname) ? url.pathname.slice(scope.pathname.length) : url.pathname;
  const shell = request.mode === 'navigate' || PRECACHE.includes(path) || PRECACHE.includes('./' + path);
  event.respondWith(shell ? fromShell(request.mode === 'navigate' ? new Request('index.html') : request) : networkFirst(request));
});
