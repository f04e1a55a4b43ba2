// Intent: an annotator has the same study open in two tabs (a forgotten tab, a second window)
// and answers in both. No answer is lost, and neither tab overwrites the other with a stale copy.
import { test, expect } from './fixtures';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from '@playwright/test';

const study = 'reasoning-trajectories.json';
const slot = 4;
const sha256 = createHash('sha256')
  .update(fs.readFileSync(path.resolve(__dirname, '../../assets/studies', study)))
  .digest('hex');

type Envelope = {
  schema_version: number;
  revision: number;
  progress: { trials: { notes?: string; outputs: { ratings?: Record<string, number> }[] }[] };
};

/** The stored envelope of the study for `slot`: key `juror/v1/<sha256 of the study file>/<slot>`. */
function envelope(page: Page, at = slot): Promise<Envelope> {
  return page.evaluate((k) => JSON.parse(localStorage.getItem(k)!), `juror/v1/${sha256}/${at}`);
}

function scale(page: Page, dimension: string, label: string) {
  return page.getByRole('radiogroup', { name: `${dimension} — Trajectory ${label}` });
}

async function rate(page: Page, dimension: string, label: string, point: string) {
  await scale(page, dimension, label).getByRole('radio', { name: point }).check();
}

async function goTo(page: Page, trial: number) {
  await page.getByRole('button', { name: 'All trials' }).click();
  await page.getByRole('dialog', { name: 'All trials' }).getByRole('button', { name: `Trial ${trial}`, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Trial ${trial}`);
}

/**
 * Makes `page` miss every `storage` event (the other tab's saves) until `hear` is called: a
 * capturing listener, added before the app's, stops each one before the app's listener runs.
 * A frozen tab hears the queued events when it wakes, before it is used again; this one never
 * does, so only the merge of its next save (the stored copy read and joined answer by answer)
 * can keep the other tab's answers. Returns how many events were missed so far.
 */
async function missStorageEvents(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { missStorage: boolean; missed: number };
    w.missStorage = true;
    w.missed = 0;
    window.addEventListener(
      'storage',
      (e) => {
        if (w.missStorage) {
          w.missed += 1;
          e.stopImmediatePropagation();
        }
      },
      true,
    );
  });
  return {
    missed: () => page.evaluate(() => (window as unknown as { missed: number }).missed),
    hear: () => page.evaluate(() => ((window as unknown as { missStorage: boolean }).missStorage = false)),
  };
}

/** Every answer both tabs gave, as the page shows it. */
async function expectEveryAnswer(page: Page) {
  await goTo(page, 1);
  await expect(scale(page, 'Correctness', 'A').getByRole('radio', { name: '5 Correct' })).toBeChecked();
  await expect(scale(page, 'Coherence / Logicality', 'A').getByRole('radio', { name: '4 Good' })).toBeChecked();
  await expect(scale(page, 'Efficiency / Intelligence', 'A').getByRole('radio', { name: '3 Adequate' })).toBeChecked();
  await expect(scale(page, 'Correctness', 'B').getByRole('radio', { name: '1 Wrong' })).toBeChecked();
  await expect(page.locator('fieldset[data-rate] input:checked')).toHaveCount(4);
  await expect(page.getByRole('textbox', { name: 'Notes' })).toHaveValue('Tab one on trial one.');
  await goTo(page, 3);
  await expect(scale(page, 'Correctness', 'A').getByRole('radio', { name: '2 Mostly wrong' })).toBeChecked();
  await expect(scale(page, 'Coherence / Logicality', 'B').getByRole('radio', { name: '5 Excellent' })).toBeChecked();
  await expect(page.locator('fieldset[data-rate] input:checked')).toHaveCount(2);
  await expect(page.getByRole('textbox', { name: 'Notes' })).toHaveValue('Tab two on trial three.');
}

test('answers given in two tabs alternately are all kept, in both tabs and in storage', async ({ page, context, errors }) => {
  const address = `index.html?study=studies/${study}&slot=${slot}`;
  const one = page;
  await one.goto(address);
  await one.getByRole('button', { name: 'Start' }).click();
  await one.getByRole('button', { name: 'Begin' }).click();
  await expect(one.getByRole('heading', { level: 1 })).toHaveText('Trial 1');

  // The second tab opens later and resumes where the first one is.
  const two = await context.newPage();
  const twoErrors: string[] = [];
  two.on('pageerror', (e) => twoErrors.push(`pageerror: ${e.message}`));
  two.on('console', (m) => {
    if (m.type() === 'error') twoErrors.push(`console: ${m.text()}`);
  });
  await two.goto(address);
  await expect(two.getByRole('heading', { level: 1 })).toHaveText('Trial 1');

  // Tab one answers on trial 1; tab two works on trial 3; back and forth.
  await rate(one, 'Correctness', 'A', '5 Correct');
  await goTo(two, 3);
  await rate(two, 'Correctness', 'A', '2 Mostly wrong');
  await rate(one, 'Coherence / Logicality', 'A', '4 Good');
  await two.getByRole('textbox', { name: 'Notes' }).fill('Tab two on trial three.');
  await one.getByRole('textbox', { name: 'Notes' }).fill('Tab one on trial one.');
  // Tab two comes to trial 1 and finds tab one's answers there, then adds one.
  await goTo(two, 1);
  await expect(scale(two, 'Correctness', 'A').getByRole('radio', { name: '5 Correct' })).toBeChecked();
  await expect(two.getByRole('textbox', { name: 'Notes' })).toHaveValue('Tab one on trial one.');
  await rate(two, 'Efficiency / Intelligence', 'A', '3 Adequate');
  // Tab one, still on trial 1, sees it arrive, and answers once more.
  await expect(scale(one, 'Efficiency / Intelligence', 'A').getByRole('radio', { name: '3 Adequate' })).toBeChecked();
  await rate(one, 'Correctness', 'B', '1 Wrong');
  // Tab two goes back to trial 3 for one more answer.
  await goTo(two, 3);
  await rate(two, 'Coherence / Logicality', 'B', '5 Excellent');

  const stored = await envelope(one);
  expect(stored.schema_version).toBe(2);
  const trial1 = stored.progress.trials[0];
  const trial3 = stored.progress.trials[2];
  // Storage leaves out what was not given: an output without ratings has no `ratings`.
  const count = (t: typeof trial1) => t.outputs.reduce((n, o) => n + Object.keys(o.ratings ?? {}).length, 0);
  expect([count(trial1), trial1.notes]).toEqual([4, 'Tab one on trial one.']);
  expect([count(trial3), trial3.notes]).toEqual([2, 'Tab two on trial three.']);
  // Every save counted: at least one per answer above.
  expect(stored.revision).toBeGreaterThanOrEqual(9);

  // Both tabs reload and show everything.
  await Promise.all([one.reload(), two.reload()]);
  await expectEveryAnswer(one);
  await expectEveryAnswer(two);
  expect(errors).toEqual([]);
  expect(twoErrors).toEqual([]);
});

test('a tab that missed the other tab\'s saves does not overwrite them when it is used again', async ({ page, context, errors }) => {
  const address = `index.html?study=studies/${study}&slot=${slot + 1}`;
  const stale = page;
  const deaf = await missStorageEvents(stale);
  await stale.goto(address);
  await stale.getByRole('button', { name: 'Start' }).click();
  await stale.getByRole('button', { name: 'Begin' }).click();
  await expect(stale.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
  // The old tab hears of nothing while the annotator works elsewhere (as a tab the browser froze
  // in the background, to save power, and that missed the other tab's saves).

  // The annotator moves on in another tab: trial 1 done, half of trial 2.
  const fresh = await context.newPage();
  await fresh.goto(address);
  await expect(fresh.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
  const fourth = { Correctness: '4 Nearly right', 'Coherence / Logicality': '4 Good', 'Efficiency / Intelligence': '4 Efficient' };
  for (const [dimension, point] of Object.entries(fourth)) {
    for (const label of ['A', 'B']) await rate(fresh, dimension, label, point);
  }
  await fresh.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(fresh.getByRole('heading', { level: 1 })).toHaveText('Trial 2');
  await rate(fresh, 'Correctness', 'A', '1 Wrong');
  await fresh.close();

  // Back in the old tab, still on trial 1, which adds a note: its save joins what it missed.
  // It missed every save of the other tab: what it knows of them comes from its own save.
  await expect.poll(deaf.missed).toBeGreaterThan(0);
  await expect(stale.locator('fieldset[data-rate] input:checked')).toHaveCount(0);
  await stale.getByRole('textbox', { name: 'Notes' }).fill('Added from the old tab.');
  await expect(stale.locator('fieldset[data-rate] input:checked')).toHaveCount(6);
  // Typing is saved within a moment (one save per burst of keys).
  await expect.poll(async () => (await envelope(stale, slot + 1)).progress.trials[0].notes).toBe('Added from the old tab.');
  await deaf.hear();
  const stored = await envelope(stale, slot + 1);
  expect(stored.progress.trials[0].outputs.map((o) => Object.keys(o.ratings ?? {}).length)).toEqual([3, 3]);
  expect(Object.keys(stored.progress.trials[1].outputs.find((o) => Object.keys(o.ratings ?? {}).length)!.ratings!)).toEqual(['correctness']);

  await stale.reload();
  await expect(stale.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
  await expect(stale.locator('fieldset[data-rate] input:checked')).toHaveCount(6);
  await expect(stale.getByRole('textbox', { name: 'Notes' })).toHaveValue('Added from the old tab.');
  await stale.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(stale.getByRole('heading', { level: 1 })).toHaveText('Trial 2');
  await expect(scale(stale, 'Correctness', 'A').getByRole('radio', { name: '1 Wrong' })).toBeChecked();
  expect(errors).toEqual([]);
});

/**
 * Clicks `radios` (in different tabs) at the same instant: each tab sets a timer for the same
 * time on the shared clock, so that no tab has heard of the other's save when it makes its own.
 */
async function together(radios: Locator[]) {
  const at = Date.now() + 300;
  await Promise.all(
    radios.map((radio) =>
      radio.evaluate(
        (el: HTMLInputElement, at: number) =>
          new Promise<void>((done) => setTimeout(() => (el.click(), done()), at - Date.now())),
        at,
      ),
    ),
  );
  for (const radio of radios) await expect(radio).toBeChecked();
}

test('answers given at the same moment in both tabs are all kept', async ({ page, context, errors }) => {
  // Both tabs save within the few milliseconds a `storage` event takes: equal revisions are
  // taken in too, and store::merge joins the answers of one trial question by question.
  const address = `index.html?study=studies/${study}&slot=${slot + 2}`;
  const one = page;
  await one.goto(address);
  await one.getByRole('button', { name: 'Start' }).click();
  await one.getByRole('button', { name: 'Begin' }).click();
  const two = await context.newPage();
  await two.goto(address);
  await expect(two.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
  // Both tabs on trial 1: each answers a different question at the same moment.
  await together([
    scale(one, 'Correctness', 'A').getByRole('radio', { name: '5 Correct' }),
    scale(two, 'Correctness', 'B').getByRole('radio', { name: '1 Wrong' }),
  ]);
  // Then tab two on trial 3 while tab one stays on trial 1: again at the same moment.
  await goTo(two, 3);
  await together([
    scale(one, 'Coherence / Logicality', 'A').getByRole('radio', { name: '4 Good' }),
    scale(two, 'Correctness', 'A').getByRole('radio', { name: '2 Mostly wrong' }),
  ]);

  await one.reload();
  await two.reload();
  for (const tab of [one, two]) {
    await goTo(tab, 1);
    await expect(scale(tab, 'Correctness', 'A').getByRole('radio', { name: '5 Correct' })).toBeChecked();
    await expect(scale(tab, 'Correctness', 'B').getByRole('radio', { name: '1 Wrong' })).toBeChecked();
    await expect(scale(tab, 'Coherence / Logicality', 'A').getByRole('radio', { name: '4 Good' })).toBeChecked();
    await goTo(tab, 3);
    await expect(scale(tab, 'Correctness', 'A').getByRole('radio', { name: '2 Mostly wrong' })).toBeChecked();
  }
  expect(errors).toEqual([]);
});

test('a score changed in one tab is not put back by a tab that missed the change and adds a note', async ({ page, context, errors }) => {
  const address = `index.html?study=studies/${study}&slot=${slot + 3}`;
  const stale = page;
  const deaf = await missStorageEvents(stale);
  await stale.goto(address);
  await stale.getByRole('button', { name: 'Start' }).click();
  await stale.getByRole('button', { name: 'Begin' }).click();
  await rate(stale, 'Correctness', 'A', '3 Partly right');
  const fresh = await context.newPage();
  await fresh.goto(address);
  await expect(scale(fresh, 'Correctness', 'A').getByRole('radio', { name: '3 Partly right' })).toBeChecked();
  // The old tab stops hearing of the other's saves; the annotator changes the score there.
  await rate(fresh, 'Correctness', 'A', '5 Correct');
  await expect.poll(async () => (await envelope(fresh, slot + 3)).progress.trials[0].outputs[0].ratings).toEqual({ correctness: 5 });
  // The old tab, never having heard of the change, adds a note on the same trial: the changed
  // score stays (a merge that kept the newer trial whole would put 3 back).
  await expect.poll(deaf.missed).toBeGreaterThan(0);
  await expect(scale(stale, 'Correctness', 'A').getByRole('radio', { name: '3 Partly right' })).toBeChecked();
  await stale.getByRole('textbox', { name: 'Notes' }).fill('Added from the old tab.');
  await expect(scale(stale, 'Correctness', 'A').getByRole('radio', { name: '5 Correct' })).toBeChecked();
  await expect(scale(fresh, 'Correctness', 'A').getByRole('radio', { name: '5 Correct' })).toBeChecked();
  await expect(fresh.getByRole('textbox', { name: 'Notes' })).toHaveValue('Added from the old tab.');
  const stored = await envelope(stale, slot + 3);
  await deaf.hear();
  expect(stored.progress.trials[0].outputs[0].ratings).toEqual({ correctness: 5 });
  expect(stored.progress.trials[0].notes).toBe('Added from the old tab.');
  expect(errors).toEqual([]);
});

test('a survey answer changed in one tab stays changed after the other tab saved', async ({ page, context, errors }) => {
  const hare = 'index.html?study=studies/hare-personalization.json&slot=2';
  const one = page;
  await one.goto(hare);
  await one.getByRole('button', { name: 'Start' }).click();
  await one.locator('.consent .actions').getByRole('button').first().click();
  await one.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(one.getByRole('heading', { level: 1 })).toHaveText('Before you start');
  const role = (page: Page) => page.getByRole('radiogroup', { name: 'What is your current role?' });
  await role(one).getByRole('radio', { name: 'Researcher or academic' }).check();
  const two = await context.newPage();
  await two.goto(hare);
  await expect(role(two).getByRole('radio', { name: 'Researcher or academic' })).toBeChecked();
  // Tab one answers another question (and saves); tab two then changes the role.
  await one.getByRole('spinbutton').fill('4');
  await expect(two.getByRole('spinbutton')).toHaveValue('4');
  await role(two).getByRole('radio', { name: 'Student (undergraduate or graduate)' }).check();
  // The new role stays in tab two, reaches tab one, and is what storage holds.
  await expect(role(one).getByRole('radio', { name: 'Student (undergraduate or graduate)' })).toBeChecked();
  await expect(role(two).getByRole('radio', { name: 'Student (undergraduate or graduate)' })).toBeChecked();
  const key = await two.evaluate(() => Object.keys(localStorage).find((k) => k.startsWith('juror/v1/') && k.endsWith('/2'))!);
  const stored = await two.evaluate((k) => JSON.parse(localStorage.getItem(k)!), key);
  expect(stored.progress.intake.role).toEqual({ choice: 'Student (undergraduate or graduate)' });
  expect(stored.progress.intake.experience_years).toEqual({ number: 4 });
  await two.reload();
  await expect(role(two).getByRole('radio', { name: 'Student (undergraduate or graduate)' })).toBeChecked();
  expect(errors).toEqual([]);
});

test('another tab\'s save that does not fit (another version of Juror) is never taken in nor saved over until downloaded', async ({ page, context, errors }) => {
  const address = `index.html?study=studies/${study}&slot=${slot + 5}`;
  const one = page;
  await one.goto(address);
  await one.getByRole('button', { name: 'Start' }).click();
  await one.getByRole('button', { name: 'Begin' }).click();
  await rate(one, 'Correctness', 'A', '3 Partly right');
  await expect.poll(async () => (await envelope(one, slot + 5)).progress.trials[0].outputs[0].ratings).toEqual({ correctness: 3 });
  // A tab running another version of Juror, which plans this study otherwise, saves under the
  // same key (here written by hand from another tab of the site).
  const other = await context.newPage();
  await other.goto('index.html');
  const planted = await other.evaluate((k) => {
    const e = JSON.parse(localStorage.getItem(k)!);
    e.plan = '0123456789abcdef';
    e.revision += 1;
    e.progress.trials[0].notes = 'Written by the other version.';
    const text = JSON.stringify(e);
    localStorage.setItem(k, text);
    return text;
  }, `juror/v1/${sha256}/${slot + 5}`);
  const notice = one.getByRole('status').filter({ hasText: 'Another tab saved answers for this study that this tab cannot take in' });
  await expect(notice).toContainText('(they follow another plan of this study than this tab\'s)');
  // Nothing of it is taken in, and this tab's next answer is not saved over it.
  await expect(one.getByRole('textbox', { name: 'Notes' })).toHaveValue('');
  await rate(one, 'Correctness', 'B', '1 Wrong');
  await expect(one.getByRole('alert').filter({ hasText: 'Your new answers are kept in this tab only until you download' })).toBeVisible();
  expect(await other.evaluate((k) => localStorage.getItem(k), `juror/v1/${sha256}/${slot + 5}`)).toBe(planted);
  // Downloaded, it may be replaced: this tab saves every answer it holds.
  const [download] = await Promise.all([one.waitForEvent('download'), notice.getByRole('button', { name: 'Download the earlier answers' }).click()]);
  expect(await fs.promises.readFile((await download.path())!, 'utf8')).toBe(planted);
  await expect.poll(async () => (await envelope(one, slot + 5)).progress.trials[0].outputs.map((o) => o.ratings)).toEqual([{ correctness: 3 }, { correctness: 1 }]);
  expect(errors).toEqual([]);
});
