// Juror's service worker. scripts/post_build.py writes dist/sw.js from this template, filling
// in the build's version, the SHA-256 of its index.html, the files of the app shell and the
// Analyse page's bundle; it is never edited by hand in dist/.
//
// - The annotator's app shell (HTML, wasm, JS, CSS, icons, manifest) is cached on install, in a
//   cache named after the build, so that the app opens offline after the first visit. The
//   researcher's Analyse page (analyse.html, juror-analyse-*) is not: network first, like studies.
// - The install checks that the index.html it fetched is this build's (its SHA-256, baked in at
//   build): a CDN edge that still serves the previous deployment's index.html, naming bundles
//   that are gone, would otherwise give a shell that cannot start. On a mismatch the install
//   fails and the running version goes on; the browser tries again at its next update check.
// - Studies and their media are cached as they are fetched (network first, cache when offline),
//   so an annotator can reload on a train.
// - Video and audio are fetched by the browser in byte ranges (`Range: bytes=...`), which the
//   Cache API cannot store: it keeps whole responses only. A ranged request is answered from the
//   whole cached file as a slice of its blob (`Blob.slice` reads only the range; in Chromium and
//   Firefox a cached body's blob is backed by the cache's file on disk, so the whole file is not
//   read into memory, though the Cache API itself promises nothing about that). On a cache miss
//   the whole file is fetched once and streamed: to the cache, and, through a byte filter, to the
//   page as a `206 Partial Content` as soon as the range's bytes arrive (a seek far into a long
//   video still waits for the bytes before it, which the network has to deliver anyway).
// - A new deployment installs beside the running one and waits: the page offers "A new version
//   is available — reload" and only then does the new worker take over (message SKIP_WAITING).
//   Old shells are removed when a new worker activates, and the runtime cache is pruned: the
//   Analyse page's bundles of other builds go, and beyond RUNTIME_LIMIT entries the oldest go.
// - Only same-origin GET requests are handled; nothing is ever sent elsewhere.
const VERSION = '__VERSION__';
const SHELL = `juror-shell-${VERSION}`;
const RUNTIME = 'juror-runtime';
const PRECACHE = __PRECACHE__;
const INDEX_SHA256 = '__INDEX_SHA256__';
const ANALYSE_BUNDLE = '__ANALYSE_BUNDLE__';
// The annotator's reader of ratings files, loaded only when asked: like the Analyse page's
// bundle, network first and kept in the runtime cache, other builds' pruned.
const RATINGS_BUNDLE = '__RATINGS_BUNDLE__';
const RUNTIME_LIMIT = 500;
// At most this much of a file not yet cached is streamed for one ranged request: the browser
// asks again from where the answer ended, and the stream to the page (whose bytes the tee holds
// in memory while the page is slower than the network) stays short.
const STREAM_LIMIT = 2 * 1024 * 1024;

function hex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** One file of the shell from the network (never the HTTP cache), index.html checked. */
async function shellFile(url) {
  const response = await fetch(new Request(url, { cache: 'reload' }));
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  if (url === 'index.html') {
    const digest = hex(await crypto.subtle.digest('SHA-256', await response.clone().arrayBuffer()));
    if (digest !== INDEX_SHA256) throw new Error(`index.html is not this build's (SHA-256 ${digest})`);
  }
  return response;
}

self.addEventListener('install', (event) => {
  // All or nothing: every file is fetched (and index.html checked) before any is stored, so a
  // new version installs only with every one of its files.
  event.waitUntil(
    Promise.all(PRECACHE.map((url) => shellFile(url).then((response) => [url, response]))).then(async (files) => {
      const cache = await caches.open(SHELL);
      await Promise.all(files.map(([url, response]) => cache.put(url, response)));
    }),
  );
});

/** The runtime cache without other builds' Analyse and ratings bundles, and at most RUNTIME_LIMIT entries. */
async function pruneRuntime() {
  const cache = await caches.open(RUNTIME);
  const scope = new URL(self.registration.scope).pathname;
  const keys = await cache.keys();
  const stale = keys.filter((request) => {
    const path = new URL(request.url).pathname;
    const name = path.startsWith(scope) ? path.slice(scope.length) : path;
    return (
      (name.startsWith('juror-analyse-') && !name.startsWith(ANALYSE_BUNDLE)) ||
      (name.startsWith('juror-ratings-') && !name.startsWith(RATINGS_BUNDLE))
    );
  });
  // Keys come oldest first (each put goes to the end): beyond the limit the oldest go.
  const kept = keys.filter((request) => !stale.includes(request));
  const excess = kept.slice(0, Math.max(0, kept.length - RUNTIME_LIMIT));
  await Promise.all([...stale, ...excess].map((request) => cache.delete(request)));
}

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
      .then(pruneRuntime)
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

function partial(body, type, [start, end], size) {
  const headers = new Headers({
    'Content-Type': type || 'application/octet-stream',
    'Content-Range': `bytes ${start}-${end}/${size}`,
    'Content-Length': String(end - start + 1),
    'Accept-Ranges': 'bytes',
  });
  return new Response(body, { status: 206, statusText: 'Partial Content', headers });
}

function unsatisfiable(size) {
  return new Response(null, { status: 416, headers: { 'Content-Range': `bytes */${size}` } });
}

/** A stream filter passing on only bytes `start` to `end` (inclusive) of what flows through. */
function bytesBetween(start, end) {
  let at = 0;
  return new TransformStream({
    transform(chunk, controller) {
      const from = Math.max(0, start - at);
      const to = Math.min(chunk.byteLength, end + 1 - at);
      at += chunk.byteLength;
      if (to > from) controller.enqueue(chunk.subarray(from, to));
      if (at > end) controller.terminate();
    },
  });
}

/** The range of a whole cached response, as a slice of its blob. */
async function fromWhole(whole, request) {
  const body = await whole.blob();
  const range = parseRange(request.headers.get('range'), body.size);
  if (!range) return unsatisfiable(body.size);
  return partial(body.slice(range[0], range[1] + 1), whole.headers.get('Content-Type') || body.type, range, body.size);
}

async function ranged(event, request) {
  const cache = await caches.open(RUNTIME);
  const hit = await cache.match(request.url);
  if (hit) return fromWhole(hit, request);
  const response = await fetch(request.url, { credentials: 'same-origin' });
  if (response.status !== 200 || !response.body) return response;
  const size = Number(response.headers.get('Content-Length'));
  const [toCache, toPage] = response.body.tee();
  const stored = cache.put(request.url, new Response(toCache, { status: 200, headers: response.headers }));
  event.waitUntil(stored.catch(() => {}));
  // Without a plain length (none given, or of a compressed body) the size is known only once
  // the file is whole in the cache.
  if (!(size >= 0) || response.headers.has('Content-Encoding') || !response.headers.has('Content-Length')) {
    await toPage.cancel();
    await stored;
    return fromWhole(await cache.match(request.url), request);
  }
  const asked = parseRange(request.headers.get('range'), size);
  if (!asked) {
    await toPage.cancel();
    return unsatisfiable(size);
  }
  const range = [asked[0], Math.min(asked[1], asked[0] + STREAM_LIMIT - 1)];
  return partial(toPage.pipeThrough(bytesBetween(range[0], range[1])), response.headers.get('Content-Type'), range, size);
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
    event.respondWith(ranged(event, request));
    return;
  }
  event.respondWith(shell ? fromShell(request.mode === 'navigate' ? new Request('index.html') : request) : networkFirst(request));
});
