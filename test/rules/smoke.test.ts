import { expect, test } from 'vitest';
import plugin from '../../rules/index.js';

test('the plugin object has meta, rules and flat configs', () => {
  expect(plugin.meta.name).toBe('replica-guard/eslint-plugin');
  expect(typeof plugin.meta.version).toBe('string');
  expect(plugin.configs.recommended.files).toEqual(['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}']);
  expect(plugin.configs.recommended.plugins?.['replica-guard']).toBe(plugin);
});
