// What the benchmarks of the 10,000-item study share (load.mjs, answering.mjs): the study
// itself and the 20 trials answered in it.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The median of `xs`. */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * The generated 10,000-item study (pandalm.json's design, items of about 2 KB each, the same
 * words every time) in `work`: `{ source, compiled }`, the study file and the same study
 * compiled as a site's build compiles the studies it serves (the annotator's page plays
 * compiled studies only; `source` is for builds from before that). Kept from an earlier run
 * while this version of Juror still plays it.
 */
export function bigStudy(root, work) {
  const compiled = path.join(work, 'bench-10000.json');
  const source = path.join(work, 'bench-10000.source.json');
  // The CLI: $JUROR, else target/debug/juror, else cargo.
  const built = path.join(root, 'target/debug/juror');
  const [command, ...pre] = process.env.JUROR
    ? [process.env.JUROR]
    : fs.existsSync(built)
      ? [built]
      : ['cargo', 'run', '-q', '--locked', '-p', 'juror-cli', '--'];
  const juror = (stdio, ...args) => execFileSync(command, [...pre, ...args], { cwd: root, stdio });
  if (fs.existsSync(compiled) && fs.existsSync(source)) {
    try {
      juror('ignore', 'validate', compiled);
      return { source, compiled };
    } catch {
      console.error(`${compiled}: compiled by another version of Juror; compiling it again`);
    }
  }
  const template = JSON.parse(fs.readFileSync(path.join(root, 'assets/studies/pandalm.json'), 'utf8'));
  let state = 42;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648);
  const words = 'the a response model answer clear concise sentence rewrite instruction follows better input output task writing project scope rate question'.split(' ');
  const text = (n) => Array.from({ length: n }, () => words[next() % words.length]).join(' ');
  const [a, b] = template.systems;
  template.id = 'bench-10000';
  template.title = 'Load benchmark: 10,000 pairs';
  template.items = Array.from({ length: 10_000 }, (_, i) => ({
    id: `bench-${i}`,
    prompt: `Rewrite the sentence to make it clearer.\n\n**Input:**\n\n> ${text(60)}`,
    outputs: { [a]: text(130), [b]: text(130) },
  }));
  fs.mkdirSync(work, { recursive: true });
  fs.writeFileSync(source, JSON.stringify(template));
  juror('inherit', 'compile', source, '--out', compiled);
  return { source, compiled };
}

const headingIs = (prefix) => {
  const h = document.querySelector('h1');
  return h !== null && h.textContent.startsWith(prefix);
};
const twoFrames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/**
 * Answers `trials` trials of the 10,000-item study on `page`, already at Trial 1: the script
 * time (Chrome's ScriptDuration, through `cdp`, in ms) of each answer (the reducer, the save to
 * localStorage, the re-render) and of each move to the next trial, both taken up to two
 * animation frames after the action.
 */
export async function answerTrials(page, cdp, trials = 20) {
  await cdp.send('Performance.enable');
  const script = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ScriptDuration').value * 1000;
  const answer = [];
  const move = [];
  for (let n = 1; n <= trials; n++) {
    const first = page.getByRole('radiogroup', { name: 'Which response follows the instruction better?' }).getByRole('radio').first();
    await first.waitFor();
    await twoFrames(page);
    let before = await script();
    await first.check();
    await twoFrames(page);
    answer.push((await script()) - before);
    before = await script();
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.waitForFunction(headingIs, `Trial ${n + 1}`, { polling: 'raf', timeout: 60_000 });
    await twoFrames(page);
    move.push((await script()) - before);
  }
  return { answer, move };
}
