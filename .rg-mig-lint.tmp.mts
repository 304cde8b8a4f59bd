import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import { readFileSync } from 'node:fs';
import { globSync } from 'tinyglobby';
import plugin from '/work/main/rules/index.ts';
const files = globSync(['src/**/*.ts', 'rules/**/*.ts', 'codemods/**/*.ts', 'test/**/*.ts', 'examples/**/*.ts', 'node_modules/knex/lib/**/*.js', 'node_modules/typeorm/**/*.js', 'node_modules/umzug/lib/**/*.js', 'node_modules/node-pg-migrate/dist/**/*.js', 'node_modules/kysely/dist/esm/**/*.js'], { cwd: '/work/main', ignore: ['**/*.d.ts'] });
const linter = new Linter({ configType: 'flat' });
let n = 0; const hits: string[] = [];
for (const f of files) {
  const code = readFileSync(f, 'utf8');
  for (const filename of [f, 'src/cmd/migrate.ts']) {
    const msgs = linter.verify(code, { files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.cjs'], languageOptions: { parser: tsParser as never, sourceType: 'module' }, plugins: { rg: plugin as never }, rules: { 'rg/no-in-app-migrations': 'error', ...(filename !== f ? { 'rg/migrate-entrypoint': 'error' } : {}) } }, filename);
    n++;
    for (const m of msgs) if (m.fatal || /Error while loading rule|threw/.test(m.message) || m.ruleId?.startsWith('rg/')) hits.push(`${f}${filename !== f ? ' (as entrypoint)' : ''}:${m.line}:${m.column} ${m.ruleId} ${m.fatal ? 'FATAL ' + m.message.slice(0, 80) : m.message.slice(0, 60)}`);
  }
}
console.log('linted', n);
const counts = new Map<string, number>();
for (const h of hits) { if (h.includes('FATAL')) continue; const k = h.includes('(as entrypoint)') ? 'entry' : 'app'; counts.set(k, (counts.get(k) ?? 0) + 1); }
console.log(counts);
for (const h of hits.filter((h) => !h.includes('(as entrypoint)') && !h.includes('FATAL'))) console.log(h);
