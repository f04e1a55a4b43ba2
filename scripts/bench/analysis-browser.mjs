// The analysis benchmark in the browser: how long the Analyse page
// (analyse.html) takes from being given a CSV to showing the whole report, in headless
// Chromium (Debian's /usr/bin/chromium, never a downloaded browser), median of several runs.
//
// Usage: node scripts/bench/analysis-browser.mjs [CSV] [--dist DIR] [--reps N] [--profile]
//   CSV        default target/bench/analysis/ratings.csv (written by scripts/bench/analysis)
//   --dist     the release build to serve (default dist/, made by `trunk build --release`)
//   --reps     runs, each in a fresh page (default 5)
//   --profile  one more run under the Chrome DevTools profiler: where the time goes (WebAssembly,
//              JavaScript glue and DOM, garbage collection), by function
//
// The build is served under /juror/ on 127.0.0.1:8471, as GitHub Pages serves a project site
// (and as playwright.config.ts does on its own port). The clock starts at the file input's
// `change` event (a capturing listener, before the page's own) and stops when the last
// dimension's section is in the DOM (a MutationObserver), then again after the next two
// animation frames (painted). The page computes the report with the command line's defaults,
// 2000 bootstrap resamples, and also the merged CSV for its download button.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const value = args[i + 1];
  args.splice(i, 2);
  return value;
};
const profile = args.includes('--profile');
if (profile) args.splice(args.indexOf('--profile'), 1);
const dist = path.resolve(root, option('--dist', 'dist'));
const reps = Number(option('--reps', '5'));
const csv = path.resolve(root, args[0] ?? 'target/bench/analysis/ratings.csv');
const port = 8471;

for (const [what, p] of [['CSV', csv], ['release build', path.join(dist, 'index.html')]]) {
  if (!fs.existsSync(p)) {
    console.error(`${what} not found: ${p}`);
    process.exit(2);
  }
}

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
};
const server = http.createServer((req, res) => {
  const url = new URL(req.url, `http://127.0.0.1:${port}`);
  const rel = decodeURIComponent(url.pathname).replace(/^\/juror\//, '');
  const file = path.join(dist, rel || 'index.html');
  if (!url.pathname.startsWith('/juror/') || !file.startsWith(dist) || !fs.existsSync(file)
      || fs.statSync(file).isDirectory()) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
  fs.createReadStream(file).pipe(res);
});
await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync'],
});

const DIMENSIONS = 4;

/** One run in a fresh page: milliseconds from the change event to the report in the DOM. */
async function run(withProfile) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`http://127.0.0.1:${port}/juror/analyse.html`);
  await page.getByRole('heading', { level: 1, name: 'Analyse ratings' }).waitFor();
  await page.evaluate((dimensions) => {
    window.__bench = {};
    document.addEventListener('change', () => { window.__bench.change = performance.now(); },
                              { capture: true });
    const observer = new MutationObserver(() => {
      if (window.__bench.shown === undefined
          && document.querySelectorAll('section.dimension').length >= dimensions) {
        window.__bench.shown = performance.now();
        observer.disconnect();
        requestAnimationFrame(() => requestAnimationFrame(() => {
          window.__bench.painted = performance.now();
        }));
      }
    });
    observer.observe(document.body, { childList: true, subtree: true });
  }, DIMENSIONS);
  let cdp;
  if (withProfile) {
    cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
    await cdp.send('Profiler.start');
  }
  await page.getByLabel('Choose ratings files or CSVs').setInputFiles(csv);
  await page.waitForFunction(() => window.__bench.painted !== undefined, null,
                             { timeout: 300_000, polling: 100 });
  const marks = await page.evaluate(() => ({
    ...window.__bench,
    elements: document.getElementsByTagName('*').length,
    rows: document.querySelectorAll('tr').length,
    heading: document.getElementById('report-heading')?.textContent ?? null,
    problems: document.querySelector('.problems-table') ? 'problems shown' : 'no problems',
  }));
  let byFunction;
  if (withProfile) {
    const { profile: p } = await cdp.send('Profiler.stop');
    byFunction = summarise(p);
  }
  await context.close();
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
  return { toDom: marks.shown - marks.change, toPaint: marks.painted - marks.change, marks,
           byFunction };
}

