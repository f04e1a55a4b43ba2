import * as fs from 'node:fs'; import * as http from 'node:http'; import * as path from 'node:path'; import * as zlib from 'node:zlib';
import { chromium } from '@playwright/test';
import { conditions, freshPage, watchForStart } from './scripts/bench/welcome.mjs';
const dists = process.argv.slice(2);
const server = http.createServer((req, res) => { let p = decodeURIComponent(new URL(req.url, 'http://x').pathname); if (p.endsWith('/')) p += 'index.html';
  const m = p.match(/^\/d(\d+)(\/.*)$/); const f = m ? path.join(dists[+m[1]], m[2]) : path.join('target/bench/floor', p.replace(/^\/floor/, ''));
  if (!fs.existsSync(f)) { res.writeHead(404).end(); return; }
  const t = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json' }[path.extname(f)] || 'application/octet-stream';
  const body = zlib.gzipSync(fs.readFileSync(f), { level: 9 });
  res.writeHead(200, { 'content-type': t, 'content-encoding': 'gzip' }); res.end(body); });
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
for (let r = 0; r < 4; r++) for (const [i] of dists.entries()) {
  const { context, page } = await freshPage(browser, conditions['4g-cpu4']);
  await page.addInitScript(watchForStart);
  const shown = page.waitForEvent('console', { predicate: (m) => m.text() === 'juror-bench: welcome', timeout: 60000 });
  await page.goto(`http://127.0.0.1:${server.address().port}/d${i}/index.html?study=studies/pandalm.json&slot=1`, { waitUntil: 'commit' });
  await shown;
  const info = await page.evaluate(() => ({ at: window.__welcomeAt, res: performance.getEntriesByType('resource').map((e) => [e.name.split('/').pop().split('?')[0].slice(-16), Math.round(e.startTime), Math.round(e.responseEnd)]) }));
  console.log(i, Math.round(info.at), info.res.filter(x=>x[1] < info.at).map((x) => x.join(':')).join('  '));
  await context.close();
}
await browser.close(); server.close();
