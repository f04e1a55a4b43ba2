// Intent: no system identifier reaches the annotator's page. Each system id of an example study is
// replaced, everywhere it is an id, by a token that cannot occur by chance; then one annotator goes
// through every page of their plan (welcome, consent, instructions, surveys, every trial, the
// refused-Next list, the overlays, the finish page) and no token may appear in the DOM, the title,
// the address or the console.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, root } from './fixtures';
import { compiled } from './compile';

type Study = {
  title: string;
  systems: string[];
  consent?: { agree_label?: string };
  design: {
    attention_checks?: { kind: string; system?: string; accept: (string | number)[] }[];
    tasks: { pairs?: { anchor?: string; list?: string[][] } }[];
  };
  surveys?: { intake?: Question[]; exit?: Question[] };
  items: { outputs: Record<string, string> }[];
  analysis?: unknown;
};
type Question = { prompt: string; type: string; min_selected?: number };

function readStudy(file: string): Study {
  return JSON.parse(fs.readFileSync(path.join(root, 'assets/studies', file), 'utf8'));
}

/** The study with every system id replaced by `SYSID-<n>-zq` where it is an id, and the tokens. */
function tokenize(study: Study): { study: Study; tokens: string[] } {
  // The analysis plan names systems: a study served to annotators does not carry it
  // (`juror publish` keeps it in the key).
  delete study.analysis;
  const token = new Map(study.systems.map((s, i) => [s, `SYSID-${i + 1}-zq`]));
  const swap = (s: string) => token.get(s) ?? s;
  study.systems = study.systems.map(swap);
  for (const item of study.items) {
    item.outputs = Object.fromEntries(Object.entries(item.outputs).map(([s, text]) => [swap(s), text]));
  }
  for (const task of study.design.tasks) {
    if (task.pairs?.anchor) task.pairs.anchor = swap(task.pairs.anchor);
    if (task.pairs?.list) task.pairs.list = task.pairs.list.map((pair) => pair.map(swap));
  }
  for (const check of study.design.attention_checks ?? []) {
    if (check.system) check.system = swap(check.system);
    if (check.kind === 'preference') check.accept = check.accept.map((a) => swap(String(a)));
  }
  return { study, tokens: [...token.values()] };
}

/** What the annotator's browser holds at one moment: page, title, address, field values. */
type Snapshot = { html: string; title: string; url: string; values: string[]; attributes: string[]; texts: string[] };

async function snapshot(page: Page): Promise<Snapshot> {
  return page.evaluate(() => {
    const all = [...document.querySelectorAll('*')];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const texts: string[] = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n.textContent ?? '');
    return {
      html: document.documentElement.outerHTML,
      title: document.title,
      url: location.href,
      values: all
        .filter((e): e is HTMLInputElement | HTMLTextAreaElement => 'value' in e)
        .map((e) => String(e.value)),
      attributes: all.flatMap((e) => [...e.attributes].map((a) => a.value)),
      texts,
    };
  });
}

/** A check of one snapshot plus the console so far, given where the annotator is. */
type Leak = (where: string, s: Snapshot, console: string[]) => void;

function noneOf(ids: string[]): Leak {
  return (where, s, console) => {
    for (const id of ids) {
      const needle = id.toLowerCase();
      const places: [string, string][] = [
        ['DOM', s.html],
        ['document.title', s.title],
        ['URL', decodeURIComponent(s.url)],
        ['a field value', s.values.join('\n')],
        ['the console', console.join('\n')],
      ];
      for (const [place, text] of places) {
        expect(text.toLowerCase().includes(needle), `${id} in ${place} on ${where}`).toBe(false);
      }
    }
  };
}

/** Collects every console message and page error of the page, for the leak checks. */
function listen(page: Page): string[] {
  const messages: string[] = [];
  page.on('console', (m) => messages.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => messages.push(`pageerror: ${e.message}\n${e.stack ?? ''}`));
  return messages;
}

