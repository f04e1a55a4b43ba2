// Intent: an annotator on a small phone (320 CSS pixels wide) works through a study without ever
// scrolling the page sideways: long words, code and tables wrap or scroll inside their own box.
import * as path from 'node:path';
import { test, expect, exampleStudies, fixture, root } from './fixtures';
import { answerEverything, finishStudy, openStudy } from './session';
import type { Page } from '@playwright/test';

test.use({ viewport: { width: 320, height: 640 } });

/** Fails with the elements that stick out when the page is wider than the screen. */
async function expectNoSidewaysScroll(page: Page, where: string) {
  const overflow = await page.evaluate(() => {
    const doc = document.documentElement;
    if (doc.scrollWidth <= doc.clientWidth) return null;
    // The outermost elements that stick out, to say what to fix.
    const culprits: string[] = [];
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      const right = el.getBoundingClientRect().right;
      const parent = el.parentElement?.getBoundingClientRect().right ?? 0;
      if (right > doc.clientWidth + 0.5 && parent <= doc.clientWidth + 0.5) {
        culprits.push(`<${el.tagName.toLowerCase()} class="${el.className}"> to ${Math.round(right)} px`);
      }
    }
    return `the page is ${doc.scrollWidth} px wide on a ${doc.clientWidth} px screen: ${culprits.slice(0, 5).join('; ')}`;
  });
  expect(overflow, where).toBeNull();
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 });

for (const { file, rubric } of exampleStudies()) {
  test(`${file}: no page scrolls sideways at 320 px`, async ({ page, errors }) => {
    test.setTimeout(120_000);
    await openStudy(page, file, 1);
    await expectNoSidewaysScroll(page, `${file}: welcome`);
    // Every page up to the third trial, with the overlays over the first one; then the finish.
    let trials = 0;
    await page.getByRole('button', { name: 'Start' }).click();
    while (trials < 3) {
      await expect(heading(page)).toBeVisible();
      const title = (await heading(page).first().textContent()) ?? '';
      await expectNoSidewaysScroll(page, `${file}: ${title}`);
      if (title === 'Consent') {
        await page.locator('.consent .actions button.primary').click();
      } else if (title === 'Instructions') {
        await page.locator('.instructions .actions button.primary').click();
      } else if (title === 'Before you start') {
        await answerEverything(page);
        await page.getByRole('button', { name: 'Continue' }).click();
      } else if (title.startsWith('Trial ')) {
        if (trials === 0) {
          const overlays = [
            ['Rubric', 'Rubric'],
            ['All trials', 'All trials'],
            ['Shortcuts', 'Keyboard shortcuts'],
          ].filter(([button]) => rubric || button !== 'Rubric');
          for (const [button, dialog] of overlays) {
            await page.getByRole('button', { name: button, exact: true }).click();
            await expect(page.getByRole('dialog', { name: dialog })).toBeVisible();
            await expectNoSidewaysScroll(page, `${file}: the ${dialog} overlay`);
            await page.getByRole('dialog', { name: dialog }).getByRole('button', { name: 'Close' }).click();
          }
        }
        await answerEverything(page);
        await expectNoSidewaysScroll(page, `${file}: ${title}, answered`);
        await page.getByRole('button', { name: 'Next', exact: true }).click();
        await expect(heading(page).first()).not.toHaveText(title);
        trials++;
      } else {
        break;
      }
    }
    // The rest of the study (its trials are like those checked), then the finish page.
    await finishStudy(page);
    await expect(heading(page).first()).toHaveText(/^Thank you/);
    await expectNoSidewaysScroll(page, `${file}: finish`);
    expect(errors).toEqual([]);
  });
}

test('the Analyse page with a report: no sideways scroll at 320 px', async ({ page, errors }) => {
  const dir = fixture('analysis');
  await page.goto('analyse.html');
  await expect(page.getByRole('heading', { level: 1, name: 'Analyse ratings' })).toBeVisible();
  await expectNoSidewaysScroll(page, 'Analyse: empty');
  await page.getByLabel('Choose the study file').setInputFiles(path.join(root, 'assets/studies/financial-analysis.json'));
  await page
    .getByLabel('Choose ratings files or CSVs')
    .setInputFiles(['financial-slot1.json', 'financial-slot2.json', 'financial-slot3.json'].map((f) => path.join(dir, f)));
  await expect(page.getByRole('heading', { name: 'Overall quality (quality)', exact: true })).toBeVisible();
  await expectNoSidewaysScroll(page, 'Analyse: a report');
  expect(errors).toEqual([]);
});

test('the banners and the list of saved answers fit a 320 px screen', async ({ page, errors }) => {
  // A private window's banner (a small quota) on a study's welcome page.
  await page.addInitScript(() => {
    navigator.storage.estimate = async () => ({ quota: 60 * 1024 * 1024, usage: 0 });
  });
  await openStudy(page, 'financial-analysis.json', 9);
  await expect(page.getByRole('status').filter({ hasText: 'This looks like a private window' })).toBeVisible();
  await expectNoSidewaysScroll(page, 'private-window banner');
  // Saved answers with a long annotator id, listed where a study cannot be opened.
  await page.goto('index.html?study=studies/financial-analysis.json&annotator=participant-with-a-rather-long-identifier-0123456789');
  await page.getByRole('button', { name: 'Start' }).click();
  // The participant's link fails (moved away; published under its id): their answers are listed.
  await page.goto('index.html?study=studies/moved-away/financial-analysis-2024w10.json&annotator=participant-with-a-rather-long-identifier-0123456789');
  const list = page.getByRole('region', { name: 'Answers saved in this browser' });
  await expect(list.getByRole('button', { name: /^Download financial-analysis-2024w10 — slot \d+, participant-with/ })).toBeVisible();
  await expectNoSidewaysScroll(page, 'saved answers on the problems page');
  expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
});
