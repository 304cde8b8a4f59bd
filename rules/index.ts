// The plugin entry: `import replicaGuard from 'replica-guard/eslint-plugin'`.
import type { TSESLint } from '@typescript-eslint/utils';
import type { AnyReplicaGuardRule } from './utils/create-rule.js';
import { noUnguardedSchedule } from './no-unguarded-schedule.js';
import { PLUGIN_NAME, PLUGIN_VERSION } from './utils/plugin-meta.js';
import { noReadThenWrite } from './no-read-then-write.js';
import { requireJetStreamMsgId } from './require-jetstream-msg-id.js';
import { noSessionAdvisoryLock } from './no-session-advisory-lock.js';
import { noInAppMigrations } from './no-in-app-migrations.js';
import { migrateEntrypoint } from './migrate-entrypoint.js';
import { requireAtomicClaim } from './require-atomic-claim.js';

// Every rule, by name. Add a rule here and the configs, docs table and meta-tests pick it up.
export const rules: Record<string, AnyReplicaGuardRule> = {
  // rules are registered here, one line each, sorted by name
  'no-unguarded-schedule': noUnguardedSchedule,
  'no-read-then-write': noReadThenWrite,
  'require-jetstream-msg-id': requireJetStreamMsgId,
  'no-session-advisory-lock': noSessionAdvisoryLock,
  'no-in-app-migrations': noInAppMigrations,
  'migrate-entrypoint': migrateEntrypoint,
  'require-atomic-claim': requireAtomicClaim,
};

const FILES = ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'];

function configRules(pick: (rule: AnyReplicaGuardRule) => boolean): Record<string, 'error'> {
  return Object.fromEntries(
    Object.entries(rules)
      .filter(([, rule]) => pick(rule))
      .map(([name]) => [`${PLUGIN_NAME}/${name}`, 'error' as const]),
  );
}

const plugin = {
  meta: { name: 'replica-guard/eslint-plugin', version: PLUGIN_VERSION },
  rules,
  configs: {} as Record<'recommended' | 'strict', TSESLint.FlatConfig.Config>,
};

plugin.configs.recommended = {
  name: 'replica-guard/recommended',
  files: FILES,
  plugins: { [PLUGIN_NAME]: plugin as unknown as TSESLint.FlatConfig.Plugin },
  rules: configRules((rule) => rule.meta.docs?.recommended === true),
};
plugin.configs.strict = {
  name: 'replica-guard/strict',
  files: FILES,
  plugins: { [PLUGIN_NAME]: plugin as unknown as TSESLint.FlatConfig.Plugin },
  rules: configRules((rule) => rule.meta.docs?.recommended === true || rule.meta.docs?.strict === true),
};

export default plugin;
export { plugin };
