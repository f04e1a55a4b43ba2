// The load benchmark: how fast the annotator's page opens on a phone on a train.
//
// Serves the release build (dist/) and the floor page (a minimal Leptos 0.8 page built with the
// same profile, scripts/bench/floor) gzip-compressed, as GitHub Pages does, on 127.0.0.1, and
// drives Debian's Chromium (never a downloaded browser) through cold loads (a fresh context
// each: empty HTTP cache, no service worker) under three conditions:
//
//   none        no throttling
//   fast-3g     1.6 Mbit/s down, 750 kbit/s up, 150 ms latency ("Fast 3G")
//   4g-cpu4     9 Mbit/s down, 1.5 Mbit/s up, 60 ms latency, the CPU slowed 4 times
//
// For the smallest and the largest example study and a generated 10,000-item study (about
// 20 MB, compiled as the build compiles the studies it serves) it prints the median of REPS loads of:
//   welcome      ms from navigation start to the first animation frame after the welcome page's
//                Start button is in the DOM (watched from inside the page: watchForStart)
//   first trial  welcome + the app's own time for each step to Trial 1 (from each click to the
//                next page's heading; the harness's time between steps is not counted)
//   bytes        bytes transferred (compressed) until the welcome page
//   × floor      welcome as a multiple of the floor page's (its Start button, watched alike) in
//                the same run
//   paired       the median over repetitions of welcome / that repetition's floor load
// Each repetition loads the floor page and then each study in turn (interleaved).
// then, for the 10,000-item study without throttling, the script time (Chrome's
// ScriptDuration) of answering a trial and of moving to the next one over 20 trials (median,
// max), and the size of what the session stores.
//
// Usage: scripts/bench/load [--reps N]   (builds what is missing first)
//        node scripts/bench/load.mjs [--dist DIR] [--floor DIR] [--reps N] [--json FILE]
//                                    [--conditions none,fast-3g,4g-cpu4]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { answerTrials, bigStudy, median } from './large.mjs';
import { inside, launchChromium, serveGzipped } from './serve.mjs';
import { conditions, freshPage, watchForStart } from './welcome.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i < 0 ? fallback : args[i + 1];
};
const dist = path.resolve(root, option('--dist', 'dist'));
const floor = path.resolve(root, option('--floor', 'target/bench/floor'));
const reps = Number(option('--reps', '3'));
const jsonOut = option('--json', path.join(root, 'target/bench/load/results.json'));
const work = path.join(root, 'target/bench/load');
const port = 8472;
fs.mkdirSync(work, { recursive: true });

for (const [what, p] of [['release build', path.join(dist, 'index.html')], ['floor page', path.join(floor, 'index.html')]]) {
  if (!fs.existsSync(p)) {
    console.error(`${what} not found: ${p} (scripts/bench/load builds both)`);
    process.exit(2);
  }
}

// ---- The generated 10,000-item study (large.mjs), served compiled. ----
const BIG = 'bench-10000.json';
const big = bigStudy(root, work).compiled;
const only = option('--conditions', 'none,fast-3g,4g-cpu4').split(',');

// ---- A static server with gzip, like GitHub Pages (serve.mjs). ----
const { server } = await serveGzipped((pathname) => {
  if (pathname === `/juror/studies/${BIG}`) return big;
  if (pathname.startsWith('/juror/')) return inside(dist, path.join(dist, pathname.slice(7) || 'index.html'));
  if (pathname.startsWith('/floor/')) return inside(floor, path.join(floor, pathname.slice(7) || 'index.html'));
  return null;
}, { port, ahead: [big] }); // the study compressed before the clock runs, as a static host serves it

const browser = await launchChromium();


/** The value of `probe(arg)` once truthy, checked every animation frame. */
async function when(page, probe, arg) {
  const handle = await page.waitForFunction(probe, arg, { polling: 'raf', timeout: 120_000 });
  return handle.jsonValue();
}
// Probes: performance.now() (ms since navigation start) once the page shows what is awaited.
const hasButton = (name) =>
  [...document.querySelectorAll('button')].some((b) => b.textContent.trim() === name) ? performance.now() : false;
const headingIs = (prefix) => {
  const h = document.querySelector('h1');
  return h !== null && h.textContent.startsWith(prefix) ? performance.now() : false;
};

/** A fresh context and page under `condition`, counting the bytes received. */
async function fresh(condition) {
  const { context, page, cdp } = await freshPage(browser, condition);
  const counter = { bytes: 0 };
  cdp.on('Network.loadingFinished', (e) => { counter.bytes += e.encodedDataLength; });
  // Each click's time, for the app's own time from a click to the next page.
  await page.addInitScript(() => {
    addEventListener('click', () => { window.__clickAt = performance.now(); }, true);
  });
  await page.addInitScript(watchForStart);
  return { context, page, cdp, counter };
}


/** ms from navigation start to the frame that shows the Start button ([`watchForStart`]). */
async function welcomeOf(page) {
  const announced = (m) => m.text() === 'juror-bench: welcome';
  await page.waitForEvent('console', { predicate: announced, timeout: 120_000 });
  return page.evaluate(() => window.__welcomeAt);
}