/** Answers every question on the page so that Next, Continue or Finish is accepted. */
async function answerAll(page: Page, study: Study) {
  const main = page.locator('main');
  for (const group of await main.locator('[role=radiogroup]').all()) {
    await group.getByRole('radio').first().check();
  }
  const questions = [...(study.surveys?.intake ?? []), ...(study.surveys?.exit ?? [])];
  for (const group of await main.locator('fieldset.choices').all()) {
    const name = await group.getAttribute('aria-label');
    const needed = Math.max(1, questions.find((q) => q.prompt === name)?.min_selected ?? 1);
    const boxes = group.getByRole('checkbox');
    for (let i = 0; i < needed; i++) await boxes.nth(i).check();
  }
  for (const number of await main.locator('input[type=number]').all()) await number.fill('3');
  for (const confirm of await main.getByRole('button', { name: 'This order is right' }).all()) {
    await confirm.click();
  }
}

/** Opens an overlay with its button, checks the page, and closes it. */
async function throughOverlay(page: Page, button: string, dialog: string, check: (where: string) => Promise<void>) {
  await page.getByRole('button', { name: button }).click();
  await expect(page.getByRole('dialog', { name: dialog })).toBeVisible();
  await check(`the ${dialog} overlay`);
  await page.getByRole('dialog', { name: dialog }).getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

/** Goes through the whole study as the annotator of slot 1, calling `leak` on every page. */
async function walkStudy(page: Page, file: string, study: Study, body: string, leak: Leak) {
  const consoleMessages = listen(page);
  await page.route(`**/studies/${file}`, (route) => route.fulfill({ body: compiled(body), contentType: 'application/json' }));
  // Media are not what this spec is about. The page asks for an item's image relative to the page
  // (/media/x.svg) rather than to the study file (/studies/media/x.svg, as docs/study-format.md
  // says), a 404 that would fail the test for the wrong reason; serve the file at either address.
  await page.route('**/media/*', (route) => {
    const name = path.basename(new URL(route.request().url()).pathname);
    const file = path.join(root, 'assets/studies/media', name);
    return fs.existsSync(file)
      ? route.fulfill({ path: file, contentType: 'image/svg+xml' })
      : route.fulfill({ status: 404 });
  });
  const check = async (where: string) => leak(where, await snapshot(page), consoleMessages);
  // The page's own heading (Markdown in the study may hold more h1 elements, without an id).
  const h1 = page.locator('main section > h1[id]');

  await page.goto(`index.html?study=studies/${file}&slot=1`);
  await expect(h1).toHaveText(study.title);
  await check('the welcome page');
  await page.getByRole('button', { name: 'Start' }).click();

  if (study.consent) {
    await expect(h1).toHaveText('Consent');
    await check('the consent page');
    await page.getByRole('button', { name: study.consent.agree_label ?? 'I agree' }).click();
  }

  await expect(h1).toHaveText('Instructions');
  await check('the instructions page');
  const intake = study.surveys?.intake ?? [];
  await page.getByRole('button', { name: intake.length > 0 ? 'Continue' : 'Begin', exact: true }).click();

  if (intake.length > 0) {
    await expect(h1).toHaveText('Before you start');
    await check('the intake survey');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: /missing/ })).toBeVisible();
    await check('the intake survey with its missing answers');
    await answerAll(page, study);
    await check('the answered intake survey');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
  }

  const progress = page.locator('.progress-text');
  await expect(progress).toHaveText(/^Trial 1 of \d+/);
  const total = Number((await progress.textContent())!.match(/^Trial 1 of (\d+)/)![1]);
  let visited = 0;
  for (let k = 1; k <= total; k++) {
    await expect(h1).toHaveText(`Trial ${k}`);
    await expect(progress).toHaveText(new RegExp(`^Trial ${k} of ${total}\\b`));
    await check(`trial ${k}`);
    if (k === 1) {
      await page.getByRole('button', { name: 'Next' }).click();
      await expect(page.getByRole('alert').filter({ hasText: /missing/ })).toBeVisible();
      await check('trial 1 after a refused Next');
      await throughOverlay(page, 'Rubric', 'Rubric', check);
      await throughOverlay(page, 'All trials', 'All trials', check);
      await throughOverlay(page, 'Shortcuts', 'Keyboard shortcuts', check);
    }
    await answerAll(page, study);
    await check(`trial ${k}, answered`);
    await page.getByRole('button', { name: 'Next' }).click();
    visited++;
  }
  expect(visited).toBe(total);

  if ((study.surveys?.exit ?? []).length > 0) {
    await expect(h1).toHaveText('Last questions');
    await check('the exit survey');
    await answerAll(page, study);
    await check('the answered exit survey');
    await page.getByRole('button', { name: 'Finish' }).click();
  }

  await expect(h1).toHaveText('Thank you — you have finished');
  await check('the finish page');
  await page.getByRole('button', { name: 'Review or change an answer' }).click();
  await expect(page.getByRole('dialog', { name: 'All trials' })).toBeVisible();
  await check('the trial list from the finish page');
  return total;
}

