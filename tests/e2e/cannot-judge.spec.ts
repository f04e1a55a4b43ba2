// Intent: an annotator answers "Cannot judge" on a rubric dimension that offers it (`allow_skip`)
// with the keyboard alone (`0` on the score a digit would answer, Space on the checkbox beside a
// slider) and on a 320 px phone by taps; a dimension that does not offer it ignores `0`; "Cannot
// judge" answers a required dimension (Next goes on); the downloaded ratings file lists each
// skipped dimension under the output's `cannot_judge`, never as a score; on survey questions
// (a radio after the options or points) and a per-output multiple choice (a checkbox beside the
// options, which clears them) the answer is `"cannot_judge"`.
import * as fs from 'node:fs';
import { test, expect } from './fixtures';
import { compiled } from './compile';
import type { Locator, Page, TestInfo } from '@playwright/test';

const study = {
  format: 'juror.study/1',
  id: 'skip-kitchen',
  title: 'Kitchen answers',
  instructions: 'Rate each answer. Say “Cannot judge” when you cannot tell.',
  seed: 3,
  systems: ['small', 'big'],
  rubric: {
    dimensions: [
      {
        id: 'correct',
        label: 'Correctness',
        question: 'Would following this answer give a good result?',
        allow_skip: true,
        scale: {
          min: 1,
          max: 3,
          points: [
            { value: 1, label: 'Wrong' },
            { value: 2, label: 'Partly right' },
            { value: 3, label: 'Right' },
          ],
        },
      },
      {
        id: 'clarity',
        label: 'Clarity',
        question: 'How easy is the answer to follow?',
        scale: {
          min: 1,
          max: 3,
          points: [
            { value: 1, label: 'Confusing' },
            { value: 2, label: 'Followable' },
            { value: 3, label: 'Clear' },
          ],
        },
      },
      {
        id: 'overall',
        label: 'Overall',
        question: 'How good is the answer overall?',
        allow_skip: true,
        scale: {
          type: 'slider',
          min: 0,
          max: 100,
          points: [
            { value: 0, label: 'Useless' },
            { value: 100, label: 'Perfect' },
          ],
        },
      },
    ],
  },
  design: { tasks: [{ id: 'rate', title: 'Rate each answer', presentation: 'single' }] },
  items: [
    { id: 'egg', prompt: 'How long should I boil an egg for a runny yolk?', outputs: { small: 'Boil it for 12 minutes.', big: 'Six minutes, then cold water.' } },
    { id: 'rice', prompt: 'How much water for white rice?', outputs: { small: 'Twice as much water as rice.', big: 'About 1.5 parts water to 1 part rice.' } },
  ],
};

type Output = { ratings: Record<string, number>; cannot_judge?: string[] };

