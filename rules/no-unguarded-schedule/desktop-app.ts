// Whether a file is part of a desktop app: it imports Electron (or a library only its main process
// uses, `electron-updater`), or its package — the nearest package.json — depends on Electron and
// names an entry point (`main`), as an Electron app's package does. Its timers run on one user's
// machine, once per installed copy: no replica repeats them. The package.json is read through the
// modules layer's caches (once per directory).
import { dirname } from 'node:path';
import type { TSESLint } from '@typescript-eslint/utils';
import { DESKTOP_APP_MODULES, DESKTOP_APP_PACKAGES } from '../../src/knowledge/desktop-apps.js';
import { moduleSpecifiers } from '../../analysis/imports/imported-references.js';
import { nearestPackageJson } from '../../analysis/modules/nearest-package-json.js';
import { packageJsonIn } from '../../analysis/modules/package-json.js';

/** The package.json at `path` depends on Electron and has an entry point. */
function isDesktopAppPackage(path: string): boolean {
  const json = packageJsonIn(dirname(path));
  if (typeof json?.main !== 'string') return false;
  return [json.dependencies, json.devDependencies].some(
    (deps) => deps !== null && typeof deps === 'object' && DESKTOP_APP_PACKAGES.some((name) => Object.hasOwn(deps, name)),
  );
}

/** Whether the linted file runs in a desktop app (Electron), by its imports or its package. */
export function runsInDesktopApp(sourceCode: Readonly<TSESLint.SourceCode>, filename: string): boolean {
  const modules = moduleSpecifiers(sourceCode.ast);
  if (DESKTOP_APP_MODULES.some((name) => modules.has(name))) return true;
  const packageJson = nearestPackageJson(dirname(filename));
  return packageJson !== undefined && isDesktopAppPackage(packageJson);
}
