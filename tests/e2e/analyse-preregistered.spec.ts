// Intent: a researcher who pre-registered success criteria and planned tests reads them on the
// Analyse page as the Markdown report (`juror analyze --format md`) has them: the same sections,
// the same rows, from the core's one table model.
//
// The fixtures: `two-domains.json` with `two-domains-ratings.csv` (made-up ratings by six
// annotators over three rounds) and `hare-personalization.json` with three completed ratings
// files; both plans state success criteria over participants and planned tests.
import * as path from 'node:path';
import type { Locator } from '@playwright/test';
import { test, expect, root } from './fixtures';
import { cli, dir } from './analysis-helpers';

const cases = [
  { study: 'two-domains.json', files: ['two-domains-ratings.csv'] },
  { study: 'hare-personalization.json', files: ['hare-slot1.json', 'hare-slot2.json', 'hare-slot3.json'] },
];
const sections = ['Success criteria over participants', 'Planned tests of slopes and preferences'];

/** The rows of the first table of the Markdown section `heading` (a `## ` heading), cells as
 * they read: Markdown's escapes undone. */
function markdownRows(markdown: string, heading: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.indexOf(`## ${heading}`);
  expect(start, `the Markdown report has "## ${heading}"`).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    if (!line.startsWith('|')) {
      if (rows.length > 0) break;
      continue;
    }
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim().replace(/\\(.)/g, '$1')),
    );
  }
  // The header, then the rule under it, then the rows.
  return [rows[0], ...rows.slice(2)];
}

/** The header and the rows of `table` as they read. */
async function pageRows(table: Locator): Promise<string[][]> {
  const head = await table.locator('thead th').allInnerTexts();
  const body = await table.locator('tbody tr').evaluateAll((rows) =>
    rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => (cell.textContent ?? '').trim())),
  );
  return [head.map((h) => h.trim()), ...body];
}

for (const { study, files } of cases) {
  test(`the plan's success criteria and planned tests of ${study} read on the page as in the Markdown report`, async ({
    page,
    errors,
  }) => {
    const studyPath = path.join(root, 'assets/studies', study);
    const markdown = cli(['--study', studyPath, ...files, '--format', 'md']);
    await page.goto('analyse.html');
    await page.getByLabel('Choose the study file').setInputFiles(studyPath);
    await page.getByLabel('Choose ratings files or CSVs').setInputFiles(files.map((f) => path.join(dir, f)));
    await expect(page.getByRole('heading', { name: 'Analysis report', exact: true })).toBeVisible();
    for (const name of sections) {
      const heading = page.getByRole('heading', { name, exact: true });
      await expect(heading).toBeVisible();
      const table = heading.locator('xpath=following-sibling::table[1]');
      expect(await pageRows(table), name).toEqual(markdownRows(markdown, name));
    }
    expect(errors).toEqual([]);
  });
}