async function open(page: Page) {
  const body = JSON.stringify(study);
  await page.route('**/studies/skip-kitchen.json', (route) => route.fulfill({ body: compiled(body), contentType: 'application/json' }));
  await page.goto('index.html?study=studies/skip-kitchen.json&slot=1');
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

function group(page: Page, label: string): Locator {
  return page.getByRole('radiogroup', { name: new RegExp(`^${label}`) });
}

function skipBox(page: Page): Locator {
  return page.getByRole('checkbox', { name: /^Cannot judge: Overall/ });
}

test('"Cannot judge" by keyboard alone: 0 on a score, Space beside a slider', async ({ page, errors }, testInfo) => {
  test.setTimeout(120_000);
  await open(page);
  await page.getByRole('button', { name: 'Start' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Begin' }).focus();
  await page.keyboard.press('Enter');
  const heading = page.getByRole('heading', { level: 1 });
  for (let trial = 1; trial <= 4; trial++) {
    await expect(heading).toHaveText(`Trial ${trial}`);
    const correct = group(page, 'Correctness');
    const clarity = group(page, 'Clarity');
    await expect(correct.getByRole('radio')).toHaveCount(4);
    await expect(clarity.getByRole('radio')).toHaveCount(3);
    if (trial % 2 === 1) {
      // 0: Correctness (the first unanswered score) "Cannot judge", and on to Clarity.
      await page.keyboard.press('0');
      await expect(correct.getByRole('radio', { name: 'Cannot judge' })).toBeChecked();
      await expect(clarity.getByRole('radio').first()).toBeFocused();
      await page.keyboard.press('3');
      await expect(clarity.getByRole('radio', { name: /Clear/ })).toBeChecked();
      // On to the slider; its "Cannot judge" is the checkbox beside it.
      await expect(page.getByRole('slider', { name: /^Overall/ })).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(skipBox(page)).toBeFocused();
      await page.keyboard.press('Space');
      await expect(skipBox(page)).toBeChecked();
    } else {
      await page.keyboard.press('2');
      await expect(correct.getByRole('radio', { name: /Partly right/ })).toBeChecked();
      // Clarity offers no "Cannot judge": 0 does nothing there.
      await page.keyboard.press('0');
      await expect(clarity.getByRole('radio', { checked: true })).toHaveCount(0);
      await page.keyboard.press('1');
      const slider = page.getByRole('slider', { name: /^Overall/ });
      await expect(slider).toBeFocused();
      await page.keyboard.press('ArrowRight');
      await expect(slider).toHaveAttribute('aria-valuetext', '51');
      await page.keyboard.press('Tab');
      await expect(skipBox(page)).not.toBeChecked();
    }
    await page.keyboard.press('Enter');
  }
  await expect(heading).toHaveText('Thank you — you have finished');
  const ratings = await downloaded(page, testInfo);
  expect(ratings.trials).toHaveLength(4);
  ratings.trials.forEach((t: { done: boolean; outputs: Output[] }, i: number) => {
    expect(t.done).toBe(true);
    const o = t.outputs[0];
    if (i % 2 === 0) {
      expect(o.cannot_judge).toEqual(['correct', 'overall']);
      expect(o.ratings).toEqual({ clarity: 3 });
    } else {
      expect(o.cannot_judge).toBeUndefined();
      expect(o.ratings).toEqual({ correct: 2, clarity: 1, overall: 51 });
    }
  });
  expect(errors).toEqual([]);
});

test('the help says what 0 does', async ({ page }) => {
  await open(page);
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Begin' }).click();
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toContainText('Choose “Cannot judge”, where it is offered: for the focused (or next unanswered) score');
});

test.describe('on a 320 px phone', () => {
  test.use({ viewport: { width: 320, height: 640 }, hasTouch: true, isMobile: true });

  test('"Cannot judge" by taps, every choice on the screen', async ({ page, errors }, testInfo) => {
    test.setTimeout(120_000);
    await open(page);
    await page.getByRole('button', { name: 'Start' }).tap();
    await page.getByRole('button', { name: 'Begin' }).tap();
    const heading = page.getByRole('heading', { level: 1 });
    for (let trial = 1; trial <= 4; trial++) {
      await expect(heading).toHaveText(`Trial ${trial}`);
      const correct = group(page, 'Correctness');
      if (trial === 1) {
        // Next before anything: Correctness is missing, and "Cannot judge" answers it.
        await page.getByRole('button', { name: 'Next', exact: true }).tap();
        await expect(correct).toHaveAttribute('aria-invalid', 'true');
        for (const target of [correct.getByText('Cannot judge', { exact: true }), skipBox(page)]) {
          const b = await target.boundingBox();
          expect(b).not.toBeNull();
          expect((b?.x ?? -1) >= 0 && (b?.x ?? 0) + (b?.width ?? 999) <= 320, 'fits the screen').toBe(true);
        }
      }
      await correct.getByText('Cannot judge', { exact: true }).tap();
      await expect(correct.getByRole('radio', { name: 'Cannot judge' })).toBeChecked();
      await group(page, 'Clarity').getByText('Followable', { exact: true }).tap();
      await skipBox(page).tap();
      await expect(skipBox(page)).toBeChecked();
      if (trial === 1) {
        // Taken back, the slider is unanswered again; ticked again, answered.
        await skipBox(page).tap();
        await expect(skipBox(page)).not.toBeChecked();
        await page.getByRole('button', { name: 'Next', exact: true }).tap();
        await expect(page.getByText('Answer needed: move the slider to give a score')).toBeVisible();
        await skipBox(page).tap();
        await expect(skipBox(page)).toBeChecked();
      }
      await page.getByRole('button', { name: 'Next', exact: true }).tap();
    }
    await expect(heading).toHaveText('Thank you — you have finished');
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(wide).toBeLessThanOrEqual(320);
    const ratings = await downloaded(page, testInfo);
    for (const t of ratings.trials as { outputs: Output[] }[]) {
      expect(t.outputs[0].cannot_judge).toEqual(['correct', 'overall']);
      expect(t.outputs[0].ratings).toEqual({ clarity: 2 });
    }
    expect(errors).toEqual([]);
  });
});

test('"Cannot judge" answers survey questions and a per-output multiple choice, and the file says so', async ({ page, errors }, testInfo) => {
  test.setTimeout(120_000);
  const withQuestions = {
    ...study,
    id: 'skip-questions',
    rubric: {
      dimensions: [study.rubric.dimensions[1]],
      output_questions: [
        { id: 'try', prompt: 'When would you try it?', type: 'multiple_choice', options: ['Tonight', 'This week'], allow_skip: true },
      ],
    },
    surveys: {
      intake: [{ id: 'cook', prompt: 'How often do you cook?', type: 'single_choice', options: ['Daily', 'Weekly', 'Rarely'], allow_skip: true }],
      exit: [{
        id: 'ease', prompt: 'How easy was this?', type: 'likert', allow_skip: true,
        scale: { min: 1, max: 3, points: [{ value: 1, label: 'Hard' }, { value: 2, label: 'Fine' }, { value: 3, label: 'Easy' }] },
      }],
    },
  };
  await page.route('**/studies/skip-questions.json', (route) => route.fulfill({ body: compiled(withQuestions), contentType: 'application/json' }));
  await page.goto('index.html?study=studies/skip-questions.json&slot=1');
  await page.getByRole('button', { name: 'Start' }).click();
  await page.locator('.instructions .actions button.primary').click();
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText('Before you start');
  const cook = page.getByRole('radiogroup', { name: /^How often do you cook/ });
  await cook.getByRole('radio', { name: 'Cannot judge' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  for (let trial = 1; trial <= 4; trial++) {
    await expect(heading).toHaveText(`Trial ${trial}`);
    await group(page, 'Clarity').getByRole('radio').first().check();
    const when = page.getByRole('group', { name: /^When would you try it/ });
    const skip = when.getByRole('checkbox', { name: 'Cannot judge' });
    if (trial === 1) {
      // An option given, then "Cannot judge" replaces it; the question is answered either way.
      await when.getByRole('checkbox', { name: 'Tonight' }).check();
      await skip.check();
      await expect(when.getByRole('checkbox', { name: 'Tonight' })).not.toBeChecked();
    } else {
      await when.getByRole('checkbox', { name: 'This week' }).check();
      await expect(skip).not.toBeChecked();
    }
    await page.getByRole('button', { name: 'Next', exact: true }).click();
  }
  await expect(heading).toHaveText('Last questions');
  await page.getByRole('radiogroup', { name: /^How easy was this/ }).getByRole('radio', { name: 'Cannot judge' }).check();
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(heading).toHaveText('Thank you — you have finished');
  const ratings = await downloaded(page, testInfo);
  expect(ratings.intake).toEqual({ cook: 'cannot_judge' });
  expect(ratings.exit).toEqual({ ease: 'cannot_judge' });
  const answers = ratings.trials.map((t: { outputs: { answers?: Record<string, unknown> }[] }) => t.outputs[0].answers);
  expect(answers[0]).toEqual({ try: 'cannot_judge' });
  expect(answers.slice(1)).toEqual(Array(3).fill({ try: { choices: ['This week'] } }));
  expect(errors).toEqual([]);
});
