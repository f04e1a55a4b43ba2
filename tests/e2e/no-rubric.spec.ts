// Intent: an annotator of a study that asks only for preferences (no rated dimension, no worked
// example) is shown no rubric anywhere — no empty "Rubric" heading on the instructions, no Rubric
// button on a trial, no R shortcut in the list or on the keyboard — at 1280 px and on a phone.
import { test, expect } from './fixtures';
import { openStudy } from './session';

for (const width of [1280, 320]) {
  test(`a preferences-only study shows no empty rubric (${width} px)`, async ({ page, errors }) => {
    await page.setViewportSize({ width, height: 800 });
    await openStudy(page, 'pandalm.json', 1);
    await page.getByRole('button', { name: 'Start' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Instructions');
    await expect(page.getByText('Press ? for all keyboard shortcuts.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Rubric' })).toHaveCount(0);
    await expect(page.getByText(/see the rubric again/)).toHaveCount(0);

    await page.getByRole('button', { name: 'Begin' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
    await expect(page.getByRole('button', { name: 'Shortcuts' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Rubric' })).toHaveCount(0);

    // R first, then ?: once the shortcuts are up, R has had its turn and opened nothing.
    await page.keyboard.press('r');
    await page.keyboard.press('?');
    const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(shortcuts).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(1);
    await expect(shortcuts.getByRole('row', { name: /Show the rubric/ })).toHaveCount(0);
    await expect(shortcuts.getByRole('row', { name: /Show these shortcuts/ })).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(errors).toEqual([]);
  });
}
