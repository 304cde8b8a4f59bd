// no-unguarded-schedule on a bare timer whose work writes through a model class's own static
// method (Active Record: TypeORM `BaseEntity`, Sequelize, Objection): `await Invite.delete({ … })`
// is a database write on every replica. Its twins stay quiet: a capitalised `Map` cleared of
// expired keys (`Pending.delete(key)`, not awaited) and a class whose awaited `delete` is handed a
// key rather than criteria (nothing known about it).
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'chat' } };
const IMPORT = "import { claimPeriod } from 'replica-guard';";
/** The one suggestion: the import after line `importAfter` (0-based), `guard` inserted as line `at`. */
const suggested = (code: string[], importAfter: number, at: number, guard: string) => {
  const out = [...code];
  out.splice(at, 0, guard);
  out.splice(importAfter + 1, 0, IMPORT);
  return [{ messageId: 'addClaimPeriod' as const, output: lines(...out) }];
};
const expiry = [
  "import { LessThan } from 'typeorm';",
  "import { Invite } from '../entities/Invite';",
  'export function startExpiry() {',
  '  setInterval(async () => {',
  '    await Invite.delete({ expiresAt: LessThan(new Date()) });',
  '  }, 60_000);',
  '}',
];
const inactive = [
  "import { setInterval } from 'node:timers';",
  "import { Member } from './models';",
  'export function markInactive() {',
  '  setInterval(async () => {',
  '    const idle = await Member.findAll({ where: { active: true } });',
  '    for (const member of idle) {',
  '      if (member.lastSeen < Date.now() - 86_400_000) await Member.update({ active: false }, { where: { id: member.id } });',
  '    }',
  '  }, 3_600_000);',
  '}',
];
const sweep = [
  "import { Ticket } from './ticket.model';",
  'async function sweep() {',
  "  await Ticket.remove({ state: 'closed' });",
  '  setTimeout(sweep, 600_000);',
  '}',
  'sweep();',
];

ruleTester.run('no-unguarded-schedule (model class writes)', noUnguardedSchedule, {
  valid: [
    {
      settings,
      code: lines(
        'const Pending = new Map<string, { expiresAt: number }>();',
        'export function startExpiry() {',
        '  setInterval(() => {',
        '    for (const [key, entry] of Pending) if (entry.expiresAt < Date.now()) Pending.delete(key);',
        '  }, 30_000);',
        '}',
      ),
    },
    {
      settings,
      code: lines(
        "import { Registry } from './registry';",
        'export function startExpiry() {',
        '  setInterval(async () => {',
        "    await Registry.delete('handshake');",
        '  }, 30_000);',
        '}',
      ),
    },
    {
      settings,
      code: lines(
        "import { INVITES } from './invites';",
        'export function startExpiry() {',
        '  setInterval(async () => {',
        '    await INVITES.delete({ used: true });',
        '  }, 30_000);',
        '}',
      ),
    },
  ],
  invalid: [
    {
      settings,
      code: lines(...expiry),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 4,
          column: 15,
          suggestions: suggested(expiry, 1, 4, "    if (!(await claimPeriod('chat:file-4', 60_000))) return;"),
        },
      ],
    },
    {
      settings,
      code: lines(...inactive),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 4,
          column: 15,
          suggestions: suggested(inactive, 1, 4, "    if (!(await claimPeriod('chat:file-4', 3_600_000))) return;"),
        },
      ],
    },
    {
      settings,
      code: lines(...sweep),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 4,
          column: 14,
          suggestions: suggested(sweep, 0, 2, "  if (!(await claimPeriod('chat:sweep', 600_000))) { setTimeout(sweep, 600_000); return; }"),
        },
      ],
    },
  ],
});
