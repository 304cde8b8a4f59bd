// Temp git repositories and a run of the `replica-codemod` CLI from source in them, shared by the
// CLI test files.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

const cli = resolve(fileURLToPath(new URL('../../codemods/engine/cli.ts', import.meta.url)));
const tsx = import.meta.resolve('tsx');
export const scratch = mkdtempSync(join(tmpdir(), 'replica-codemod-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

export const UNGUARDED = `import cron from 'node-cron';
import { mailer } from './mailer.js';

cron.schedule('0 * * * *', async () => {
  await mailer.sendDigest();
});
`;
export const CLEAN = `export const answer = 42;\n`;

let repoCount = 0;
export function repo(files: Record<string, string>, { commit = true, packageJson = true } = {}): string {
  const dir = join(scratch, `repo-${(repoCount += 1)}`);
  mkdirSync(dir, { recursive: true });
  if (packageJson) writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: '@acme/billing', type: 'module' }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
  git('init', '-q');
  git('config', 'user.email', 'test@example.com');
  git('config', 'user.name', 'test');
  git('config', 'commit.gpgsign', 'false');
  if (commit) {
    git('add', '-A');
    git('commit', '-q', '-m', 'initial');
  }
  return dir;
}

export function run(cwd: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--import', tsx, cli, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export const read = (dir: string, path: string): string => readFileSync(join(dir, path), 'utf8');
