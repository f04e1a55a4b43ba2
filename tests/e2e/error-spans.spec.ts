// Intent: an annotator marks the errors in an output (error span annotation): by dragging the
// mouse over them, with the keyboard alone, or by tapping a first and a last word on a 320 px
// phone; chooses each error's severity; sees each listed with its text and removes one; finds
// them again after a reload; scores the output on a 0–100 slider; and downloads a ratings file
// whose spans count code points of the output's text (an emoji is one). A refused Next asks for
// the errors first and puts focus on the text.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { test, expect, root } from './fixtures';
import { compiled } from './compile';
import type { Locator, Page } from '@playwright/test';
import { finishStudy } from './session';

/** Two sentences by two systems, each with an emoji before its errors, and the same words to
 * mark whatever the trial's order. */
const study = {
  format: 'juror.study/1',
  id: 'spans-cafe',
  title: 'Mark the errors in short translations',
  instructions: 'Select each error, then say how severe it is. Then score the translation.',
  seed: 5,
  systems: ['alpha', 'beta'],
  rubric: {
    dimensions: [
      {
        id: 'esa',
        label: 'Overall quality',
        question: 'How good is this translation, from 0 to 100?',
        scale: {
          min: 0,
          max: 100,
          labels: 'anchors',
          points: [
            { value: 0, label: 'No meaning kept' },
            { value: 33, label: 'Some meaning kept' },
            { value: 66, label: 'Most meaning kept' },
            { value: 100, label: 'Perfect' },
          ],
        },
      },
    ],
  },
  design: {
    tasks: [
      {
        id: 'esa',
        presentation: 'single',
        spans: { severities: ['minor', 'major'], whole_output: true },
        dimensions: ['esa'],
      },
    ],
  },
  items: [
    {
      id: 'whale',
      prompt: 'Translate: « La baleine a nagé très loin. »',
      outputs: {
        alpha: 'Le café 😀 était froid. The whale swam very far.',
        beta: 'Le café 😀 était chaud. The whale flew very far.',
      },
    },
    {
      id: 'ship',
      prompt: 'Translate: « Le navire est arrivé hier. »',
      outputs: {
        alpha: 'Le café 😀 était bon. The whale sank very far.',
        beta: 'Le café 😀 était bu. The whale ran very far.',
      },
    },
  ],
};

async function openTrial(page: Page) {
  const body = JSON.stringify(study);
  await page.route('**/studies/spans-cafe.json', (route) => route.fulfill({ body: compiled(body), contentType: 'application/json' }));
  await page.goto('index.html?study=studies/spans-cafe.json&slot=1');
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Begin' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
}

function outputText(page: Page): Locator {
  return page.getByRole('textbox', { name: /text; use the arrow keys/ });
}

/** Drags the mouse from the start of word `from` to the end of word `to` in the output. */
async function drag(page: Page, from: string, to: string) {
  const text = outputText(page);
  const a = await text.getByText(from, { exact: true }).boundingBox();
  const b = await text.getByText(to, { exact: true }).boundingBox();
  if (!a || !b) throw new Error('words not on screen');
  await page.mouse.move(a.x + 1, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, b.y + b.height / 2, { steps: 4 });
  await page.mouse.move(b.x + b.width - 1, b.y + b.height / 2, { steps: 4 });
  await page.mouse.up();
}

/** The marked errors, as the list under the output reads them. */
function errors(page: Page): Locator {
  return page.getByRole('list', { name: /^Errors marked in/ }).getByRole('listitem');
}

/** The code point offsets of `word` in `text`. */
function offsets(text: string, word: string): [number, number] {
  const start = [...text.slice(0, text.indexOf(word))].length;
  return [start, start + [...word].length];
}

