// Intent: an annotator closes the tab (or the browser crashes) and finds every answer again;
// or moves to another browser with the backup file and continues there.
import { test, expect } from './fixtures';
import { answerEverything, openStudy } from './session';

test('reloading mid-study returns to the same trial with every answer', async ({ page, errors }) => {
  await openStudy(page, 'work-intake.json', 4);
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Begin' }).click();
  const heading = page.getByRole('heading', { level: 1 });
  for (const n of [1, 2]) {
    await expect(heading).toHaveText(`Trial ${n}`);
    await answerEverything(page);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
  }
  await expect(heading).toHaveText('Trial 3');
  // Half of trial 3: one score, a flag and a note.
  await page.getByRole('radiogroup', { name: 'Coherence — System B' }).getByRole('radio', { name: /4 Good/ }).check();
  await page.getByRole('checkbox', { name: 'This output is an error message — System D' }).check();
  // The flag's rule (the work-intake study's: an error message is a 1 everywhere) is said and applied.
  await expect(page.getByText('Ticking it sets every score of this output to 1.').first()).toBeVisible();
  await expect(page.getByRole('radiogroup', { name: 'Coherence — System D' }).getByRole('radio', { name: /^1/ })).toBeChecked();
  await page.getByRole('textbox', { name: 'Notes' }).fill('System D looks like a stack trace.');

  await page.reload();
  await expect(heading).toHaveText('Trial 3');
  await expect(page.getByRole('radiogroup', { name: 'Coherence — System B' }).getByRole('radio', { name: /4 Good/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'This output is an error message — System D' })).toBeChecked();
  await expect(page.getByRole('textbox', { name: 'Notes' })).toHaveValue('System D looks like a stack trace.');
  await expect(page.getByText('Trial 3 of 9 · 2 done')).toBeVisible();
  // Earlier trials kept their answers too.
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(heading).toHaveText('Trial 2');
  await expect(page.locator('fieldset[data-rate] input:checked')).toHaveCount(12);
  expect(errors).toEqual([]);
});

test('a backup file restores the session in a fresh browser', async ({ page, browser, errors }, testInfo) => {
  // The reader of ratings files is a wasm of its own, loaded only when a file is given.
  const readerRequests: string[] = [];
  const reader = /\/juror-ratings-[0-9a-f]+(\.js|_bg\.wasm)$/;
  page.on('request', (r) => {
    if (reader.test(r.url())) readerRequests.push(r.url());
  });
  await openStudy(page, 'financial-analysis.json', 2);
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Begin' }).click();
  const heading = page.getByRole('heading', { level: 1 });
  for (const n of [1, 2, 3]) {
    await expect(heading).toHaveText(`Trial ${n}`);
    await answerEverything(page);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
  }
  await expect(heading).toHaveText('Trial 4');
  await page.getByRole('textbox', { name: 'Notes' }).fill('halfway note');
  const [backup] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Save a backup' }).click(),
  ]);
  const backupPath = testInfo.outputPath(backup.suggestedFilename());
  await backup.saveAs(backupPath);

  // A new browser profile: nothing in storage.
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  other.on('request', (r) => {
    if (reader.test(r.url())) readerRequests.push(r.url());
  });
  await other.goto('index.html?study=studies/financial-analysis.json&slot=3');
  expect(readerRequests).toEqual([]);
  await other.getByText('Continue from a downloaded ratings file').click();
  await other.getByLabel('Restore from file').setInputFiles(backupPath);
  // The backup is slot 2's and this link is slot 3's: the page asks before switching (on a
  // shared device it could be someone else's).
  const whose = other.getByRole('group', { name: 'Whose answers are these?' });
  await expect(whose).toContainText('This file holds the answers of slot 2, not of slot 3 (this link).');
  expect(readerRequests.map((u) => u.replace(/.*\/juror-ratings-[0-9a-f]+/, ''))).toEqual(['.js', '_bg.wasm']);
  await whose.getByRole('button', { name: 'Continue as slot 2' }).click();
  await expect(other.getByRole('heading', { level: 1 })).toHaveText('Trial 4');
  await expect(other).toHaveURL(/slot=2/);
  await expect(other.getByRole('textbox', { name: 'Notes' })).toHaveValue('halfway note');
  await expect(other.getByText('Trial 4 of 50 · 3 done')).toBeVisible();
  // And it sticks: a reload there finds the restored answers.
  await other.reload();
  await expect(other.getByRole('heading', { level: 1 })).toHaveText('Trial 4');
  await fresh.close();
  expect(errors).toEqual([]);
});

test('a damaged backup file is refused with the reason, and nothing changes', async ({ page }, testInfo) => {
  await openStudy(page, 'financial-analysis.json', 1);
  const bad = testInfo.outputPath('bad.json');
  require('node:fs').writeFileSync(bad, '{"format": "juror.ratings/1", "trials": [');
  await page.getByText('Continue from a downloaded ratings file').click();
  await page.getByLabel('Restore from file').setInputFiles(bad);
  await expect(page.getByRole('alert')).toContainText('This file cannot be used');
  await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
});