/** One cold load of the floor page: ms to its Start button. */
async function floorLoad(condition) {
  const { context, page } = await fresh(condition);
  const shown = welcomeOf(page);
  await page.goto(`http://127.0.0.1:${port}/floor/index.html`, { waitUntil: 'commit' });
  const welcome = await shown;
  await context.close();
  return { welcome };
}

/** Clicks `name` and returns the app's time from the click to a heading starting with `next`. */
async function step(page, name, next) {
  await page.getByRole('button', { name, exact: true }).click();
  const done = await when(page, headingIs, next).catch(async (e) => {
    const shown = await page.evaluate(() => document.querySelector('h1')?.textContent).catch(() => '?');
    throw new Error(`after ${name}, no heading "${next}…" (the page shows "${shown}" at ${page.url()}): ${e.message}`);
  });
  const at = await page.evaluate(() => window.__clickAt);
  return done - at;
}

/** One cold load of a study: welcome, first trial, bytes. */
async function studyLoad(condition, study) {
  const { context, page, counter } = await fresh(condition);
  const shown = welcomeOf(page);
  await page.goto(`http://127.0.0.1:${port}/juror/index.html?study=studies/${study}&slot=1`, { waitUntil: 'commit' });
  const welcome = await shown;
  const bytes = counter.bytes;
  let firstTrial = welcome + (await step(page, 'Start', 'Instructions'));
  firstTrial += await step(page, 'Begin', 'Trial 1');
  await context.close();
  return { welcome, firstTrial, bytes };
}

const studies = [['smallest example', 'pandalm.json'], ['largest example', 'financial-analysis.json'], ['generated 10,000 items', BIG]];
const results = { reps, conditions: {}, large: null };
for (const [name, condition] of Object.entries(conditions).filter(([n]) => only.includes(n))) {
  // Interleaved: each repetition loads the floor page, then each study, so that the floor and
  // the pages it is compared with see the same moments of a shared machine (measured in blocks,
  // the floor's median swung 302–784 ms between runs and the ratio with it).
  const floorRuns = [];
  const runs = studies.map(() => []);
  for (let i = 0; i < reps; i++) {
    floorRuns.push(await floorLoad(condition));
    for (const [s, [, study]] of studies.entries()) runs[s].push(await studyLoad(condition, study));
  }
  const floorWelcome = median(floorRuns.map((r) => r.welcome));
  const rows = [{ page: 'floor (minimal Leptos page)', welcome: floorWelcome, firstTrial: null, bytes: null, ratio: 1, paired: 1 }];
  for (const [s, [label, study]] of studies.entries()) {
    const welcome = median(runs[s].map((r) => r.welcome));
    rows.push({
      page: `${label} (${study})`,
      welcome,
      firstTrial: median(runs[s].map((r) => r.firstTrial)),
      bytes: median(runs[s].map((r) => r.bytes)),
      ratio: welcome / floorWelcome,
      // The median of each repetition's page / floor: the same comparison, less swayed by a
      // repetition in which the machine was busy.
      paired: median(runs[s].map((r, i) => r.welcome / floorRuns[i].welcome)),
    });
  }
  results.conditions[name] = rows;
  console.log(`\n${name}: median of ${reps} cold loads, floor and pages in turn`);
  console.log(`${'page'.padEnd(44)} ${'welcome'.padStart(9)} ${'1st trial'.padStart(10)} ${'bytes'.padStart(10)} ${'× floor'.padStart(8)} ${'paired'.padStart(7)}`);
  for (const r of rows) {
    const ms = (x) => (x === null ? '' : `${Math.round(x)} ms`);
    console.log(`${r.page.padEnd(44)} ${ms(r.welcome).padStart(9)} ${ms(r.firstTrial).padStart(10)} ${(r.bytes === null ? '' : r.bytes.toLocaleString('en')).padStart(10)} ${r.ratio.toFixed(2).padStart(8)} ${r.paired.toFixed(2).padStart(7)}`);
  }
}

// ---- The 10,000-item study in use: answering and moving on, and what is stored. ----
{
  const { context, page, cdp } = await fresh(null);
  await page.goto(`http://127.0.0.1:${port}/juror/index.html?study=studies/${BIG}&slot=1`, { waitUntil: 'commit' });
  await when(page, hasButton, 'Start');
  await step(page, 'Start', 'Instructions');
  await step(page, 'Begin', 'Trial 1');
  const { answer, move } = await answerTrials(page, cdp);
  const stored = await page.evaluate(() => {
    let total = 0;
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      total += k.length + (localStorage.getItem(k) ?? '').length;
    }
    return total;
  });
  await context.close();
  const ms = (xs) => ({ median: median(xs), max: Math.max(...xs) });
  results.large = { answer: ms(answer), next: ms(move), storedChars: stored };
  console.log(`\n10,000-item study, no throttling, 20 trials (script time, Chrome's ScriptDuration):`);
  console.log(`  answering a trial (and saving): median ${results.large.answer.median.toFixed(1)} ms, max ${results.large.answer.max.toFixed(1)} ms`);
  console.log(`  moving to the next trial:       median ${results.large.next.median.toFixed(1)} ms, max ${results.large.next.max.toFixed(1)} ms`);
  console.log(`  localStorage after 20 trials:   ${stored.toLocaleString('en')} characters`);
}

fs.writeFileSync(jsonOut, JSON.stringify(results, null, 2));
console.log(`\nresults: ${path.relative(root, jsonOut)}`);
await browser.close();
server.close();
