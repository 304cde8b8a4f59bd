#!/usr/bin/env node
// Makes sure the real servers the integration tests start are installed. As root with apt-get
// it installs what is missing; otherwise it stops with one line naming the packages.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { missingPackages } from './server-binaries.mjs';

const missing = missingPackages();
if (missing.length === 0) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = existsSync('/usr/bin/apt-get');
if (!isRoot || !hasApt) {
  console.error(`replica-guard tests need these Debian packages: ${missing.join(' ')} (run: sudo apt-get install -y ${missing.join(' ')})`);
  process.exit(1);
}

console.log(`installing ${missing.join(' ')} with apt-get`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
try {
  execFileSync('apt-get', ['update', '-q'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...missing], { stdio: 'inherit', env });
} catch (error) {
  console.error(`apt-get could not install ${missing.join(' ')}: ${error.message}`);
  process.exit(1);
}
const still = missingPackages();
if (still.length > 0) {
  console.error(`still missing after apt-get: ${still.join(' ')}`);
  process.exit(1);
}
