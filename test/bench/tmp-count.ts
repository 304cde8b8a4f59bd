import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCorpus } from './corpus.js';
const c = buildCorpus();
const texts = c.files.map((f) => readFileSync(join(c.dir, f), 'utf8'));
console.log('files', texts.length);
const tests: Record<string, RegExp> = {
  write: /update|save|upsert|replaceOne/i,
  read: /find|getOne|getRaw|getMany|first|select|pluck|where/i,
  claimUpd: /update|delete|save|upsert|destroy|remove/i,
  status: /status|state/i,
  jet: /jetstream|publish/i,
  migr: /migrat|synchroni|prisma|Schema|umzug|sequelize/,
};
for (const [k, r] of Object.entries(tests)) console.log(k, texts.filter((t) => r.test(t)).length);
console.log('write&read', texts.filter((t) => tests.write!.test(t) && tests.read!.test(t)).length);
c.dispose();
