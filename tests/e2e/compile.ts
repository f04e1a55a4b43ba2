// A study's text compiled as a site's build compiles the studies it serves (`juror compile`,
// docs/compiled.md): the annotator's page plays compiled studies only, so a spec that serves
// its own study to that page serves it compiled. The compiled study keeps the SHA-256 of the
// text given, so ratings files name the study exactly as before.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { juror } from './analysis-helpers';

const cache = new Map<string, string>();

/** `study` (its text or bytes, or a value written as `JSON.stringify` writes it) compiled. */
export function compiled(study: string | Buffer | object): string {
  const text =
    typeof study === 'string' ? study : Buffer.isBuffer(study) ? study.toString('utf8') : JSON.stringify(study);
  const known = cache.get(text);
  if (known !== undefined) return known;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'juror-compile-'));
  try {
    const source = path.join(dir, 'study.json');
    const out = path.join(dir, 'study.compiled.json');
    fs.writeFileSync(source, text);
    execFileSync(juror, ['compile', source, '--out', out], { encoding: 'utf8' });
    const result = fs.readFileSync(out, 'utf8');
    cache.set(text, result);
    return result;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
