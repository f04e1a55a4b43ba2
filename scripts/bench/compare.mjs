// Two or more builds of the annotator's page side by side: the welcome page's time on 4G with
// the CPU slowed 4× (as scripts/bench/load.mjs's `4g-cpu4`), each build's loads in alternation
// with the floor page's and the other builds', so that a change is told from the machine's
// drift (on a shared 2-core machine the floor page alone varies by half from load to load).
//
// For each build and study it prints the median welcome time and the median over repetitions
// of welcome / that repetition's floor load ("paired"), with every load's time.
//
// Usage: node scripts/bench/compare.mjs DIR [DIR…] [--reps N] [--studies a.json,b.json]
//   DIR      a release build (`trunk build --release --dist DIR`), e.g. one of an older commit
//            built in a worktree; the floor page is target/bench/floor (scripts/bench/load
//            builds it)
//   --reps   repetitions (default 11); --studies the example studies to load (default the
//            smallest and the largest)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, serveGzipped } from './serve.mjs';
import { conditions, freshPage, watchForStart } from './welcome.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i < 0 ? fallback : args.splice(i, 2)[1];
};
const reps = Number(option('--reps', '11'));
const studies = option('--studies', 'pandalm.json,financial-analysis.json').split(',');
const dists = args.map((d) => path.resolve(d));
const floor = path.join(root, 'target/bench/floor');
if (dists.length === 0 || !fs.existsSync(path.join(floor, 'index.html'))) {
  console.error('usage: node scripts/bench/compare.mjs DIR [DIR…] [--reps N] [--studies a.json,b.json]');
  console.error('(the floor page must be built: scripts/bench/load builds it)');
  process.exit(2);
}

// Every file gzip-compressed before the clock runs, as a static host serves it (serve.mjs).
const served = new Map();
for (const [prefix, dir] of [['/floor/', floor], ...dists.map((d, i) => [`/d${i}/`, d])]) {
  for (const name of fs.readdirSync(dir, { recursive: true })) {
    const file = path.join(dir, name);
    if (fs.statSync(file).isFile()) served.set(prefix + name.split(path.sep).join('/'), file);
  }
}
const { server, origin } = await serveGzipped(
  (pathname) => served.get(pathname.endsWith('/') ? `${pathname}index.html` : pathname),
  { ahead: [...served.values()] },
);
const browser = await launchChromium();

/** One cold load of `url` on 4G with the CPU slowed 4×: ms to the welcome page. */
async function load(url) {
  const { context, page } = await freshPage(browser, conditions['4g-cpu4']);
  await page.addInitScript(watchForStart);
  const shown = page.waitForEvent('console', { predicate: (m) => m.text() === 'juror-bench: welcome', timeout: 60_000 });
  await page.goto(origin + url, { waitUntil: 'commit' });
  await shown;
  const at = await page.evaluate(() => window.__welcomeAt);
  await context.close();
  return at;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const floorTimes = [];
const times = new Map();
for (let r = 0; r < reps; r++) {
  floorTimes.push(await load('/floor/'));
  for (const [i, dist] of dists.entries()) {
    for (const study of studies) {
      const key = `${path.basename(dist)} ${study}`;
      if (!times.has(key)) times.set(key, []);
      times.get(key).push(await load(`/d${i}/index.html?study=studies/${study}&slot=1`));
    }
  }
}
const ms = (x) => String(Math.round(x));
console.log(`floor page: ${ms(median(floorTimes))} ms | ${floorTimes.map(ms).join(' ')}`);
for (const [key, xs] of times) {
  const paired = median(xs.map((x, i) => x / floorTimes[i]));
  console.log(`${key.padEnd(40)} ${ms(median(xs))} ms, paired × floor ${paired.toFixed(2)} | ${xs.map(ms).join(' ')}`);
}
await browser.close();
server.close();
