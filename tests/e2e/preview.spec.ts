// Intent: a researcher checks a study before sending links: `&preview` walks the annotator's
// plan with each output's system shown, plainly marked as a preview, and records nothing.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test, expect, root } from './fixtures';
import { completeStudy } from './session';

test('a preview names each output\'s system, says it is a preview, and saves nothing', async ({ page, errors }) => {
  const study = JSON.parse(fs.readFileSync(path.join(root, 'assets/studies/financial-analysis.json'), 'utf8'));
  await page.goto('index.html?study=studies/financial-analysis.json&slot=1&preview');
  await expect(page.getByRole('status').filter({ hasText: 'Preview.' })).toContainText('nothing you answer is saved');
  await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();

  const shown: string[] = [];
  const trials = await completeStudy(page, async () => {
    const system = page.locator('.preview-system code');
    await expect(system).toHaveCount(1); // one output per trial in this study
    shown.push((await system.textContent()) ?? '');
  });
  expect(trials).toBe(shown.length);
  // Every output named, by the study's own system ids, each system in turn.
  expect(shown.every((s) => study.systems.includes(s))).toBe(true);
  expect(new Set(shown)).toEqual(new Set(study.systems));

  // Nothing was written to storage.
  const saved = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('juror')));
  expect(saved).toEqual([]);
  expect(errors).toEqual([]);
});

test('an annotator\'s link shows no system and no preview banner', async ({ page }) => {
  await page.goto('index.html?study=studies/financial-analysis.json&slot=1');
  await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
  await expect(page.getByText('Preview.')).toHaveCount(0);
  let checked = 0;
  await completeStudy(page, async () => {
    await expect(page.locator('.preview-system')).toHaveCount(0);
    checked++;
  });
  expect(checked).toBeGreaterThan(0);
});
