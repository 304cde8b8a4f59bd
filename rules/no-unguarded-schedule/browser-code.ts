// Whether a file is browser code: it uses `window`, `document` or another browser-only global
// as a value (a `typeof document` check, as in a server bundle's shim, does not count). A timer
// in a browser tab runs once per open tab, not once per server replica.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

const BROWSER_GLOBALS: ReadonlySet<string> = new Set([
  'window',
  'document',
  'navigator',
  'localStorage',
  'sessionStorage',
  'requestAnimationFrame',
]);

interface Reference {
  identifier: TSESTree.Identifier | TSESTree.JSXIdentifier;
}

const isValueUse = (reference: Reference): boolean => {
  const parent = reference.identifier.parent;
  return !(parent?.type === 'UnaryExpression' && parent.operator === 'typeof');
};

/** Whether the file reads a browser-only global as a value. */
export function usesBrowserGlobals(sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const globalScope = sourceCode.scopeManager?.globalScope;
  if (!globalScope) return false;
  // Undeclared (no `globals` configured): unresolved references.
  for (const reference of globalScope.through) {
    if (BROWSER_GLOBALS.has(reference.identifier.name) && isValueUse(reference)) return true;
  }
  // Declared through `languageOptions.globals` (browser globals): the implicit variables' references.
  for (const name of BROWSER_GLOBALS) {
    const variable = globalScope.set.get(name);
    if (variable && variable.defs.length === 0 && variable.references.some(isValueUse)) return true;
  }
  return false;
}

/**
 * A script a web server hands to browsers: a `js`/`javascripts`/`scripts` folder, or the served
 * app's `app` folder, under `static`, `public`, `assets` or `wwwroot` (`src/static/js/pad.ts`,
 * Express's `public/javascripts/`, `src/public/app/services/`). A folder of that name alone
 * (`src/public-api/`, `server/static.ts`, `src/app/`) is no front end.
 */
const FRONT_END_SCRIPTS = /(?:^|[\\/])(?:static|public|assets|wwwroot)[\\/](?:js|javascripts|scripts|app)[\\/]/i;

/** A folder named `ui` (`modules/cms/ui/apos/utils/`, `packages/ui/src/`): a browser bundle's sources; `guide/` holds no such folder. */
const UI_FOLDER = /(?:^|[\\/])ui[\\/]/i;

/** Whether the file is a script served to browsers, by the folders it lives in. */
export function isServedScript(filename: string): boolean {
  return FRONT_END_SCRIPTS.test(filename) || UI_FOLDER.test(filename);
}
