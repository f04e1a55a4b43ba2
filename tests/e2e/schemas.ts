// The committed JSON Schemas (assets/schema/*.v1.json), checked with Ajv (draft 2020-12), an
// independent validator of the Rust code that generates them: what the app downloads must be
// valid under the schema Juror publishes for it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { root } from './fixtures';

const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });

const validators = new Map<string, ReturnType<typeof ajv.compile>>();

/** Every error of `instance` under `assets/schema/<name>.v1.json`, one line each (none: valid). */
export function schemaErrors(name: 'study' | 'ratings' | 'report', instance: unknown): string[] {
  let validate = validators.get(name);
  if (!validate) {
    const schema = JSON.parse(fs.readFileSync(path.join(root, `assets/schema/${name}.v1.json`), 'utf8'));
    validate = ajv.compile(schema);
    validators.set(name, validate);
  }
  if (validate(instance)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'}: ${e.message} ${JSON.stringify(e.params)}`);
}
