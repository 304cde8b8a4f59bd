// Real child processes started together: each runs `script` under tsx with its own env, prints
// `ready` once connected, waits for `go` on stdin (so every process starts its race at once),
// and prints `result <json>` before exiting 0.
import { spawn } from 'node:child_process';

export async function startTogether<R>(script: string, envs: ReadonlyArray<Record<string, string>>): Promise<R[]> {
  const children = envs.map((env) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let onReady: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (onReady = resolve));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (/^ready$/m.test(stdout)) onReady();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<R>((resolve, reject) => {
      child.on('exit', (code) => {
        const line = /^result (.*)$/m.exec(stdout);
        if (code === 0 && line?.[1] !== undefined) resolve(JSON.parse(line[1]) as R);
        else reject(new Error(`${script} exited with ${code}:\n${stderr}\n${stdout}`));
      });
    });
    return { child, ready: Promise.race([ready, exited.then(() => undefined)]), exited };
  });
  try {
    await Promise.all(children.map((c) => c.ready));
    for (const { child } of children) child.stdin.write('go\n');
    return await Promise.all(children.map((c) => c.exited));
  } finally {
    for (const { child } of children) if (child.exitCode === null) child.kill('SIGKILL');
  }
}
