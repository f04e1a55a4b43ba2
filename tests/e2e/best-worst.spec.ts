// Intent: an annotator picks the best and the worst of a tuple of outputs (best–worst scaling):
// by keyboard alone (the output's letter for the best, Shift and the letter for the worst), and
// on a 320 px phone by taps; a refused Next says which end is missing; the downloaded ratings
// file has both choices by system, and `juror analyze` on it reports the best–worst counts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { test, expect, root } from './fixtures';
import { compiled } from './compile';
import type { Page } from '@playwright/test';
import { finishStudy } from './session';

/** Five systems, tuples of four: five trials for the one item. */
const study = {
  format: 'juror.study/1',
  id: 'best-worst-cafe',
  title: 'Pick the best and the worst answer',
  instructions: 'Choose the best answer and the worst one.',
  seed: 11,
  systems: ['alpha', 'beta', 'gamma', 'delta', 'epsilon'],
  rubric: { dimensions: [] },
  design: {
    tasks: [
      {
        id: 'bws',
        presentation: 'side_by_side',
        preference: { type: 'best_worst', tuple_size: 4, question: 'Which answer is the best, and which the worst?' },
      },
    ],
  },
  items: [
    {
      id: 'coffee',
      prompt: 'How do I make coffee?',
      outputs: {
        alpha: 'Grind the beans, pour hot water, wait four minutes.',
        beta: 'Use a machine.',
        gamma: 'Boil water and add instant coffee.',
        delta: 'Coffee is a drink.',
        epsilon: 'Put ground coffee in a filter and pour water at 94 °C over it.',
      },
    },
  ],
};

async function openTrial(page: Page) {
  const body = JSON.stringify(study);
  await page.route('**/studies/best-worst-cafe.json', (route) => route.fulfill({ body: compiled(body), contentType: 'application/json' }));
  await page.goto('index.html?study=studies/best-worst-cafe.json&slot=1');
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Begin' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
}

const group = (page: Page, end: 'Best' | 'Worst') => page.getByRole('radiogroup', { name: end });

test('best and worst by keyboard alone, the missing end named', async ({ page }) => {
  await openTrial(page);
  await expect(page.locator('article.output')).toHaveCount(4);
  await page.keyboard.press('a');
  await expect(group(page, 'Best').getByRole('radio', { name: 'Output A' })).toBeChecked();
  await page.keyboard.press('Enter');
  await expect(page.getByText('choose the worst output').first()).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
  // Shift+A makes A the worst: the best moves off it.
  await page.keyboard.press('Shift+A');
  await expect(group(page, 'Worst').getByRole('radio', { name: 'Output A' })).toBeChecked();
  await expect(group(page, 'Best').getByRole('radio', { name: 'Output A' })).not.toBeChecked();
  await page.keyboard.press('c');
  await expect(group(page, 'Best').getByRole('radio', { name: 'Output C' })).toBeChecked();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 2');
  for (let n = 2; n <= 5; n++) {
    await page.keyboard.press('b');
    await page.keyboard.press('Shift+D');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(`Trial ${n}`);
  }
});

test.describe('on a 320 px phone', () => {
  test.use({ viewport: { width: 320, height: 640 }, hasTouch: true, isMobile: true });

test('best and worst by taps, and the ratings file analysed', async ({ page }, testInfo) => {
  await openTrial(page);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(wide).toBeLessThanOrEqual(320);
  await group(page, 'Best').getByRole('radio', { name: 'Output B' }).tap();
  await group(page, 'Worst').getByRole('radio', { name: 'Output D' }).tap();
  await expect(group(page, 'Best').getByRole('radio', { name: 'Output B' })).toBeChecked();
  await expect(group(page, 'Worst').getByRole('radio', { name: 'Output D' })).toBeChecked();
  await finishStudy(page);
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download ratings (JSON)' }).click(),
  ]);
  const saved = testInfo.outputPath(file.suggestedFilename());
  await file.saveAs(saved);
  const ratings = JSON.parse(fs.readFileSync(saved, 'utf8'));
  expect(ratings.trials).toHaveLength(5);
  const first = ratings.trials[0];
  expect(first.preference.kind).toBe('best_worst');
  expect(first.preference.best.position).toBe(2);
  expect(first.preference.worst.position).toBe(4);
  expect(first.preference.best.system).toBe(first.outputs[1].system);
  expect(first.preference.worst.system).toBe(first.outputs[3].system);
  // `juror analyze` on the downloaded file: five judgements, each system shown in four.
  const studyPath = testInfo.outputPath('study.json');
  fs.writeFileSync(studyPath, JSON.stringify(study));
  const juror = path.join(root, 'target/debug/juror');
  const report = JSON.parse(execFileSync(juror, ['analyze', saved, '--study', studyPath, '--format', 'json'], { encoding: 'utf8' }));
  const bws = report.choices.best_worst;
  expect(bws.judgements).toBe(5);
  for (const s of bws.systems) expect(s.shown).toBe(4);
  const best = bws.systems.reduce((n: number, s: { best: number }) => n + s.best, 0);
  expect(best).toBe(5);
  const system = bws.systems.find((s: { system: string }) => s.system === first.preference.best.system);
  expect(system.best).toBeGreaterThan(0);
});
});
