// Helpers shared by the specs of the Analyse page (analyse.spec.ts, adjudicate.spec.ts): the
// `juror` command line they compare the page with, the fixtures, downloads, and the comparison
// of two reports.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { fixture, root } from './fixtures';

/** The command line, built by `cargo build -p juror-cli`. */
export const juror = path.join(root, 'target/debug/juror');

/** The analysis fixtures: ratings files of completed example studies, CSVs, a key. */
export const dir = fixture('analysis');

/** Saves the download a click on the button named `name` starts; returns its path and text. */
export async function downloadFile(
  page: Page,
  name: string,
  testInfo: TestInfo,
): Promise<{ path: string; text: string }> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name, exact: true }).click(),
  ]);
  const saved = testInfo.outputPath(file.suggestedFilename());
  await file.saveAs(saved);
  return { path: saved, text: fs.readFileSync(saved, 'utf8') };
}

/** Saves the download a click on the button named `name` starts; returns its text. */
export async function download(page: Page, name: string, testInfo: TestInfo): Promise<string> {
  return (await downloadFile(page, name, testInfo)).text;
}

/**
 * The fields that may legitimately differ between the two reports are the input names: the
 * page knows a file by its name only, the command line by the path it was given
 * (`inputs[].file`, `problems[].file`, `settings.adjudication`, `adjudication.file`). The
 * command line runs in the fixtures' folder so both give bare names; reducing every name to its
 * last path segment keeps the comparison honest if it ever gets a path.
 */
export function normalise(report: any): any {
  const base = (p: string) => path.basename(p);
  report.inputs = report.inputs.map((f: any) => ({ ...f, file: base(f.file) }));
  report.problems = report.problems.map((p: any) => ({ ...p, file: base(p.file) }));
  if (report.settings.adjudication) report.settings.adjudication = base(report.settings.adjudication);
  if (report.adjudication) report.adjudication = { ...report.adjudication, file: base(report.adjudication.file) };
  return report;
}

/**
 * Deep equality, numbers included, bit for bit: the page runs the core compiled to WebAssembly
 * and the command line runs it natively, and the core takes `exp` and `ln` from the `libm`
 * crate on both (`stats/math.rs`), so every number must be the same. Returns the paths that
 * differ.
 */
export function differences(a: any, b: any, at = '$'): string[] {
  if (typeof a === 'number' && typeof b === 'number') {
    return Object.is(a, b) ? [] : [`${at}: ${a} != ${b}`];
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    return a === b ? [] : [`${at}: ${JSON.stringify(a)} != ${JSON.stringify(b)}`];
  }
  if (Array.isArray(a) !== Array.isArray(b)) return [`${at}: array and object`];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((k) =>
    k in a && k in b ? differences(a[k], b[k], `${at}.${k}`) : [`${at}.${k}: only on one side`],
  );
}

/**
 * Publishes a study the README's way (`juror publish STUDY --site DIR --keys DIR ARGS`) into
 * dist/e2e-published/<name>/, which the e2e server serves with the app, and compiles it there
 * as the build does (the researcher analyses with the file served, as with the sealed file it
 * was compiled from); the keys go to a temporary folder. Returns the served study's URL for the page (without the annotator), its
 * path, and the key's path.
 */
export function publishStudy(
  studyPath: string,
  name: string,
  args: string[] = [],
): { url: string; studyPath: string; keyPath: string } {
  const file = path.basename(studyPath);
  const site = path.join(root, 'dist/e2e-published', name);
  const keys = fs.mkdtempSync(path.join(os.tmpdir(), `juror-keys-${name}-`));
  fs.rmSync(site, { recursive: true, force: true });
  execFileSync(juror, ['publish', studyPath, '--site', site, '--keys', keys, ...args], { encoding: 'utf8' });
  // Compiled as a site's build compiles the studies it serves.
  execFileSync(juror, ['compile', '--in-place', path.join(site, 'studies', file)], { encoding: 'utf8' });
  return {
    url: `index.html?study=e2e-published/${name}/studies/${file}`,
    studyPath: path.join(site, 'studies', file),
    keyPath: path.join(keys, file.replace(/\.json$/, '.key.json')),
  };
}

/** `juror analyze ARGS` in the fixtures' folder; its standard output. */
export function cli(args: string[]): string {
  return execFileSync(juror, ['analyze', ...args], { cwd: dir, encoding: 'utf8' });
}
