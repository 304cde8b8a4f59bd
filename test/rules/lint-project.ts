// Lints one file of a fixture project (test/rules/projects/<case>/) through ESLint's Node API,
// with the plugin built from source and the given rules on; each message as
// `<rule> <file>:<line>:<column> <messageId>`.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import plugin from '../../rules/index.js';

const projects = join(fileURLToPath(new URL('.', import.meta.url)), 'projects');

/** ESLint's messages for one file of a fixture project (with their suggestions). */
export async function lintProjectMessages(project: string, file: string, rules: readonly string[]): Promise<Linter.LintMessage[]> {
  const root = join(projects, project);
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.{ts,js}'],
        languageOptions: { parser: tseslint.parser as never, sourceType: 'module' },
        plugins: { 'replica-guard': plugin as never },
        rules: Object.fromEntries(rules.map((rule) => [`replica-guard/${rule}`, 'error'])),
      },
    ],
  });
  const [result] = await eslint.lintFiles([join(root, file)]);
  return result!.messages;
}

export async function lintProjectFile(project: string, file: string, rules: readonly string[]): Promise<string[]> {
  const messages = await lintProjectMessages(project, file, rules);
  return messages.map((m) => `${m.ruleId ?? 'fatal'} ${file}:${m.line}:${m.column} ${m.messageId ?? m.message}`);
}
