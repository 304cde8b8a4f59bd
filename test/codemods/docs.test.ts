// Every transform in the registry has its docs page (H1 = name, first line = description), names
// an existing rule, and appears in docs/cli.md and in `--help`.
import { existsSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { buildProgram } from '../../codemods/engine/cli.js';
import { transforms } from '../../codemods/registry.js';
import plugin from '../../rules/index.js';

const cliDoc = readFileSync('docs/cli.md', 'utf8');

test.each(transforms.map((t) => [t.name, t] as const))('%s is documented and registered', (name, transform) => {
  const page = `docs/codemods/${name}.md`;
  expect(existsSync(page), page).toBe(true);
  const [h1, , description] = readFileSync(page, 'utf8').split('\n');
  expect(h1).toBe(`# ${name}`);
  expect(description).toBe(transform.description);
  expect(plugin.rules[transform.rule.name], `rule ${transform.rule.name}`).toBeDefined();
  expect(cliDoc).toContain(`[\`${name}\`](codemods/${name}.md)`);
  let help = '';
  buildProgram()
    .configureOutput({ writeOut: (s) => (help += s) })
    .outputHelp();
  expect(help).toContain(name);
});
