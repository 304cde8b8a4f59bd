import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCorpus } from './corpus.js';
import { mentionsReadAndWrite } from '../../rules/utils/read-write-mentions.js';
import { mentionsSchemaWrite } from '../../rules/utils/migration-mentions.js';
const c = buildCorpus();
const texts = c.files.map((f) => readFileSync(join(c.dir, f), 'utf8'));
const mb = texts.reduce((s, t) => s + t.length, 0) / 1e6;
console.log('files', texts.length, 'MB', mb.toFixed(1));
const time = (name: string, fn: (t: string) => boolean) => {
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now(); let n = 0;
    for (const t of texts) if (fn(t)) n++;
    if (r === 2) console.log(name, (performance.now() - t0).toFixed(1), 'ms', n, 'pass');
  }
};
time('readwrite', mentionsReadAndWrite);
time('schema', (t) => mentionsSchemaWrite(t, ['POSTGRES_RUN_MIGRATIONS']));
time('update-i', (t) => /update/i.test(t));
time('includes-update', (t) => t.includes('update'));
time('lower+includes', (t) => t.toLowerCase().includes('update'));
c.dispose();
