// no-unguarded-schedule in a desktop app: a file of an Electron app's main process (it imports
// `electron` or a library only the main process uses, `electron-updater`) runs on one user's
// machine, once per installed copy; its tickers are not replicated. The same ticker in a file
// without them is judged as usual (a package that depends on Electron is tested in
// projects-schedule-delegates.test.ts).
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'index' } };

const ticker = (...imports: string[]) =>
  lines(
    ...imports,
    'setInterval(async () => {',
    "  await fetch('https://api.example.com/v1/devices/usage', { method: 'POST', body: JSON.stringify({ at: Date.now() }) });",
    '}, 600_000);',
  );

ruleTester.run('no-unguarded-schedule (desktop app)', noUnguardedSchedule, {
  valid: [
    { settings, code: ticker("import { app, BrowserWindow } from 'electron';") },
    { settings, code: ticker("import { autoUpdater } from 'electron-updater';") },
    { settings, code: ticker("const { ipcMain } = require('electron');") },
  ],
  invalid: [
    guardedReport(settings, ticker("import { z } from 'zod';"), {
      line: 2,
      column: 13,
      guard: "  if (!(await claimPeriod('index:file-2', 600_000))) return;",
      after: 2,
      importAfter: 1,
    }),
  ],
});
