// The plugin entry: `import replicaGuard from 'replica-guard/eslint-plugin'`.
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

/**
 * The source files the configs apply to. A config carries its own `files` so that it never
 * widens what ESLint lints; parsing `.ts` is the user's parser setup (typescript-eslint's
 * configs set it for these same extensions), and plain JavaScript needs none.
 */
const FILES = ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'];

export type RuleEntry = 'error' | ['error', ...unknown[]];

/**
 * What `plugin.configs.*` are. ESLint's and typescript-eslint's rule types disagree (the rule
 * context), so a config that spelled out either one would be refused by the other's checker;
 * like typescript-eslint's own exports, the types say only what both accept, and
 * `defineConfig([...])` from `eslint/config` and `tseslint.config(...)` take them as they are.
 */
export interface ReplicaGuardConfig {
  name: string;
  files: string[];
  plugins: Record<string, { meta: { name: string; version: string } }>;
  rules: Record<string, RuleEntry>;
}

function configRules(pick: (rule: AnyReplicaGuardRule) => boolean): Record<string, RuleEntry> {
  return Object.fromEntries(
    Object.entries(rules)
      .filter(([, rule]) => pick(rule))
      .map(([name]) => [`${PLUGIN_NAME}/${name}`, 'error' as const]),
  );
}

const recommendedRules = configRules((rule) => rule.meta.docs?.recommended === true);

const plugin = {
  meta: { name: 'replica-guard/eslint-plugin', version: PLUGIN_VERSION, namespace: PLUGIN_NAME },
  rules,
  configs: {} as { recommended: ReplicaGuardConfig; strict: ReplicaGuardConfig },
};

plugin.configs.recommended = {
  name: 'replica-guard/recommended',
  files: FILES,
  plugins: { [PLUGIN_NAME]: plugin },
  rules: recommendedRules,
};

// strict = recommended, plus every schedule reported — also those whose callback only touches
// in-process state — so each one is either guarded or marked `perReplica(...)` on purpose.
plugin.configs.strict = {
  name: 'replica-guard/strict',
  files: FILES,
  plugins: { [PLUGIN_NAME]: plugin },
  rules: {
    ...recommendedRules,
    ...configRules((rule) => rule.meta.docs?.strict === true),
    [`${PLUGIN_NAME}/no-unguarded-schedule`]: ['error', { reportAll: true }],
  },
};

export default plugin;
export { plugin };
