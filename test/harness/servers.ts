// Real servers for the integration tests: redis-server, PostgreSQL, PgBouncer (transaction
// pooling) and nats-server, each on a loopback ephemeral port in its own temp dir, stopped by
// the caller. No fakes: the guarantees under test depend on these servers' behaviour.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
// @ts-expect-error plain ESM helper shared with scripts/ensure-servers.mjs
import { binaryPath } from '../../scripts/server-binaries.mjs';

export interface RunningServer {
  host: string;
  port: number;
  dir: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface RunningRedis extends RunningServer {
  url: string;
  /** Starts the server again on the same port and dir (after `stop()`), for outage tests. */
  restart(): Promise<void>;
}

export interface RunningPostgres extends RunningServer {
  /** Superuser URL for the `postgres` database. */
  url: string;
  user: string;
  database: string;
}

export interface RunningPgBouncer extends RunningServer {
  url: string;
  poolSize: number;
}

export interface RunningNats extends RunningServer {
  url: string;
}

const HOST = '127.0.0.1';

/** The uid/gid to run PostgreSQL and PgBouncer as: both refuse to run as root. */
function serviceUser(): { uid: number; gid: number } | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

function tempDir(name: string, owner?: { uid: number; gid: number }): string {
  const dir = mkdtempSync(join(tmpdir(), `replica-guard-${name}-`));
  if (owner) {
    chownSync(dir, owner.uid, owner.gid);
    chmodSync(dir, 0o700);
  }
  return dir;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(
  what: string,
  probe: () => Promise<boolean>,
  child: ChildProcess,
  log: () => string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}:\n${log()}`);
    if (await probe().catch(() => false)) return;
    await sleep(50);
  }
  child.kill('SIGKILL');
  throw new Error(`${what} did not become ready within ${timeoutMs} ms:\n${log()}`);
}

function collect(child: ChildProcess): () => string {
  let out = '';
  const add = (chunk: Buffer) => {
    out += chunk.toString();
    if (out.length > 20_000) out = out.slice(-20_000);
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  return () => out;
}

function tcpSays(port: number, send: string | undefined, expect: RegExp): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, HOST);
    let data = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => {
      if (send) socket.write(send);
    });
    socket.on('data', (chunk) => {
      data += chunk.toString();
      if (expect.test(data)) done(true);
    });
  });
}

async function stopChild(child: ChildProcess, signal: NodeJS.Signals, timeoutMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

async function pgReady(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function startRedis(): Promise<RunningRedis> {
  const dir = tempDir('redis');
  const port = await freePort();
  const bin = binaryPath('redis-server') as string;
  const args = ['--port', String(port), '--bind', HOST, '--dir', dir, '--save', '', '--appendonly', 'no', '--protected-mode', 'no'];
  const server: RunningRedis = {
    host: HOST,
    port,
    dir,
    url: `redis://${HOST}:${port}`,
    process: undefined as unknown as ChildProcess,
    async restart() {
      const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      const log = collect(child);
      server.process = child;
      await waitFor('redis-server', () => tcpSays(port, 'PING\r\n', /\+PONG/), child, log);
    },
    async stop() {
      await stopChild(server.process, 'SIGTERM');
    },
  };
  await server.restart();
  return server;
}

/** Removes a server's temp dir; call after the last stop. */
export function removeDir(server: RunningServer): void {
  rmSync(server.dir, { recursive: true, force: true });
}

export async function startPostgres(): Promise<RunningPostgres> {
  const owner = serviceUser();
  const dir = tempDir('postgres', owner);
  const data = join(dir, 'data');
  const port = await freePort();
  const spawnAs = owner ? { uid: owner.uid, gid: owner.gid } : {};
  execFileSync(
    binaryPath('initdb') as string,
    ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'],
    {
      ...spawnAs,
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: dir,
    },
  );
  const child = spawn(
    binaryPath('postgres') as string,
    [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      `listen_addresses=${HOST}`,
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=200',
      '-c',
      'shared_buffers=64MB',
    ],
    { ...spawnAs, stdio: ['ignore', 'pipe', 'pipe'], cwd: dir },
  );
  const log = collect(child);
  const url = `postgres://postgres@${HOST}:${port}/postgres`;
  await waitFor('postgres', () => pgReady(url), child, log);
  return {
    host: HOST,
    port,
    dir,
    url,
    user: 'postgres',
    database: 'postgres',
    process: child,
    // SIGINT is PostgreSQL's fast shutdown: it does not wait for clients to disconnect.
    stop: () => stopChild(child, 'SIGINT'),
  };
}

