// Intent: an annotator scores outputs on a continuous slider (`type: "slider"`, 0–100 in steps
// of 5, labelled ends and middle) with the keyboard alone (arrows a step, Page Up/Down a tenth
// of the range, Home/End the ends) and on a 320 px phone by a tap; a slider left untouched is
// refused on Next with the missing answer said; the downloaded ratings file holds the values
// given. The rubric lists a slider's anchors, not one row per score; Enter on the slider goes on;
// a tap on the untouched thumb (its middle) gives that score.
import * as fs from 'node:fs';
import { test, expect } from './fixtures';
import { compiled } from './compile';
import type { Locator, Page } from '@playwright/test';
import { finishStudy } from './session';

const study = {
  format: 'juror.study/1',
  id: 'slider-da',
  title: 'Score short translations',
  instructions: 'Move the slider to score each translation.',
  seed: 3,
  systems: ['alpha', 'beta'],
  rubric: {
    dimensions: [
      {
        id: 'quality',
        label: 'Overall quality',
        question: 'How good is this translation?',
        scale: {
          type: 'slider',
          min: 0,
          max: 100,
          step: 5,
          points: [
            { value: 0, label: 'Nothing right' },
            { value: 50, label: 'Most of it right' },
            { value: 100, label: 'Perfect' },
          ],
        },
      },
    ],
  },
  design: {
    tasks: [{ id: 'score', presentation: 'single', dimensions: ['quality'], order: 'shuffled' }],
  },
  surveys: { exit: [{ id: 'comment', prompt: 'Any comments?', type: 'long_text', required: false }] },
  items: [
    { id: 'cat', prompt: 'Translate: « Le chat dort. »', outputs: { alpha: 'The cat sleeps.', beta: 'The cat is sleeping.' } },
    { id: 'ship', prompt: 'Translate: « Le navire est arrivé. »', outputs: { alpha: 'The ship arrived.', beta: 'The boat is come.' } },
  ],
};

async function openInstructions(page: Page) {
  const body = JSON.stringify(study);
  await page.route('**/studies/slider-da.json', (route) => route.fulfill({ body: compiled(body), contentType: 'application/json' }));
  await page.goto('index.html?study=studies/slider-da.json&slot=1');
  await page.getByRole('button', { name: 'Start' }).click();
}

