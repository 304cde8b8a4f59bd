// The README's ESLint configs, copied exactly (taken from README.md by their markers, so this
// fails when the README drifts), in a fresh TypeScript service (NestJS, CommonJS) and a fresh
// JavaScript service (Express, ES modules): every file parses and the unguarded job is reported
// at its line. eslint, typescript-eslint and the built plugin resolve from the service's own
// node_modules, as after `npm install`.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { lint, linkPackage, readmeBlock, repoRoot, requireBuild, summarize, tempDir, writeFiles } from './temp-project.js';

const NEST_SERVICE: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'billing', private: true, scripts: { build: 'nest build' } }),
  'tsconfig.json': JSON.stringify({
    compilerOptions: { module: 'commonjs', target: 'ES2021', strict: true, experimentalDecorators: true, emitDecoratorMetadata: true },
  }),
  'src/main.ts': [
    "import { NestFactory } from '@nestjs/core';",
    "import { AppModule } from './app.module';",
    '',
    'async function bootstrap(): Promise<void> {',
    '  const app = await NestFactory.create(AppModule);',
    '  await app.listen(Number(process.env.PORT ?? 3000));',
    '}',
    'void bootstrap();',
    '',
  ].join('\n'),
  'src/app.module.ts': [
    "import { Module } from '@nestjs/common';",
    "import { ScheduleModule } from '@nestjs/schedule';",
    "import { RenewalsService } from './renewals.service';",
    '',
    '@Module({ imports: [ScheduleModule.forRoot()], providers: [RenewalsService] })',
    'export class AppModule {}',
    '',
  ].join('\n'),
  'src/renewals.service.ts': [
    "import { Injectable, Logger } from '@nestjs/common';",
    "import { Cron, CronExpression } from '@nestjs/schedule';",
    "import type { Mailer } from './mailer';",
    '',
    '@Injectable()',
    'export class RenewalsService {',
    '  private readonly logger = new Logger(RenewalsService.name);',
    '',
    '  constructor(private readonly mailer: Mailer) {}',
    '',
    '  @Cron(CronExpression.EVERY_HOUR)',
    '  async remindExpiringCards(): Promise<void> {',
    "    const sent = await this.mailer.send({ template: 'card-expiring', to: 'owners' });",
    '    this.logger.log(`reminded ${sent}`);',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/mailer.ts': [
    'export enum Channel {',
    "  Email = 'email',",
    "  Sms = 'sms',",
    '}',
    '',
    'export interface Message<T extends object = Record<string, unknown>> {',
    '  template: string;',
    '  to: string;',
    '  data?: T;',
    '}',
    '',
    'export abstract class Mailer {',
    '  abstract send<T extends object>(message: Message<T>, channel?: Channel): Promise<number>;',
    '}',
    '',
    "export const defaults = { channel: Channel.Email } satisfies Partial<Record<'channel', Channel>>;",
    '',
  ].join('\n'),
  'scripts/seed.js': ["'use strict';", "const { Pool } = require('pg');", 'module.exports = () => new Pool().end();', ''].join('\n'),
};

const EXPRESS_SERVICE: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'reminders', private: true, type: 'module' }),
  'src/server.js': [
    "import express from 'express';",
    "import { startJobs } from './jobs.js';",
    '',
    'const app = express();',
    "app.get('/health', (_req, res) => res.send('ok'));",
    'app.listen(process.env.PORT ?? 3000, startJobs);',
    '',
  ].join('\n'),
  'src/jobs.js': [
    "import cron from 'node-cron';",
    "import { sendReminderEmails } from './mailer.js';",
    '',
    'export function startJobs() {',
    "  cron.schedule('*/15 * * * *', async () => {",
    '    await sendReminderEmails();',
    '  });',
    '}',
    '',
  ].join('\n'),
  'src/mailer.js': [
    "import nodemailer from 'nodemailer';",
    '',
    'const transport = nodemailer.createTransport({ host: process.env.SMTP_HOST });',
    '',
    'export async function sendReminderEmails() {',
    "  await transport.sendMail({ to: 'owners@example.com', subject: 'Reminder' });",
    '}',
    '',
  ].join('\n'),
  'src/legacy.cjs': ["const { promisify } = require('node:util');", 'module.exports = { sleep: promisify(setTimeout) };', ''].join('\n'),
};

const services = [
  {
    name: 'TypeScript service (NestJS, CommonJS)',
    files: { ...NEST_SERVICE, 'eslint.config.mjs': readmeBlock('typescript') },
    tools: ['eslint', 'typescript-eslint', 'typescript'],
    linted: ['eslint.config.mjs', 'scripts/seed.js', 'src/app.module.ts', 'src/mailer.ts', 'src/main.ts', 'src/renewals.service.ts'],
    job: 'src/renewals.service.ts:11:3 replica-guard/no-unguarded-schedule',
  },
  {
    name: 'JavaScript service (Express, ES modules)',
    files: { ...EXPRESS_SERVICE, 'eslint.config.js': readmeBlock('javascript') },
    tools: ['eslint'],
    linted: ['eslint.config.js', 'src/jobs.js', 'src/legacy.cjs', 'src/mailer.js', 'src/server.js'],
    job: 'src/jobs.js:5:33 replica-guard/no-unguarded-schedule',
  },
];

const roots: string[] = [];
beforeAll(requireBuild);
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe.each(services)('the README config in a $name', (service) => {
  test('parses every file and reports the unguarded job at its line', () => {
    const root = tempDir('readme');
    roots.push(root);
    writeFiles(root, service.files);
    const nodeModules = join(root, 'node_modules');
    for (const tool of service.tools) linkPackage(nodeModules, tool);
    linkPackage(nodeModules, 'replica-guard', repoRoot);

    const files = lint(root);
    const { findings, fatal } = summarize(files);
    expect(fatal).toEqual([]);
    expect(files.map((f) => f.file).sort()).toEqual(service.linted);
    expect(findings.filter((f) => f.endsWith('/no-unguarded-schedule'))).toEqual([service.job]);
  });
});
