// require-jetstream-msg-id across the files of a project: a context made by a helper in another
// module (one or two calls deep) or exported by one, published from a file that names neither
// NATS nor JetStream. Linted through ESLint's Node API with the plugin built from source.
import { describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import plugin from '../../rules/index.js';

const projects = join(fileURLToPath(new URL('.', import.meta.url)), 'projects');

async function findings(project: string, file: string): Promise<string[]> {
  const root = join(projects, project);
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.{ts,js}'],
        languageOptions: { parser: tseslint.parser as never, sourceType: 'module' },
        plugins: { 'replica-guard': plugin as never },
        rules: { 'replica-guard/require-jetstream-msg-id': 'error' },
      },
    ],
  });
  const [result] = await eslint.lintFiles([join(root, file)]);
  return result!.messages.map((m) => `${m.ruleId ?? 'fatal'} ${file}:${m.line}:${m.column} ${m.messageId ?? m.message}`);
}

describe('require-jetstream-msg-id across files', () => {
  test('contexts from a helper module and an exported value; core NATS and msgID stay quiet', async () => {
    expect(await findings('jetstream-helpers', 'src/orders.ts')).toEqual([
      'replica-guard/require-jetstream-msg-id src/orders.ts:6:13 missingMsgId',
      'replica-guard/require-jetstream-msg-id src/orders.ts:7:32 missingMsgId',
      'replica-guard/require-jetstream-msg-id src/orders.ts:8:47 optionsWithoutMsgId',
    ]);
  });

  test('the helper module itself publishes nothing', async () => {
    expect(await findings('jetstream-helpers', 'src/bus.ts')).toEqual([]);
  });
});
