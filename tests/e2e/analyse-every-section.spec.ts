// Intent: the Analyse page shows the whole report, every section of the Markdown report that
// `juror analyze` writes, from the core's one table model: for every example study Juror ships
// with example ratings, each heading of the Markdown is a heading on the page (as often as the
// Markdown has it), and each Markdown table, its header row and every cell, reads the same in a
// table of the page.
import * as path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, root } from './fixtures';
import { cli, dir } from './analysis-helpers';

/** An example study (in assets/studies/ unless `study` is a fixture) and its example ratings. */
interface Case {
  name: string;
  study: string;
  files: string[];
  key?: string;
  judges?: string[];
}

const example = (name: string) => path.join(root, 'assets/studies', `${name}.json`);

const cases: Case[] = [
  {
    name: 'financial-analysis',
    study: example('financial-analysis'),
    files: ['financial-slot1.json', 'financial-slot2.json', 'financial-slot3.json'],
  },
  {
    name: 'hare-personalization, with a judge',
    study: example('hare-personalization'),
    files: ['hare-slot1.json', 'hare-slot2.json', 'hare-slot3.json'],
    judges: ['hare-judge-verdicts.csv'],
  },
  {
    // The pandalm example as `juror seal` seals it, with its key.
    name: 'pandalm (sealed, with its key)',
    study: path.join(dir, 'pandalm-sealed-study.json'),
    key: 'pandalm-key.json',
    files: ['pandalm-slot1.json', 'pandalm-slot2.json', 'pandalm-slot3.json'],
  },
  {
    name: 'reasoning-trajectories',
    study: example('reasoning-trajectories'),
    files: ['trajectories-slot1.json', 'trajectories-slot2.json', 'trajectories-slot3.json'],
  },
  {
    name: 'summeval-esa',
    study: example('summeval-esa'),
    files: ['summeval-esa-spans.csv', 'summeval-esa-scores.csv'],
  },
  { name: 'two-domains', study: example('two-domains'), files: ['two-domains-ratings.csv'] },
  { name: 'work-intake', study: example('work-intake'), files: ['work-intake-slot1.json', 'work-intake-slot2.json'] },
];

/** Text as it reads: runs of white space as one space, trimmed. */
function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Markdown text as it renders: escapes and entities undone. */
function unescape(text: string): string {
  return squash(
    text
      .replace(/\\(.)/g, '$1')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&'),
  );
}

/** A pipe table's row as its cells, split on the pipes that are not escaped. */
function cells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  const out: string[] = [];
  let cell = '';
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === '\\' && i + 1 < inner.length) {
      cell += inner[i] + inner[i + 1];
      i++;
    } else if (inner[i] === '|') {
      out.push(cell);
      cell = '';
    } else {
      cell += inner[i];
    }
  }
  out.push(cell);
  return out.map(unescape);
}

/** The Markdown report's headings and tables (each its header, then its rows). */
function parse(markdown: string): { headings: string[]; tables: string[][][] } {
  const headings: string[] = [];
  const tables: string[][][] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const heading = /^#{1,6} (.*)$/.exec(lines[i]);
    if (heading) {
      headings.push(unescape(heading[1]));
    } else if (lines[i].startsWith('|') && /^\|(?:-{3}:?\|)+$/.test(lines[i + 1] ?? '')) {
      const table = [cells(lines[i])];
      i += 2;
      while (i < lines.length && lines[i].startsWith('|')) table.push(cells(lines[i++]));
      tables.push(table);
    }
  }
  return { headings, tables };
}

/** The page's report: its headings, and its tables as they read (header, then rows). */
async function pageReport(page: Page): Promise<{ headings: string[]; tables: string[][][] }> {
  const report = page.locator('section.report');
  const headings = await report
    .locator('h1, h2, h3, h4, h5, h6')
    .evaluateAll((hs) => hs.map((h) => h.textContent ?? ''));
  const tables = await report.locator('table').evaluateAll((ts) =>
    ts.map((t) =>
      [...t.querySelectorAll('tr')].map((row) =>
        [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''),
      ),
    ),
  );
  return {
    headings: headings.map(squash),
    tables: tables.map((t) => t.map((row) => row.map(squash))),
  };
}

for (const c of cases) {
  test(`every section of the Markdown report of ${c.name} is on the page`, async ({ page, errors }) => {
    const args = ['--study', c.study, ...(c.key ? ['--key', c.key] : []), ...c.files];
    if (c.judges) args.push('--judges', ...c.judges);
    const expected = parse(cli([...args, '--format', 'md']));
    expect(expected.headings.length).toBeGreaterThan(3);
    expect(expected.tables.length).toBeGreaterThan(0);

    await page.goto('analyse.html');
    await page.getByLabel('Choose the study file').setInputFiles(c.study);
    if (c.key) await page.getByLabel('Choose the key').setInputFiles(path.join(dir, c.key));
    if (c.judges) {
      await page.getByLabel("Choose judges' verdicts").setInputFiles(c.judges.map((f) => path.join(dir, f)));
    }
    await page.getByLabel('Choose ratings files or CSVs').setInputFiles(c.files.map((f) => path.join(dir, f)));
    await expect(page.getByRole('button', { name: 'Download report (Markdown)' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: /^Analysing/ })).toHaveCount(0);
    const shown = await pageReport(page);

    // Each heading as often as the Markdown has it.
    const missing: string[] = [];
    const left = [...shown.headings];
    for (const h of expected.headings) {
      const k = left.indexOf(h);
      if (k < 0) missing.push(h);
      else left.splice(k, 1);
    }
    expect(missing, 'headings of the Markdown report missing on the page').toEqual([]);

    // Each table, its header and every row, cell for cell.
    const same = (a: string[][], b: string[][]) => JSON.stringify(a) === JSON.stringify(b);
    const absent = expected.tables.filter((t) => !shown.tables.some((s) => same(s, t)));
    expect(
      absent.map((t) => t[0].join(' | ')),
      'tables of the Markdown report (their headers) not on the page as they are',
    ).toEqual([]);
    expect(errors).toEqual([]);
  });
}