test('marks errors with the mouse, removes one, and finds them again after a reload', async ({ page }) => {
  await openTrial(page);
  await drag(page, 'whale', 'very');
  const picker = page.getByRole('group', { name: 'Mark the selected error' });
  await expect(picker).toContainText(/Selected: “whale \w+ very”/);
  await picker.getByRole('button', { name: 'Major', exact: true }).click();
  await expect(errors(page)).toHaveCount(1);
  await expect(errors(page).first()).toContainText(/Major error: “whale \w+ very”/);
  // The highlight carries its severity's label, not colour alone.
  await expect(outputText(page).locator('mark.major')).toHaveAttribute('data-label', 'major');
  // The tag takes no underline from its mark: it is not part of the erroneous text.
  const tag = await outputText(page).locator('mark.major').evaluate((m) => {
    const after = getComputedStyle(m, '::after');
    return { display: after.display, line: after.textDecorationLine };
  });
  expect(tag).toEqual({ display: 'inline-block', line: 'none' });

  // An overlapping selection is not offered.
  await drag(page, 'very', 'far');
  await expect(picker).toContainText('overlaps the error');
  await expect(picker.getByRole('button', { name: 'Minor', exact: true })).toHaveCount(0);
  await picker.getByRole('button', { name: 'Cancel' }).click();

  await drag(page, 'café', 'café');
  await picker.getByRole('button', { name: 'Minor', exact: true }).click();
  await expect(errors(page)).toHaveCount(2);
  await expect(errors(page).first()).toHaveText(/^Minor error: “café”/);
  // "No errors" cannot be ticked while errors are marked.
  await expect(page.getByRole('checkbox', { name: /^No errors/ })).toBeDisabled();

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 1');
  await expect(errors(page)).toHaveCount(2);
  await page.getByRole('button', { name: 'Remove minor error “café”' }).click();
  await expect(errors(page)).toHaveCount(1);
  await expect(errors(page).first()).toContainText('Major error');
  await page.reload();
  await expect(errors(page)).toHaveCount(1);
});

