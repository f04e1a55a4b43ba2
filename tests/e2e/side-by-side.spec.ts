// Intent: an annotator comparing several outputs side by side on a laptop reads each question
// across the columns on one line: whatever the length of each output, a dimension's scale starts
// at the same height in every column, and a five-point scale's points are not split by its labels.
import { test, expect } from './fixtures';
import { answerEverything, openStudy } from './session';

test.use({ viewport: { width: 1280, height: 800 } });

test('each question starts at the same height in every column of a side-by-side trial', async ({ page, errors }) => {
  await openStudy(page, 'work-intake.json', 1);
  await page.getByRole('button', { name: 'Start' }).click();
  const heading = page.getByRole('heading', { level: 1 });
  for (let title = ''; !title.startsWith('Trial '); title = (await heading.first().textContent()) ?? '') {
    if (title === 'Instructions') await page.locator('.instructions .actions button.primary').click();
    if (title === 'Before you start') {
      await answerEverything(page);
      await page.getByRole('button', { name: 'Continue' }).click();
    }
    await expect(heading.first()).not.toHaveText(title);
  }
  const cards = page.locator('.outputs.several > article.output');
  await expect(cards.nth(1)).toBeVisible();
  const count = await cards.count();
  expect(count).toBeGreaterThan(1);
  // The outputs differ in length, so without alignment their questions would not line up.
  const texts = await cards.locator('.output-text').evaluateAll((els) => els.map((e) => {
    const range = document.createRange();
    range.selectNodeContents(e);
    return range.getBoundingClientRect().height;
  }));
  expect(new Set(texts.map(Math.round)).size).toBeGreaterThan(1);
  for (const name of ['Relevance', 'Completeness', 'Coherence']) {
    const tops: number[] = [];
    const rows: number[] = [];
    for (let i = 0; i < count; i++) {
      const group = cards.nth(i).getByRole('radiogroup', { name: new RegExp(`^${name}`) });
      const box = await group.boundingBox();
      expect(box, `${name} in column ${i + 1}`).not.toBeNull();
      tops.push(Math.round(box!.y));
      // How many lines its five points take.
      const ys = await group.locator('label.point').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
      rows.push(new Set(ys).size);
    }
    // Cards on one row of the grid share their questions' height.
    const cardTops = await cards.evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
    for (let i = 1; i < count; i++) {
      if (cardTops[i] === cardTops[0]) expect(Math.abs(tops[i] - tops[0]), `${name}: column ${i + 1}`).toBeLessThanOrEqual(1);
    }
    expect(new Set(rows).size, `${name}: the same lines in every column`).toBe(1);
  }
  // A hovered point's description opens under the points: nothing above it moves, in its
  // column or the others, so the point stays under the pointer and takes the click.
  const relevance = (i: number) => cards.nth(i).getByRole('radiogroup', { name: /^Relevance/ });
  const point = relevance(1).getByRole('radio').nth(2);
  // Positions in the page (hovering scrolls it).
  const at = async () => Promise.all([0, 1].map((i) => relevance(i).evaluate((e) => Math.round(e.getBoundingClientRect().top + window.scrollY))));
  const before = await at();
  await point.hover();
  await expect(cards.nth(1).locator('.points > .desc:visible')).toHaveCount(1);
  expect(await at()).toEqual(before);
  await point.check();
  await expect(point).toBeChecked();
  expect(errors).toEqual([]);
});
