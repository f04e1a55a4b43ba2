// Juror's service worker. scripts/post_build.py writes dist/sw.js from this template, filling
// in the build's version and the files of the app shell; it is never edited by hand in dist/.
//
// - The annotator's app shell (HTML, wasm, JS, CSS, icons, manifest) is cached on install, in a
//   cache named after the build, so that the app opens offline after the first visit. The
//   researcher's Analyse page (analyse.html, juror-analyse-*) is not: network first, like studies.
// - Studies and their media are cached as they are fetched (network first, cache when offline),
//   so an annotator can reload on a train.
// - Video and audio are fetched by the browser in byte ranges (`Range: bytes=...`), which the
//   Cache API cannot store. A ranged request is answered from the whole file: from the cache if
//   it is there, else fetched whole once (without the range) and cached, then sliced into a
//   `206 Partial Content` response, so a video plays offline and seeks.
// - A new deployment installs beside the running one and waits: the page offers "A new version
//   is available — reload" and only then does the new worker take over (message SKIP_WAITING).
//   Old caches are removed when a new worker activates.
// - Only same-origin GET requests are handled; nothing is ever sent elsewhere.
const VERSION = '__VERSION__';
const SHELL = `juror-shell-${VERSION}`;
const RUNTIME = 'juror-runtime';
const PRECACHE = __PRECACHE__;

self.addEventListener('install', (event) => {
  // From the network, never the HTTP cache (a stale index.html from before a deployment would
  // name bundles that no longer exist). addAll is all or nothing, so a new version
  // installs only with every one of its files.
  event.waitUntil(
    caches.open(SHELL).then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: 'reload' })))),
  );
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
    if (response.status === 200) await cache.put(request, response.clone());
    return response;
  } catch (offline) {
    const hit = await cache.match(request);
    if (hit) return hit;
    throw offline;
  }
}

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` against a size: `[start, end]` inclusive, or null. */
function parseRange(header, size) {
  const m = /^bytes=(\d*)-(\d*)$/.exec((header || '').trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start;
  let end;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  return start <= end && start < size ? [start, end] : null;
}

async function ranged(request) {
  const cache = await caches.open(RUNTIME);
  let whole = await cache.match(request.url);
  if (!whole) {
    const response = await fetch(request.url, { credentials: 'same-origin' });
    if (response.status !== 200) return response;
    await cache.put(request.url, response.clone());
    whole = response;
  }
  const body = await whole.blob();
  const range = parseRange(request.headers.get('range'), body.size);
  if (!range) {
    return new Response(null, { status: 416, headers: { 'Content-Range': `bytes */${body.size}` } });
  }
  const [start, end] = range;
  const headers = new Headers({
    'Content-Type': whole.headers.get('Content-Type') || body.type || 'application/octet-stream',
    'Content-Range': `bytes ${start}-${end}/${body.size}`,
    'Content-Length': String(end - start + 1),
    'Accept-Ranges': 'bytes',
  });
  return new Response(body.slice(start, end + 1), { status: 206, statusText: 'Partial Content', headers });
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  const scope = new URL(self.registration.scope);
  const path = url.pathname.startsWith(scope.pathname) ? url.pathname.slice(scope.pathname.length) : url.pathname;
  // The researcher's Analyse page (analyse.html and its wasm) is not part of the annotator's
  // shell: fetched from the network, and kept in the runtime cache for offline use. Only the
  // app's own page is answered with the shell's index.html; any other page in scope (a study
  // file or an image opened in a tab, another site under the same scope) is left to the network
  // and the runtime cache.
  const researcher = path === 'analyse.html' || path.startsWith('juror-analyse-');
  const appPage = path === '' || path === 'index.html';
  const navigate = request.mode === 'navigate';
  const shell = !researcher && ((navigate && appPage) || (!navigate && (PRECACHE.includes(path) || PRECACHE.includes('./' + path))));
  if (!shell && request.headers.has('range')) {
    event.respondWith(ranged(request));
    return;
  }
  event.respondWith(shell ? fromShell(request.mode === 'navigate' ? new Request('index.html') : request) : networkFirst(request));
});
