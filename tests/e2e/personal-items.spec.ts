// Intent: in the second phase of a personalisation study, published with its participants
// listed (`juror publish --annotators`), the annotator p01 rates the items written for p01 and
// the shared one, never another participant's, with no system named anywhere on the way; the
// ratings file they download goes through `juror analyze` with their personal items in it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { test, expect, root } from './fixtures';
import { downloadFile, juror, publishStudy } from './analysis-helpers';
import { completeStudy } from './session';

test('a participant rates their own items, never another participant’s, and the report has them', async ({ page, errors }, testInfo) => {
  const original = path.join(root, 'assets/studies/personal-items.json');
  const study = JSON.parse(fs.readFileSync(original, 'utf8'));
  const prompt = (id: string) => study.items.find((i: { id: string }) => i.id === id).prompt.replace(/^\*\*Round \d of \d\.\*\* /, '');
  const list = testInfo.outputPath('participants.txt');
  fs.mkdirSync(path.dirname(list), { recursive: true });
  fs.writeFileSync(list, '# phase two\np01\np02\np03\n');
  // Published blind, without --allow-named: nothing in the study's text names a system.
  const published = publishStudy(original, 'personal-items', ['--annotators', list]);

  await page.goto(`${published.url}&annotator=p01`);
  const seen: string[] = [];
  const trials = await completeStudy(page, async () => {
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Trial /);
    seen.push(await page.locator('main').innerText());
  });
  // The shared item and p01's two rounds, nobody else's.
  expect(trials).toBe(3);
  const text = seen.join('\n');
  for (const id of ['shared-commits', 'p01-r1', 'p01-r2']) expect(text).toContain(prompt(id));
  for (const id of ['p02-r1', 'p02-r2', 'p03-r1', 'p03-r2']) expect(text).not.toContain(prompt(id));
  for (const system of study.systems) expect(text).not.toMatch(new RegExp(`\\b${system}\\b`, 'i'));

  const ratings = await downloadFile(page, 'Download ratings (JSON)', testInfo);
  for (const system of study.systems) expect(ratings.text).not.toContain(JSON.stringify(system));
  const file = JSON.parse(ratings.text);
  expect(file.trials.map((t: { item: string }) => t.item).sort()).toEqual(['p01-r1', 'p01-r2', 'shared-commits']);

  // The researcher, with the key, finds p01's personal items in the report, rounds included.
  const analyze = (format: string) =>
    execFileSync(juror, ['analyze', '--study', published.studyPath, '--key', published.keyPath, '--resamples', '20', '--format', format, ratings.path], {
      encoding: 'utf8',
    });
  const report = JSON.parse(analyze('json'));
  expect(report.problems).toEqual([]);
  expect(report.settings.ratings).toBe(3 * 3 * 2);
  const personalization = report.dimensions.find((d: { dimension: string }) => d.dimension === 'personalization');
  expect(personalization.systems.map((s: { system: string }) => s.system).sort()).toEqual([...study.systems].sort());
  expect(personalization.rounds.ratings).toBe(2 * 3);
  const rows = analyze('csv');
  for (const id of ['p01-r1', 'p01-r2', 'shared-commits']) expect(rows).toContain(`${id},`);
  expect(rows).not.toContain('p02-');
  expect(errors).toEqual([]);
});