for (const file of ['work-intake.json', 'hare-personalization.json', 'reasoning-trajectories.json']) {
  test(`no system id of ${file} reaches the annotator (ids replaced by tokens)`, async ({ page, errors }) => {
    test.setTimeout(240_000);
    const { study, tokens } = tokenize(readStudy(file));
    const body = JSON.stringify(study);
    for (const t of tokens) expect(body).toContain(t);
    await walkStudy(page, `blinding-${file}`, study, body, noneOf(['SYSID', ...tokens]));
    expect(errors).toEqual([]);
  });
}

test('no system id of the unmodified reasoning-trajectories.json reaches the annotator', async ({ page, errors }) => {
  test.setTimeout(240_000);
  const text = fs.readFileSync(path.join(root, 'assets/studies/reasoning-trajectories.json'), 'utf8');
  const study: Study = JSON.parse(text);
  expect(study.systems).toEqual(['rft-base', 'rft-coherence', 'rft-full', 'online']);
  // "rft-base", "rft-coherence" and "rft-full" cannot occur by chance: none may appear anywhere.
  const distinctive = noneOf(['rft-base', 'rft-coherence', 'rft-full']);
  // "online" is an ordinary word. It is not in this study's texts today (only as an id), but it
  // could legitimately be in an output, an instruction or the app's own text, so the check is
  // the narrow one: never an attribute value, never the id on its own or next to a label.
  const online: Leak = (where, s, console) => {
    const asWord = /(^|[^a-z0-9_-])online($|[^a-z0-9_-])/i;
    expect(s.attributes.filter((a) => asWord.test(a)), `"online" in an attribute on ${where}`).toEqual([]);
    const nextToLabel = /^\s*online\s*$|Trajectory [A-Z]+\W{0,3}online|online\W{0,3}Trajectory [A-Z]+/i;
    expect(s.texts.filter((t) => nextToLabel.test(t)), `"online" as an id in a text on ${where}`).toEqual([]);
    expect(nextToLabel.test(s.html.replace(/<[^>]*>/g, ' ')), `"online" next to a label on ${where}`).toBe(false);
    expect(asWord.test(s.title) || asWord.test(s.url), `"online" in the title or URL on ${where}`).toBe(false);
    expect(console.filter((m) => asWord.test(m)), `"online" in the console on ${where}`).toEqual([]);
  };
  const both: Leak = (where, s, console) => {
    distinctive(where, s, console);
    online(where, s, console);
  };
  const total = await walkStudy(page, 'reasoning-trajectories-unmodified.json', study, text, both);
  expect(total).toBeGreaterThan(study.items.length);
  expect(errors).toEqual([]);
});
