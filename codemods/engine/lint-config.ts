// The user's own ESLint configuration, file by file (`ESLint#calculateConfigForFile`), so the
// codemod acts on exactly what lint reports: the rules the config turns on, with their options,
// the `settings` it gives them (extra guards, the service name), the namespace disable comments
// name them by, and the files it ignores. With no configuration, or one that does not load the
// replica-guard plugin, every rule runs with its defaults — what the codemod did before it read one.
import { realpathSync } from 'node:fs';
import { sep } from 'node:path';
import { PLUGIN_NAME } from '../../rules/utils/plugin-meta.js';

const isInside = (root: string, path: string): boolean => path.startsWith(root.endsWith(sep) ? root : root + sep);

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** How lint sees one file. */
export interface FileLintConfig {
  /** `settings` from the config (plain data). */
  settings: Record<string, unknown>;
  /** The plugin's rules the config enables, by rule name, with their options; undefined: the plugin is not configured (defaults). */
  rules?: Record<string, unknown[]>;
  /** The plugin's namespace in this config (`replica-guard` unless the config names it otherwise). */
  prefix: string;
  /** ESLint ignores this file: lint never reports it, so the codemod leaves it alone. */
  ignored?: boolean;
}

/** Each distinct config once, and which one each file uses (sent to worker threads as is). */
export interface LintConfigs {
  configs: FileLintConfig[];
  byPath: Record<string, number>;
}

const PLUGIN_META_NAME = `${PLUGIN_NAME}/eslint-plugin`;

interface ResolvedConfig {
  settings?: Record<string, unknown>;
  plugins?: Record<string, { meta?: { name?: string } } | undefined>;
  rules?: Record<string, unknown>;
}

/** Settings as plain data (a worker thread receives a structured clone); what cannot be copied is left out. */
function plainSettings(settings: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!settings) return {};
  try {
    return JSON.parse(JSON.stringify(settings)) as Record<string, unknown>;
  } catch {
    const own = settings[PLUGIN_NAME];
    try {
      return own === undefined ? {} : { [PLUGIN_NAME]: JSON.parse(JSON.stringify(own)) as unknown };
    } catch {
      return {};
    }
  }
}

/** `'error'`, `2`, `['warn', {…}]` → the options when the rule is on, undefined when it is off. */
function enabledOptions(entry: unknown): unknown[] | undefined {
  const [severity, ...options] = Array.isArray(entry) ? (entry as unknown[]) : [entry];
  const on = severity === 1 || severity === 2 || severity === 'warn' || severity === 'error';
  return on ? (JSON.parse(JSON.stringify(options)) as unknown[]) : undefined;
}

export function fileLintConfigOf(config: ResolvedConfig | undefined): FileLintConfig {
  if (!config) return { settings: {}, prefix: PLUGIN_NAME, ignored: true };
  const settings = plainSettings(config.settings);
  const prefix = Object.entries(config.plugins ?? {}).find(([, plugin]) => plugin?.meta?.name === PLUGIN_META_NAME)?.[0];
  if (prefix === undefined) return { settings, prefix: PLUGIN_NAME };
  const rules: Record<string, unknown[]> = {};
  for (const [id, entry] of Object.entries(config.rules ?? {})) {
    if (!id.startsWith(`${prefix}/`)) continue;
    const options = enabledOptions(entry);
    if (options) rules[id.slice(prefix.length + 1)] = options;
  }
  return { settings, rules, prefix };
}

/**
 * How lint sees each of `files`, from the ESLint configuration that applies under `cwd`; undefined
 * when there is none or it cannot be loaded (then the codemod uses its defaults), with the reason.
 */
export async function lintConfigsFor(cwd: string, files: readonly string[]): Promise<{ configs?: LintConfigs; note?: string }> {
  let eslint: { calculateConfigForFile(path: string): Promise<unknown> };
  try {
    const { ESLint } = await import('eslint');
    eslint = new ESLint({ cwd });
  } catch (error) {
    return {
      note: `ESLint could not be loaded (${error instanceof Error ? error.message : String(error)}); every rule runs with its defaults`,
    };
  }
  // Discovered files are real paths; the working directory may be reached through a symlink.
  const bases = [cwd, realpathOr(cwd)];
  const configs: FileLintConfig[] = [];
  const seen = new Map<string, number>();
  const byPath: Record<string, number> = {};
  for (const file of files) {
    // A file outside the working directory is outside the config's base path: ESLint would call
    // it ignored, though no config speaks of it. Defaults there.
    if (!bases.some((base) => isInside(base, file))) continue;
    let config: FileLintConfig;
    try {
      config = fileLintConfigOf((await eslint.calculateConfigForFile(file)) as ResolvedConfig | undefined);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // No eslint.config.* at all is the common case of a first run: defaults, said once.
      if (/could not find config file/i.test(message)) return {};
      return { note: `the ESLint configuration could not be read (${message.split('\n')[0]}); every rule runs with its defaults` };
    }
    const key = JSON.stringify(config);
    let index = seen.get(key);
    if (index === undefined) {
      index = configs.push(config) - 1;
      seen.set(key, index);
    }
    byPath[file] = index;
  }
  return { configs: { configs, byPath } };
}
