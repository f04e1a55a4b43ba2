// Intent: an annotator types a long note in a long study. Each keystroke must not rewrite the
// whole saved session (hundreds of KB in a 500-trial study: typing jank, and a storage event to
// every other tab), and the last keystroke is never lost, even when the page is closed at once.
import { test, expect } from './fixtures';
import { openStudy } from './session';

test('typing a note saves once per burst of keys, and a reload right after the last key keeps it', async ({ page, errors }) => {
  // Count the app's writes to its own keys.
  await page.addInitScript(() => {
    const original = Storage.prototype.setItem;
    (window as unknown as { jurorWrites: number }).jurorWrites = 0;
    Storage.prototype.setItem = function (key: string, value: string) {
      if (key.startsWith('juror/v1/')) (window as unknown as { jurorWrites: number }).jurorWrites++;
      return original.call(this, key, value);
    };
  });
  await openStudy(page, 'financial-analysis.json', 4);
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Begin' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
  const writes = () => page.evaluate(() => (window as unknown as { jurorWrites: number }).jurorWrites);
  const before = await writes();
  const note = 'The figure in the second paragraph has no source, and the conclusion overreaches.';
  await page.getByRole('textbox', { name: 'Notes' }).pressSequentially(note);
  // A burst of keys is saved within a moment, in far fewer writes than keys.
  await expect.poll(async () => {
    const key = await page.evaluate(() => Object.keys(localStorage).find((k) => k.startsWith('juror/v1/'))!);
    return page.evaluate((k) => JSON.parse(localStorage.getItem(k)!).progress.trials[0].notes, key);
  }).toBe(note);
  const during = (await writes()) - before;
  expect(during).toBeGreaterThan(0);
  expect(during).toBeLessThan(note.length / 4);

  // More keys, then the page is reloaded at once: the pending save is made as the page goes.
  await page.getByRole('textbox', { name: 'Notes' }).press('End');
  await page.keyboard.type(' Last words.');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
  await expect(page.getByRole('textbox', { name: 'Notes' })).toHaveValue(`${note} Last words.`);
  expect(errors).toEqual([]);
});