test('marks errors, scores and goes on with the keyboard alone', async ({ page }) => {
  await openTrial(page);
  const text = outputText(page);
  // Tab from the trial's heading to the output's text.
  for (let i = 0; i < 10 && !(await text.evaluate((e) => e === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(text).toBeFocused();
  // "Le café 😀 ...": to the end of "Le", past the space, then a word and two characters (the
  // space and the emoji) with Shift.
  await page.keyboard.press('Control+ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Control+Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  await expect(page.getByRole('group', { name: 'Mark the selected error' })).toContainText('Selected: “café 😀”');
  // A digit chooses the severity (and does not score the slider).
  await page.keyboard.press('2');
  await expect(errors(page).first()).toHaveText(/^Major error: “café 😀”/);
  await expect(text).toBeFocused();
  const slider = page.getByRole('slider', { name: /^Overall quality/ });
  await expect(slider).toHaveAttribute('aria-valuetext', 'not answered yet');

  // The next word, then Enter: the picker, where Enter presses "Minor". Enter never goes on.
  await page.keyboard.press('Control+Shift+ArrowRight');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Minor', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(errors(page)).toHaveCount(2);
  await expect(errors(page).nth(1)).toHaveText(/^Minor error: “était”/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 1');

  // An error of the whole output.
  const whole = page.getByRole('button', { name: 'Mark an error of the whole output' });
  for (let i = 0; i < 10 && !(await whole.evaluate((e) => e === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Minor', exact: true })).toBeFocused();
  await page.keyboard.press('1');
  await expect(errors(page).nth(2)).toHaveText(/^Minor error: the whole output/);

  // The score: untouched until moved, then the arrows move it.
  for (let i = 0; i < 10 && !(await slider.evaluate((e) => e === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(slider).toBeFocused();
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await expect(slider).toHaveAttribute('aria-valuetext', '99');
  // On to "Next" (past the optional notes).
  const next = page.getByRole('button', { name: 'Next', exact: true });
  for (let i = 0; i < 5 && !(await next.evaluate((e) => e === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(next).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trial 2');
});

test('a refused Next asks for the errors first and puts focus on the text', async ({ page }) => {
  await openTrial(page);
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(page.getByText('Answer needed: mark the errors, or tick “No errors”')).toBeVisible();
  await expect(outputText(page)).toBeFocused();
  await expect(outputText(page)).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('slider', { name: /^Overall quality/ })).toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('checkbox', { name: /^No errors/ }).check();
  await expect(outputText(page)).not.toHaveAttribute('aria-invalid', 'true');
});

test.describe('on a 320 px phone', () => {
  test.use({ viewport: { width: 320, height: 640 }, hasTouch: true, isMobile: true });

  test('marks an error by tapping its first and last word, and removes it', async ({ page }) => {
    await openTrial(page);
    const text = outputText(page);
    await text.getByText('whale', { exact: true }).tap();
    await text.getByText('far', { exact: true }).tap();
    const picker = page.getByRole('group', { name: 'Mark the selected error' });
    await expect(picker).toContainText(/Selected: “whale \w+ very far”/);
    await picker.getByRole('button', { name: 'Major', exact: true }).tap();
    await expect(errors(page)).toHaveCount(1);
    await expect(errors(page).first()).toContainText(/Major error: “whale \w+ very far”/);
    // Nothing wider than the screen.
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(wide).toBeLessThanOrEqual(320);
    await page.getByRole('button', { name: /^Remove major error/ }).tap();
    await expect(errors(page)).toHaveCount(0);
    await expect(page.getByRole('checkbox', { name: /^No errors/ })).toBeEnabled();
  });
});

test('the downloaded ratings carry the spans in code points', async ({ page }, testInfo) => {
  await openTrial(page);
  const shown = (await outputText(page).textContent()) ?? '';
  await drag(page, 'whale', 'whale');
  await page.getByRole('button', { name: 'Major', exact: true }).click();
  await expect(errors(page)).toHaveCount(1);
  await finishStudy(page);
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download ratings (JSON)' }).click(),
  ]);
  const saved = testInfo.outputPath(file.suggestedFilename());
  await file.saveAs(saved);
  const ratings = JSON.parse(fs.readFileSync(saved, 'utf8'));
  const first = ratings.trials[0].outputs[0];
  const system = first.system as 'alpha' | 'beta';
  const item = study.items.find((i) => i.id === ratings.trials[0].item);
  expect(shown).toBe(item?.outputs[system]);
  const [start, end] = offsets(shown, 'whale');
  // The emoji is one code point (two UTF-16 units): the offsets count it once.
  expect(start).toBe(shown.indexOf('whale') - 1);
  expect(first.spans).toEqual([{ start, end, severity: 'major' }]);
  expect(first.length).toBe([...shown].length);
  // Every other output was seen and said to have no errors, and scored.
  for (const trial of ratings.trials.slice(1)) {
    expect(trial.outputs[0].no_errors).toBe(true);
    expect(trial.outputs[0].ratings.esa).toBe(50);
  }
  // `juror analyze` on the downloaded file reports the error marked, under its system.
  const studyPath = testInfo.outputPath('study.json');
  fs.writeFileSync(studyPath, JSON.stringify(study));
  const juror = path.join(root, 'target/debug/juror');
  const report = JSON.parse(execFileSync(juror, ['analyze', saved, '--study', studyPath, '--format', 'json'], { encoding: 'utf8' }));
  const bySystem = Object.fromEntries(report.spans.systems.map((s: { system: string }) => [s.system, s]));
  expect(bySystem[system].errors).toBe(1);
  expect(bySystem[system].severities).toEqual([{ name: 'major', count: 1, per_output: expect.any(Number) }]);
  const other = system === 'alpha' ? 'beta' : 'alpha';
  expect(bySystem[other].errors).toBe(0);
  expect(bySystem[other].no_errors).toBeGreaterThan(0);
});
