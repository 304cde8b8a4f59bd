// Every rule is complete: a file in rules/, an entry in the plugin, a docs page whose description
// is the rule's, a test file, and an options schema that documents itself. Failures name the rule
// and what is missing, so a new rule's author sees the to-do list.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import plugin from '../../rules/index.js';
import { docsUrl } from '../../rules/utils/create-rule.js';

const root = join(import.meta.dirname, '..', '..');
const NOT_RULES = new Set(['index.ts', 'create-rule.ts']);
const ruleFiles = readdirSync(join(root, 'rules'), { withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.ts') && !NOT_RULES.has(e.name))
  .map((e) => e.name.slice(0, -'.ts'.length))
  .sort();
const testFiles = readdirSync(join(root, 'test', 'rules'));
const SECTIONS = ['Why', 'Incorrect', 'Correct', 'Options', 'When not to use it'];

/** The doc with eslint-doc-generator's header (title, notices) removed, split into paragraphs. */
function docParagraphs(doc: string): string[] {
  const headerEnd = '<!-- end auto-generated rule header -->';
  const body = doc.includes(headerEnd) ? doc.slice(doc.indexOf(headerEnd) + headerEnd.length) : doc.replace(/^# .*\n/, '');
  return body
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
}

/** Paths of schema properties that have no description, e.g. `[0].properties.reportAll`. */
function undescribed(schema: unknown, path: string): string[] {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => undescribed(s, `${path}[${i}]`));
  if (!schema || typeof schema !== 'object') return [];
  const node = schema as Record<string, unknown>;
  const out: string[] = [];
  for (const [name, value] of Object.entries((node.properties ?? {}) as Record<string, unknown>)) {
    const where = `${path}.properties.${name}`;
    if (
      typeof (value as { description?: unknown })?.description !== 'string' ||
      (value as { description: string }).description.trim() === ''
    )
      out.push(where);
    out.push(...undescribed(value, where));
  }
  for (const key of ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties'] as const) {
    if (node[key] && typeof node[key] === 'object') out.push(...undescribed(node[key], `${path}.${key}`));
  }
  return out;
}

test('rules/ has at least one rule', () => {
  expect(ruleFiles.length).toBeGreaterThan(0);
});

test('every rule in the plugin has a file in rules/', () => {
  const orphans = Object.keys(plugin.rules).filter((name) => !ruleFiles.includes(name));
  expect(orphans, `registered in rules/index.ts without rules/<name>.ts: ${orphans.join(', ')}`).toEqual([]);
});

describe.each(ruleFiles)('%s', (name) => {
  const rule = plugin.rules[name];
  const docPath = join(root, 'docs', 'rules', `${name}.md`);

  test('is registered in the plugin under its file name', () => {
    expect(rule, `${name}: rules/${name}.ts is not in the \`rules\` object of rules/index.ts`).toBeDefined();
    expect(rule?.name, `${name}: createRule({ name }) says "${rule?.name}"`).toBe(name);
    expect(rule?.meta.docs?.url, `${name}: docs URL`).toBe(docsUrl(name));
  });

  test('has a test file', () => {
    const has = testFiles.some((f) => f === `${name}.test.ts` || (f.startsWith(`${name}.`) && f.endsWith('.test.ts')));
    expect(has, `${name}: missing test/rules/${name}.test.ts`).toBe(true);
  });

  test('has a docs page titled with its name, its description first, and the standard sections', () => {
    expect(existsSync(docPath), `${name}: missing docs/rules/${name}.md`).toBe(true);
    const doc = readFileSync(docPath, 'utf8');
    expect(doc.split('\n')[0], `${name}: docs/rules/${name}.md must start with "# ${name}"`).toBe(`# ${name}`);
    const description = rule?.meta.docs?.description;
    expect(typeof description === 'string' && description.length > 0, `${name}: meta.docs.description is empty`).toBe(true);
    const first = docParagraphs(doc)[0]?.replace(/\s*\n\s*/g, ' ');
    expect(first?.replace(/\.$/, ''), `${name}: the first paragraph of docs/rules/${name}.md must equal meta.docs.description`).toBe(
      description?.replace(/\.$/, ''),
    );
    const headings = [...doc.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim());
    const missing = SECTIONS.filter((s) => !headings.includes(s));
    expect(missing, `${name}: docs/rules/${name}.md lacks sections`).toEqual([]);
  });

  test('documents every option in its schema', () => {
    const schema = rule?.meta.schema ?? [];
    expect(undescribed(schema, 'schema'), `${name}: schema properties without a description`).toEqual([]);
    const options = (Array.isArray(schema) ? schema : [schema]).flatMap((s) =>
      Object.keys(((s as { properties?: object }).properties ?? {}) as object),
    );
    if (options.length > 0 && existsSync(docPath)) {
      const doc = readFileSync(docPath, 'utf8');
      const undocumented = options.filter((o) => !doc.includes(`\`${o}\``));
      expect(undocumented, `${name}: options not mentioned in docs/rules/${name}.md`).toEqual([]);
    }
  });

  test('says whether it is recommended, and the configs agree', () => {
    const recommended = rule?.meta.docs?.recommended;
    expect(typeof recommended, `${name}: meta.docs.recommended must be true or false`).toBe('boolean');
    const inRecommended = `replica-guard/${name}` in (plugin.configs.recommended.rules ?? {});
    expect(inRecommended, `${name}: recommended is ${recommended} but the recommended config ${inRecommended ? 'has' : 'lacks'} it`).toBe(
      recommended,
    );
  });
});
