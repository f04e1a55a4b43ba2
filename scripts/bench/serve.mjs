// What the annotator's page benchmarks share (load.mjs, compare.mjs, answering.mjs):
// a static server on 127.0.0.1 that sends every file gzip-compressed, as GitHub Pages does, and
// Debian's Chromium (never a downloaded browser).
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { chromium } from '@playwright/test';

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
};

/**
 * Serves on 127.0.0.1 (`port`, or any free one if 0) the file `find(pathname)` names for each
 * request (null: 404), gzip-compressed at level 9 once and kept. Files in `ahead` are compressed
 * before the server listens, so that no load's clock counts their compression.
 * Resolves to `{ server, origin }`.
 */
export async function serveGzipped(find, { port = 0, ahead = [] } = {}) {
  const compressed = new Map();
  const gzipped = (file) => {
    if (!compressed.has(file)) compressed.set(file, zlib.gzipSync(fs.readFileSync(file), { level: 9 }));
    return compressed.get(file);
  };
  for (const file of ahead) gzipped(file);
  const server = http.createServer((req, res) => {
    const file = find(decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname));
    if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    const body = gzipped(file);
    res.writeHead(200, {
      'content-type': types[path.extname(file)] ?? 'application/octet-stream',
      'content-encoding': 'gzip',
      'content-length': body.length,
      'cache-control': 'max-age=600',
    });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

/** `file` if it is `dir` or inside it, else null (a request that climbs out with `..`). */
export const inside = (dir, file) => (file === dir || file.startsWith(dir + path.sep) ? file : null);

/** Debian's headless Chromium, without the background work that would share the CPU. */
export const launchChromium = () =>
  chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync'],
  });
