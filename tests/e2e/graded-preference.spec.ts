// Intent: an annotator answers a graded preference ("how much better", seven points with "Same"
// in the middle) and "Cannot judge" with the keyboard alone, and on a 320 px phone by taps; the
// points wrap on the narrow screen; the downloaded ratings file carries each grade by position
// with its label, and "Cannot judge" as its own kind, never a grade. A researcher reads the graded
// section and the "Cannot judge" counts of a tidy table on the Analyse page.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test, expect, root } from './fixtures';
import type { Page, TestInfo } from '@playwright/test';

const question = 'Which response follows the instruction better, and by how much?';
const labels = [
  'Response A much better',
  'Response A better',
  'Response A slightly better',
  'Same',
  'Response B slightly better',
  'Response B better',
  'Response B much better',
];

async function open(page: Page) {
  await page.goto('index.html?study=studies/pandalm-graded.json&slot=2');
  await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
}

async function downloaded(page: Page, testInfo: TestInfo) {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download ratings (JSON)' }).click(),
  ]);
  const saved = testInfo.outputPath(file.suggestedFilename());
  await file.saveAs(saved);
  return JSON.parse(fs.readFileSync(saved, 'utf8'));
}

test('a graded preference and "Cannot judge" by keyboard alone', async ({ page, errors }, testInfo) => {
  test.setTimeout(120_000);
  await open(page);
  await page.getByRole('button', { name: 'Start' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Begin' }).focus();
  await page.keyboard.press('Enter');
  const heading = page.getByRole('heading', { level: 1 });
  // Trial n: the digit n (1 to 7), then "Same" by T, then "Cannot judge" by 0, and so on.
  const keys = ['1', '2', '3', '4', '5', '6', '7', 't', '0', '6'];
  const want = [-3, -2, -1, 0, 1, 2, 3, 0, null, 2];
  for (let trial = 1; trial <= 10; trial++) {
    await expect(heading).toHaveText(`Trial ${trial}`);
    const group = page.getByRole('radiogroup', { name: question });
    if (trial === 1) {
      // Enter with nothing chosen is refused and says what is missing.
      await page.keyboard.press('Enter');
      await expect(page.getByText(/say how much better one output is/).first()).toBeVisible();
      await expect(group.getByRole('radio')).toHaveCount(8);
      for (const label of [...labels, 'Cannot judge']) {
        await expect(group.getByRole('radio', { name: label, exact: true })).toBeVisible();
      }
    }
    await page.keyboard.press(keys[trial - 1]);
    const name = want[trial - 1] === null ? 'Cannot judge' : labels[(want[trial - 1] as number) + 3];
    await expect(group.getByRole('radio', { name, exact: true })).toBeChecked();
    await page.keyboard.press('Enter');
  }
  await expect(heading).toHaveText('Thank you — you have finished');
  const ratings = await downloaded(page, testInfo);
  ratings.trials.forEach((t: { preference: { kind: string; grade?: number; label?: string } }, i: number) => {
    if (want[i] === null) {
      expect(t.preference).toEqual({ kind: 'cannot_judge' });
    } else {
      expect(t.preference).toEqual({ kind: 'graded', grade: want[i], label: labels[(want[i] as number) + 3] });
    }
  });
  expect(errors).toEqual([]);
});

test('the help lists the keys of a graded preference', async ({ page }) => {
  await open(page);
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Begin' }).click();
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toContainText('Choose that point of a graded preference');
  await expect(help).toContainText('Choose “Cannot judge”, where it is offered');
});

test.describe('on a 320 px phone', () => {
  test.use({ viewport: { width: 320, height: 640 }, hasTouch: true, isMobile: true });

  test('grades and "Cannot judge" by taps, the points wrapping on the screen', async ({ page, errors }, testInfo) => {
    test.setTimeout(120_000);
    await open(page);
    await page.getByRole('button', { name: 'Start' }).tap();
    await page.getByRole('button', { name: 'Begin' }).tap();
    const heading = page.getByRole('heading', { level: 1 });
    for (let trial = 1; trial <= 10; trial++) {
      await expect(heading).toHaveText(`Trial ${trial}`);
      const group = page.getByRole('radiogroup', { name: question });
      const name = trial === 2 ? 'Cannot judge' : labels[(trial - 1) % 7];
      const radio = group.getByRole('radio', { name, exact: true });
      if (trial === 1) {
        // Every point is wholly within the 320 px screen: the row wraps.
        for (const label of [...labels, 'Cannot judge']) {
          const b = await group.getByText(label, { exact: true }).boundingBox();
          expect(b, label).not.toBeNull();
          expect((b?.x ?? -1) >= 0 && (b?.x ?? 0) + (b?.width ?? 999) <= 320, `${label} fits`).toBe(true);
        }
      }
      await group.getByText(name, { exact: true }).tap();
      await expect(radio).toBeChecked();
      await page.getByRole('button', { name: 'Next', exact: true }).tap();
    }
    await expect(heading).toHaveText('Thank you — you have finished');
    const ratings = await downloaded(page, testInfo);
    expect(ratings.trials[0].preference).toEqual({ kind: 'graded', grade: -3, label: labels[0] });
    expect(ratings.trials[1].preference).toEqual({ kind: 'cannot_judge' });
    expect(ratings.trials[3].preference).toEqual({ kind: 'graded', grade: 0, label: 'Same' });
    expect(errors).toEqual([]);
  });
});

test('the Analyse page shows the graded section and the "Cannot judge" counts of a tidy table', async ({ page, errors }) => {
  const table = path.join(root, 'crates/juror-core/tests/reference/graded/graded.csv');
  await page.goto('analyse.html');
  await page.getByLabel('Choose ratings files or CSVs').setInputFiles([table]);
  await expect(page.getByRole('heading', { name: 'Analysis report', exact: true })).toBeVisible();
  const section = page.getByRole('region', { name: 'Graded preferences' });
  await expect(section.getByRole('heading', { name: 'Graded preferences', exact: true })).toBeVisible();
  const means = section.getByRole('table', { name: /the mean grade/ });
  await expect(means.getByRole('row')).toHaveCount(3);
  await expect(means.getByRole('row', { name: /^alpha beta/ })).toContainText('0.167');
  await expect(
    page.getByRole('region', { name: 'Cannot judge' }).getByRole('table', { name: '"Cannot judge" answers per question and system' }),
  ).toBeVisible();
  expect(errors).toEqual([]);
});