export async function startPgBouncer(postgres: RunningPostgres, poolSize = 4): Promise<RunningPgBouncer> {
  const owner = serviceUser();
  const dir = tempDir('pgbouncer', owner);
  const port = await freePort();
  const userlist = join(dir, 'userlist.txt');
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(userlist, '"postgres" ""\n');
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${HOST} port=${postgres.port}`,
      '[pgbouncer]',
      `listen_addr = ${HOST}`,
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${userlist}`,
      'pool_mode = transaction',
      `default_pool_size = ${poolSize}`,
      'min_pool_size = 0',
      'reserve_pool_size = 0',
      'max_client_conn = 1000',
      'server_reset_query =',
      'ignore_startup_parameters = extra_float_digits,options,statement_timeout',
      'admin_users = postgres',
      '',
    ].join('\n'),
  );
  if (owner) for (const f of [userlist, ini]) chownSync(f, owner.uid, owner.gid);
  const child = spawn(binaryPath('pgbouncer') as string, [ini], {
    ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: dir,
  });
  const log = collect(child);
  const url = `postgres://postgres@${HOST}:${port}/postgres`;
  await waitFor('pgbouncer', () => pgReady(url), child, log);
  return { host: HOST, port, dir, url, poolSize, process: child, stop: () => stopChild(child, 'SIGINT') };
}

export async function startNats(): Promise<RunningNats> {
  const dir = tempDir('nats');
  const port = await freePort();
  const child = spawn(binaryPath('nats-server') as string, ['-js', '-a', HOST, '-p', String(port), '-sd', join(dir, 'jetstream')], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: dir,
  });
  const log = collect(child);
  await waitFor('nats-server', async () => /Server is ready/.test(log()) && (await tcpSays(port, undefined, /^INFO /)), child, log);
  return { host: HOST, port, dir, url: `nats://${HOST}:${port}`, process: child, stop: () => stopChild(child, 'SIGTERM') };
}

/** Creates a fresh database on the server and returns its URL (direct) — one per test file. */
export async function createDatabase(postgres: RunningPostgres, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`invalid database name ${name}`);
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return postgres.url.replace(/\/postgres$/, `/${name}`);
}

export interface RunningRedisCluster {
  /** The masters, each a redis-server with `--cluster-enabled yes` on its own loopback port. */
  nodes: Array<{ host: string; port: number }>;
  stop(): Promise<void>;
}

/**
 * A real Redis Cluster: `masters` redis-servers (cluster mode, no persistence) joined with
 * `redis-cli --cluster create … --cluster-yes`, slots split evenly, ready when every node
 * reports `cluster_state:ok`. Takes a second or two.
 */
export async function startRedisCluster(masters = 3): Promise<RunningRedisCluster> {
  const bin = binaryPath('redis-server') as string;
  const cli = join(dirname(bin), 'redis-cli');
  const started: Array<{ port: number; dir: string; child: ChildProcess }> = [];
  const stop = async () => {
    await Promise.all(started.map((node) => stopChild(node.child, 'SIGTERM')));
    for (const node of started) rmSync(node.dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters; i++) {
      const dir = tempDir('redis-cluster');
      const port = await freePort();
      // The cluster bus listens on a second port (port + 10000 unless told): pick it free too.
      let busPort = await freePort();
      while (busPort === port) busPort = await freePort();
      const child = spawn(
        bin,
        [
          '--port',
          String(port),
          '--bind',
          HOST,
          '--dir',
          dir,
          '--save',
          '',
          '--appendonly',
          'no',
          '--protected-mode',
          'no',
          '--cluster-enabled',
          'yes',
          '--cluster-port',
          String(busPort),
          '--cluster-config-file',
          join(dir, 'nodes.conf'),
          '--cluster-node-timeout',
          '2000',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      started.push({ port, dir, child });
      const log = collect(child);
      await waitFor('redis-server (cluster)', () => tcpSays(port, 'PING\r\n', /\+PONG/), child, log);
    }
    execFileSync(cli, ['--cluster', 'create', ...started.map((n) => `${HOST}:${n.port}`), '--cluster-replicas', '0', '--cluster-yes'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 30_000,
    });
    for (const node of started) {
      await waitFor(
        'redis cluster state ok',
        () => tcpSays(node.port, 'CLUSTER INFO\r\n', /cluster_state:ok/),
        node.child,
        () => '',
      );
    }
    return { nodes: started.map((n) => ({ host: HOST, port: n.port })), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