async function openTrial(page: Page) {
  await openInstructions(page);
  await page.getByRole('button', { name: 'Begin' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
}

function slider(page: Page): Locator {
  return page.getByRole('slider', { name: /^Overall quality/ });
}

/** Tabs until `target` has focus (at most `max` presses). */
async function tabTo(page: Page, target: Locator, max = 15) {
  for (let i = 0; i < max && !(await target.evaluate((e) => e === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

test('the keyboard alone moves the slider a step, a tenth, to either end, and goes on', async ({ page }) => {
  await openTrial(page);
  const s = slider(page);
  await expect(s).toHaveAttribute('aria-valuetext', 'not answered yet');
  await expect(page.getByText('not answered yet', { exact: true })).toBeVisible();
  // The labelled ends and middle are shown beneath.
  for (const label of ['Nothing right', 'Most of it right', 'Perfect']) {
    await expect(page.locator('.slider .anchors')).toContainText(label);
  }
  await tabTo(page, s);
  await page.keyboard.press('ArrowRight');
  await expect(s).toHaveAttribute('aria-valuetext', '55');
  await page.keyboard.press('PageUp');
  await expect(s).toHaveAttribute('aria-valuetext', '65');
  await page.keyboard.press('PageDown');
  await page.keyboard.press('PageDown');
  await expect(s).toHaveAttribute('aria-valuetext', '45');
  await page.keyboard.press('Home');
  await expect(s).toHaveAttribute('aria-valuetext', '0, Nothing right');
  await page.keyboard.press('End');
  await expect(s).toHaveAttribute('aria-valuetext', '100, Perfect');
  await page.keyboard.press('ArrowLeft');
  await expect(s).toHaveAttribute('aria-valuetext', '95');
  await expect(s).not.toHaveClass(/untouched/);
  // A digit gives no score on a slider.
  await page.keyboard.press('3');
  await expect(s).toHaveAttribute('aria-valuetext', '95');
  const next = page.getByRole('button', { name: 'Next', exact: true });
  await tabTo(page, next);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 2');
  // The next trial's slider starts untouched again.
  await expect(slider(page)).toHaveAttribute('aria-valuetext', 'not answered yet');
});

test('the rubric lists the slider\'s anchors, not a row per score', async ({ page }) => {
  await openInstructions(page);
  const table = page.getByRole('table', { name: /Overall quality/ });
  await expect(table).toContainText('Any score from 0 to 100; the rows are its anchors.');
  // A header row and the three labelled points; no column of empty meanings.
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(table.getByRole('columnheader')).toHaveText(['Score', 'Label']);
  await expect(table.getByRole('row').nth(2)).toContainText('Most of it right');
});

test('Enter on the slider goes on to the next trial', async ({ page }) => {
  await openTrial(page);
  const s = slider(page);
  await tabTo(page, s);
  await page.keyboard.press('ArrowRight');
  await expect(s).toHaveAttribute('aria-valuetext', '55');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 2');
});

test('the keyboard goes from the last trial\'s slider to Finish, the step forward first', async ({ page }) => {
  await openTrial(page);
  for (let trial = 1; trial <= 4; trial++) {
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Trial ${trial}`);
    await tabTo(page, slider(page));
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
  }
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Last questions');
  const comment = page.getByRole('textbox', { name: /Any comments/ });
  await tabTo(page, comment);
  await page.keyboard.type('Clear enough.');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Finish' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you — you have finished');
});

test('an untouched slider is refused on Next with the missing answer said', async ({ page }) => {
  await openTrial(page);
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
  await expect(page.getByText('Answer needed: move the slider to give a score')).toBeVisible();
  const s = slider(page);
  await expect(s).toHaveAttribute('aria-invalid', 'true');
  await expect(s).toHaveAccessibleDescription(/Answer needed: move the slider to give a score/);
  await expect(s).toBeFocused();
  // Moving it answers it.
  await page.keyboard.press('ArrowLeft');
  await expect(s).toHaveAttribute('aria-valuetext', '45');
  await expect(s).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 2');
});

test.describe('on a 320 px phone', () => {
  test.use({ viewport: { width: 320, height: 640 }, hasTouch: true, isMobile: true });

  test('a tap on the slider gives the score under the finger', async ({ page }) => {
    await openTrial(page);
    const s = slider(page);
    const box = await s.boundingBox();
    if (!box) throw new Error('the slider is not on screen');
    // A tap four fifths along the track.
    await s.tap({ position: { x: box.width * 0.8, y: box.height / 2 } });
    await expect(s).not.toHaveAttribute('aria-valuetext', 'not answered yet');
    const value = Number((await s.getAttribute('aria-valuetext'))?.split(',')[0]);
    expect(value % 5).toBe(0);
    expect(value).toBeGreaterThanOrEqual(70);
    expect(value).toBeLessThanOrEqual(90);
    // Nothing wider than the screen.
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(wide).toBeLessThanOrEqual(320);
    await page.getByRole('button', { name: 'Next', exact: true }).tap();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 2');
  });

  test('a tap on the untouched thumb in the middle gives its score', async ({ page }) => {
    await openTrial(page);
    const s = slider(page);
    await expect(s).toHaveAttribute('aria-valuetext', 'not answered yet');
    const box = await s.boundingBox();
    if (!box) throw new Error('the slider is not on screen');
    await s.tap({ position: { x: box.width / 2, y: box.height / 2 } });
    await expect(s).toHaveAttribute('aria-valuetext', '50, Most of it right');
    await page.getByRole('button', { name: 'Next', exact: true }).tap();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 2');
  });
});

test('the downloaded ratings hold the values given', async ({ page }, testInfo) => {
  await openTrial(page);
  const given: number[] = [];
  for (let trial = 1; trial <= 4; trial++) {
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Trial ${trial}`);
    const s = slider(page);
    await s.focus();
    await page.keyboard.press('Home');
    for (let k = 0; k < trial * 3; k++) await page.keyboard.press('ArrowRight');
    await expect(s).toHaveAttribute('aria-valuetext', new RegExp(`^${trial * 15}\\b`));
    given.push(trial * 15);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
  }
  await finishStudy(page);
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download ratings (JSON)' }).click(),
  ]);
  const saved = testInfo.outputPath(file.suggestedFilename());
  await file.saveAs(saved);
  const ratings = JSON.parse(fs.readFileSync(saved, 'utf8'));
  const values = ratings.trials.map((t: { outputs: { ratings: { quality: number } }[] }) => t.outputs[0].ratings.quality);
  expect(values).toEqual(given);
});
