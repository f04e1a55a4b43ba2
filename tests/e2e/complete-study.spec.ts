// Intent: an annotator completes a whole study, whatever its design, and gets a ratings file
// that Juror's own checker and the published schema accept; the researcher drops that file into
// the Analyse page and gets the very report `juror analyze` writes for it, valid under the
// published report schema.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test, expect, exampleStudies, root } from './fixtures';
import { completeStudy, openStudy } from './session';
import { cli, differences, download, normalise } from './analysis-helpers';
import { schemaErrors } from './schemas';

const juror = path.join(root, 'target/debug/juror');

for (const study of exampleStudies()) {
  // Two steps, in order, in one worker: the second analyses the file the first downloaded.
  test.describe.serial(study.file, () => {
    let jsonPath = '';
    let file: any;
    test(`completes ${study.file} and downloads ratings that validate`, async ({ page, errors }, testInfo) => {
      await openStudy(page, study.file, 2);
      const trials = await completeStudy(page);
      expect(trials).toBeGreaterThan(0);
      // A study's debriefing (the HARE study has one) waits until the ratings file is saved.
      const debrief = page.getByRole('heading', { name: 'About this study' });
      const hasDebrief = Boolean(JSON.parse(fs.readFileSync(path.join(root, 'assets/studies', study.file), 'utf8')).debrief);
      await expect(debrief).toHaveCount(0);

      const [json] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download ratings (JSON)' }).click(),
      ]);
      await expect(debrief).toHaveCount(hasDebrief ? 1 : 0);
      expect(json.suggestedFilename()).toMatch(/^juror-.+-slot2-\d{4}-\d{2}-\d{2}\.json$/);
      jsonPath = testInfo.outputPath(json.suggestedFilename());
      await json.saveAs(jsonPath);
      file = JSON.parse(fs.readFileSync(jsonPath, 'utf8'));
      expect(file.format).toBe('juror.ratings/1');
      expect(file.complete).toBe(true);
      expect(file.trials).toHaveLength(trials);
      expect(file.trials.every((t: { done: boolean }) => t.done)).toBe(true);
      // The file the app wrote is valid under the published ratings schema.
      expect(schemaErrors('ratings', file)).toEqual([]);

      const [csv] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download ratings (CSV)' }).click(),
      ]);
      const csvPath = testInfo.outputPath(csv.suggestedFilename());
      await csv.saveAs(csvPath);
      const lines = fs.readFileSync(csvPath, 'utf8').trim().split('\n');
      expect(lines[0]).toBe(
        'study_id,annotator_slot,annotator_id,trial,task,item_id,check,system_id,position,label,question,value',
      );
      expect(lines.length).toBeGreaterThan(trials);

      // Juror's checker accepts the file, for this very study.
      const studyPath = path.join(root, 'assets/studies', study.file);
      const out = execFileSync(juror, ['validate-ratings', jsonPath, '--study', studyPath], { encoding: 'utf8' });
      expect(out).toContain('ok');
      expect(errors).toEqual([]);
    });

    test(`the page analyses ${study.file}'s ratings as juror analyze does`, async ({ page, errors }, testInfo) => {
      // From study file to report: the file just downloaded, analysed in the page and by the CLI.
      const studyPath = path.join(root, 'assets/studies', study.file);
      await page.goto('analyse.html');
      await page.getByLabel('Choose the study file').setInputFiles(studyPath);
      await page.getByLabel('Choose ratings files or CSVs').setInputFiles(jsonPath);
      await expect(page.getByRole('heading', { name: 'Analysis report', exact: true })).toBeVisible();
      const pageReport = JSON.parse(await download(page, 'Download report (JSON)', testInfo));
      const cliReport = JSON.parse(cli(['--study', studyPath, jsonPath]));
      expect(cliReport.problems).toEqual([]);
      // A best–worst study has neither ratings nor pairwise preferences: its judgements.
      const bestWorst = cliReport.choices?.best_worst?.judgements ?? 0;
      expect(cliReport.settings.ratings + cliReport.settings.preferences + bestWorst).toBeGreaterThan(0);
      expect(differences(normalise(pageReport), normalise(cliReport))).toEqual([]);
      // And the page's report is valid under the published report schema (as the CLI's is, in
      // crates/juror-cli/tests/it/schemas.rs).
      expect(schemaErrors('report', pageReport)).toEqual([]);

      // Every answer given is in the report or the exported tables exactly once: each rating in
      // the report's count, each best-of-N choice or ranking in `choices`, and every other answer
      // (output questions, flags, notes, reasons, surveys) one row of the answers CSV.
      const values = (a: Record<string, unknown>) => {
        const v = Object.values(a)[0];
        return Array.isArray(v) ? v.length : 1;
      };
      const used = file.trials.filter((t: any) => t.done && !t.check);
      const ratings = used.flatMap((t: any) => t.outputs).reduce((n: number, o: any) => n + Object.keys(o.ratings).length, 0);
      // A later rating of an output already rated in the session (shown in several pairs) is a
      // repeat: kept for the consistency diagnostic, counted in the input's summary.
      const repeats = cliReport.inputs.reduce((n: number, f: any) => n + (f.repeated_ratings ?? 0), 0);
      expect(cliReport.settings.ratings + repeats).toBe(ratings);
      const whole = used.filter(
        (t: any) => t.preference && (t.preference.kind === 'rank' || (t.preference.kind === 'best' && t.outputs.length >= 3)),
      );
      const choices = (cliReport.choices?.best?.choices ?? 0) + (cliReport.choices?.ranks?.rankings ?? 0);
      expect(choices).toBe(whole.length);
      let others = 0;
      for (const survey of [file.intake, file.exit]) {
        for (const a of Object.values(survey)) others += values(a as Record<string, unknown>);
      }
      for (const t of used) {
        for (const o of t.outputs) {
          others += 1; // the flag, ticked or not
          for (const a of Object.values(o.answers)) others += values(a as Record<string, unknown>);
        }
        others += [t.notes, t.explanation].filter((x: string) => x.trim() !== '').length;
      }
      // The page's answers table, which is the command line's `--format answers`.
      const answers = (await download(page, 'Download answers (CSV)', testInfo)).trim().split('\n');
      expect(answers.length - 1).toBe(others);
      expect(errors).toEqual([]);
    });
  });
}
