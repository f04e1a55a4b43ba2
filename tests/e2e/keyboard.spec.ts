// Intent: an annotator does a whole study without touching the mouse.
import { test, expect } from './fixtures';

test('the work-intake study can be done with the keyboard alone', async ({ page, errors }) => {
  test.setTimeout(120_000);
  await page.goto('index.html?study=studies/work-intake.json&slot=3');
  const start = page.getByRole('button', { name: 'Start' });
  await expect(start).toBeVisible();
  await start.focus();
  await page.keyboard.press('Enter');
  const begin = page.getByRole('button', { name: 'Begin' });
  await begin.focus();
  await page.keyboard.press('Enter');

  const heading = page.getByRole('heading', { level: 1 });
  for (let trial = 1; trial <= 9; trial++) {
    await expect(heading).toHaveText(`Trial ${trial}`);
    // Enter with answers missing is refused and says which.
    if (trial === 1) {
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: '13 answers are missing' })).toBeVisible();
      await expect(page.getByRole('radiogroup', { name: 'Relevance — System A' }).getByRole('radio').first()).toBeFocused();
    }
    // Four outputs x three dimensions: each digit answers the focused question and moves on.
    for (let i = 0; i < 12; i++) await page.keyboard.press(String(1 + (i % 5)));
    await expect(page.locator('fieldset[role="radiogroup"][data-rate] input:checked')).toHaveCount(12);
    // Arrow keys move within a scale (System B's relevance got a 4 from the fourth digit).
    const relevanceB = page.getByRole('radiogroup', { name: 'Relevance — System B' });
    await relevanceB.getByRole('radio', { checked: true }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(relevanceB.getByRole('radio', { checked: true })).toHaveValue('5');
    // The letter of a label chooses the preference.
    await page.keyboard.press('c');
    await expect(page.getByRole('radiogroup', { name: /prefer/ }).getByRole('radio', { name: 'System C' })).toBeChecked();
    await page.keyboard.press('Enter');
  }
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you — you have finished');
  // The download is reachable by keyboard too.
  const download = page.getByRole('button', { name: 'Download ratings (JSON)' });
  await download.focus();
  const [file] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(file.suggestedFilename()).toContain('work-intake');
  expect(errors).toEqual([]);
});

test('shortcuts open the rubric, the trial list and the help, and Escape closes them', async ({ page }) => {
  await page.goto('index.html?study=studies/financial-analysis.json&slot=1');
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Begin' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
  for (const [key, name] of [['r', 'Rubric'], ['l', 'All trials'], ['?', 'Keyboard shortcuts']]) {
    await page.keyboard.press(key);
    await expect(page.getByRole('dialog', { name })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  }
});