/** Self time of a CPU profile grouped by kind and by function. */
function summarise(p) {
  const self = new Map();
  const nodes = new Map(p.nodes.map((n) => [n.id, n]));
  const deltas = p.timeDeltas;
  for (let i = 0; i < p.samples.length; i++) {
    const n = nodes.get(p.samples[i]);
    const dt = (deltas[i + 1] ?? 0) / 1000;
    const f = n.callFrame;
    const kind = f.url.endsWith('.wasm') || f.url.startsWith('wasm://') ? 'wasm'
      : f.functionName.startsWith('(') ? f.functionName
      : f.url ? 'js' : 'native (DOM, built-ins)';
    const key = `${kind}\t${f.functionName || '(anonymous)'}`;
    self.set(key, (self.get(key) ?? 0) + dt);
  }
  const kinds = new Map();
  for (const [key, ms] of self) {
    const kind = key.split('\t')[0];
    kinds.set(kind, (kinds.get(kind) ?? 0) + ms);
  }
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 25);

  // Total (inclusive) time per function: each sample counts once for every distinct function
  // on its stack.
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const total = new Map();
  for (let i = 0; i < p.samples.length; i++) {
    const dt = (deltas[i + 1] ?? 0) / 1000;
    const names = new Set();
    for (let id = p.samples[i]; id !== undefined; id = parent.get(id)) {
      const name = nodes.get(id).callFrame.functionName;
      if (name && !name.startsWith('(')) names.add(name.replace(/::h[0-9a-f]{16}$/, ''));
    }
    for (const name of names) total.set(name, (total.get(name) ?? 0) + dt);
  }
  const inclusive = [...total].filter(([name]) => /juror|analy[sz]|leptos|tachys|csv/i.test(name))
    .sort((a, b) => b[1] - a[1]).slice(0, 30);
  return { kinds: [...kinds].sort((a, b) => b[1] - a[1]), top, inclusive };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

let status = 0;
try {
  console.log(`Analyse page, ${path.relative(root, csv)} (${(fs.statSync(csv).size / 1e6).toFixed(1)} MB), `
              + `build ${path.relative(root, dist) || '.'}, ${reps} run(s)`);
  const runs = [];
  for (let i = 0; i < reps; i++) {
    const r = await run(false);
    runs.push(r);
    console.log(`  run ${i + 1}: report in the DOM after ${(r.toDom / 1000).toFixed(2)} s, `
                + `painted after ${(r.toPaint / 1000).toFixed(2)} s`);
  }
  const m = runs[0].marks;
  console.log(`page: ${m.elements} elements, ${m.rows} table rows; ${m.problems}`);
  console.log(`median: ${(median(runs.map((r) => r.toDom)) / 1000).toFixed(2)} s to the DOM, `
              + `${(median(runs.map((r) => r.toPaint)) / 1000).toFixed(2)} s to paint`);
  if (profile) {
    const r = await run(true);
    console.log(`profiled run: ${(r.toPaint / 1000).toFixed(2)} s to paint (the profiler slows it down)`);
    console.log('self time by kind:');
    for (const [kind, ms] of r.byFunction.kinds) console.log(`  ${(ms / 1000).toFixed(2)} s  ${kind}`);
    console.log('self time by function (top 25):');
    for (const [key, ms] of r.byFunction.top) {
      const [kind, name] = key.split('\t');
      console.log(`  ${(ms / 1000).toFixed(3)} s  ${kind}  ${name}`);
    }
    console.log('total time by function, Juror, Leptos and CSV functions (top 30; needs a build '
                + 'with names, see docs/benchmarks.md):');
    for (const [name, ms] of r.byFunction.inclusive) {
      console.log(`  ${(ms / 1000).toFixed(3)} s  ${name}`);
    }
  }
} catch (e) {
  console.error(e);
  status = 1;
} finally {
  await browser.close();
  server.close();
}
process.exit(status);
