// A runnable copy of examples/billing-service in a temp dir. Its dependencies resolve to this
// repository: ioredis and node-cron are symlinked from node_modules, and `replica-guard` is a
// one-line shim package re-exporting src/index.ts, so replicas run the current sources under tsx
// without a build (dist/ is not needed, and a concurrent build cannot break the test).
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const tsxLoader = import.meta.resolve('tsx');

export function copyExample(name = 'billing-service'): string {
  const dir = join(mkdtempSync(join(tmpdir(), `replica-e2e-${name}-`)), name);
  cpSync(join(repoRoot, 'examples', name), dir, { recursive: true });
  const modules = join(dir, 'node_modules');
  mkdirSync(modules, { recursive: true });
  for (const dependency of ['ioredis', 'node-cron'])
    symlinkSync(join(repoRoot, 'node_modules', dependency), join(modules, dependency), 'dir');
  const shim = join(modules, 'replica-guard');
  mkdirSync(shim);
  writeFileSync(join(shim, 'package.json'), JSON.stringify({ name: 'replica-guard', type: 'module', exports: './index.js' }));
  writeFileSync(join(shim, 'index.js'), `export * from ${JSON.stringify(pathToFileURL(join(repoRoot, 'src', 'index.ts')).href)};\n`);
  return dir;
}

export interface Replica {
  child: ChildProcess;
  ready: Promise<void>;
  output: () => string;
}

/** Starts `node src/server.js` in `dir` (under tsx, for the shim); `ready` when it listens. */
export function startReplica(dir: string, env: Record<string, string>): Replica {
  const child = spawn(process.execPath, ['--import', tsxLoader, 'src/server.js'], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ready = new Promise<void>((resolveReady, reject) => {
    const onData = (): void => {
      if (output.includes('listening on')) resolveReady();
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`replica exited with ${code} before listening:\n${output}`)));
  });
  return { child, ready, output: () => output };
}

export async function stopReplica(replica: Replica): Promise<void> {
  if (replica.child.exitCode !== null) return;
  const exited = new Promise<void>((done) => replica.child.once('exit', () => done()));
  replica.child.kill('SIGTERM');
  const timer = setTimeout(() => replica.child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

export interface SideEffect {
  kind: string;
  at: number;
  replica: string;
}

export function readSideEffects(file: string): SideEffect[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SideEffect);
}
