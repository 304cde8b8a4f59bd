#!/usr/bin/env node
// The `replica-codemod` command. The codemod parses with ESLint and @typescript-eslint/parser
// (which loads typescript): optional peers of replica-guard, so that a service using only the
// runtime installs no tooling. They are checked here, before anything that imports them is
// loaded: a missing one is one line naming the install command and exit code 2, not an
// ERR_MODULE_NOT_FOUND stack trace. This file imports node: modules only.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CODEMOD_PEERS = ['eslint', '@typescript-eslint/parser', 'typescript'] as const;

/** The peers that do not resolve from where the codemod's own modules will import them. */
function missingPeers(): string[] {
  const require = createRequire(import.meta.url);
  return CODEMOD_PEERS.filter((name) => {
    try {
      require.resolve(name);
      return false;
    } catch {
      return true;
    }
  });
}

/** `name@range`, the range this package declares, quoted for a POSIX shell. */
function peerSpecs(names: readonly string[]): string[] {
  let ranges: Record<string, string> = {};
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      peerDependencies?: Record<string, string>;
    };
    ranges = pkg.peerDependencies ?? {};
  } catch {
    // Without the manifest the names alone still install working versions.
  }
  return names.map((name) => (ranges[name] ? `'${name}@${ranges[name]}'` : name));
}

/** The package manager whose lockfile is nearest to `cwd`. */
function packageManager(cwd: string): 'npm' | 'pnpm' | 'yarn' | 'bun' {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'pnpm-lock.yaml'))) return 'pnpm';
    if (existsSync(join(dir, 'yarn.lock'))) return 'yarn';
    if (existsSync(join(dir, 'bun.lock')) || existsSync(join(dir, 'bun.lockb'))) return 'bun';
    if (existsSync(join(dir, 'package-lock.json')) || dirname(dir) === dir) return 'npm';
  }
}

function installCommand(missing: readonly string[], args: readonly string[]): string {
  const specs = peerSpecs(missing);
  // Run through `npx -p replica-guard` (npm's temporary cache), optional peers are not installed.
  if (/[\\/]_npx[\\/]/.test(fileURLToPath(import.meta.url))) {
    const all = peerSpecs(CODEMOD_PEERS);
    return ['npx', '-p', 'replica-guard', ...all.flatMap((spec) => ['-p', spec]), 'replica-codemod', ...args].join(' ');
  }
  const add = { npm: 'npm install --save-dev', pnpm: 'pnpm add --save-dev', yarn: 'yarn add --dev', bun: 'bun add --dev' };
  return `${add[packageManager(process.cwd())]} ${specs.join(' ')}`;
}

const args = process.argv.slice(2);
const missing = missingPeers();
if (missing.length > 0) {
  process.stderr.write(
    `replica-codemod: needs ${missing.join(', ')} (optional peer dependencies of replica-guard); install with: ${installCommand(missing, args)}\n`,
  );
  process.exitCode = 2;
} else {
  // cli.js runs itself when it is the process's script (named cli.js or replica-codemod); this
  // file is that script now, so name it for what it is and call main() exactly once.
  process.argv[1] = fileURLToPath(import.meta.url);
  const { main } = await import('./engine/cli.js');
  main(args).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`replica-codemod: fatal: ${String(error)}\n`);
      process.exitCode = 2;
    },
  );
}
