// Answering in the 10,000-item study, two or more builds side by side: the script time of
// answering a trial and of moving to the next one (as scripts/bench/load.mjs measures them),
// each build once per round, the order reversed every other round (A B, B A, …), so that a
// change is told from the machine's drift and from the first or last place in a round.
//
// For each build it prints every round's medians over 20 trials and their mean; for each build
// after the first, the mean paired difference from the first with a 95% interval (Student's t
// over the rounds).
//
// Usage: node scripts/bench/answering.mjs DIR[=source] [DIR[=source]…] [--rounds N]
//   DIR      a release build (`trunk build --release --dist DIR`), e.g. one of an older commit
//            built in a worktree; `=source` serves it the study file rather than the compiled
//            study (builds from before the annotator's page played compiled studies)
//   --rounds rounds (default 10)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { answerTrials, bigStudy, median } from './large.mjs';
import { inside, launchChromium, serveGzipped } from './serve.mjs';
import { freshPage } from './welcome.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i < 0 ? fallback : args.splice(i, 2)[1];
};
const rounds = Number(option('--rounds', '10'));
const study = bigStudy(root, path.join(root, 'target/bench/load'));
const builds = args.map((arg) => {
  const [dir, kind] = arg.split('=');
  return { name: arg, dir: path.resolve(dir), study: kind === 'source' ? study.source : study.compiled };
});
if (builds.length === 0 || rounds < 2 || builds.some((b) => !fs.existsSync(path.join(b.dir, 'index.html')))) {
  console.error('usage: node scripts/bench/answering.mjs DIR[=source] [DIR[=source]…] [--rounds N ≥ 2]');
  process.exit(2);
}

// Gzip-compressed once, as a static host serves it (serve.mjs); the study under each build's
// studies/.
const { server, origin } = await serveGzipped((pathname) => {
  const found = pathname.match(/^\/d(\d+)\/(.*)$/);
  const build = found && builds[Number(found[1])];
  if (!build) return null;
  const name = found[2] || 'index.html';
  return name === 'studies/bench-10000.json' ? build.study : inside(build.dir, path.join(build.dir, name));
}, { ahead: builds.map((b) => b.study) });
const browser = await launchChromium();

/** One session in build `i`: the medians of answering and of moving on over 20 trials. */
async function session(i) {
  const { context, page, cdp } = await freshPage(browser, null);
  await page.goto(`${origin}/d${i}/index.html?study=studies/bench-10000.json&slot=1`);
  await page.getByRole('button', { name: 'Start', exact: true }).click({ timeout: 120_000 });
  await page.getByRole('button', { name: 'Begin', exact: true }).click({ timeout: 120_000 });
  const { answer, move } = await answerTrials(page, cdp);
  await context.close();
  return { answer: median(answer), move: median(move) };
}

const runs = builds.map(() => []);
for (let r = 0; r < rounds; r++) {
  const order = builds.map((_, i) => i);
  if (r % 2) order.reverse();
  for (const i of order) runs[i].push(await session(i));
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs) => Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / (xs.length - 1));
// Student's t, two-sided 95%, for 1–30 degrees of freedom (scipy.stats.t.ppf(0.975, df)); 1.96
// beyond.
const t975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
  2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056,
  2.052, 2.048, 2.045, 2.042];
const ms = (x) => x.toFixed(2);
console.log(`10,000-item study, no throttling, ${rounds} rounds (medians over 20 trials of Chrome's ScriptDuration, ms)`);
for (const [i, b] of builds.entries()) {
  for (const what of ['answer', 'move']) {
    const xs = runs[i].map((x) => x[what]);
    console.log(`${b.name} ${what === 'answer' ? 'answering' : 'moving on'}: mean ${ms(mean(xs))} | ${xs.map(ms).join(' ')}`);
  }
}
for (let i = 1; i < builds.length; i++) {
  for (const what of ['answer', 'move']) {
    const d = runs[i].map((x, r) => x[what] - runs[0][r][what]);
    const half = (t975[d.length - 2] ?? 1.96) * sd(d) / Math.sqrt(d.length);
    console.log(`${builds[i].name} − ${builds[0].name}, ${what === 'answer' ? 'answering' : 'moving on'}: ${ms(mean(d))} ms (95% ${ms(mean(d) - half)} to ${ms(mean(d) + half)})`);
  }
}
await browser.close();
server.close();
