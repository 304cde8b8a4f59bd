import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

// A migrator call inside a function whose run ends the process once it succeeds (`process.exit(0)` as a statement
// of its body or its `try` block) is a command's run: a server calling it would stop. Only a successful exit
// counts — `process.exit(1)` in a `catch`, or alone, is how servers fail at start-up — and a close of the client
// alone does not make a function a command (a server's start may close a client it opened for one step). A
// script whose one run ends with `mongoose.disconnect()` is one-shot, as one ending with `knex.destroy()` is.
const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const call = (line: number, column: number) => ({ messageId: 'schemaWriteCall' as const, line, column });

const HEAD = lines("import mongoose from 'mongoose';", "import { Shipment } from '../models/shipment';");

/** An exported function that syncs the indexes, its body's statements after the sync `tail`. */
const exported = (...tail: string[]) =>
  lines(
    HEAD,
    'export async function rebuildIndexes() {',
    '  try {',
    '    await mongoose.connect(process.env.MONGO_URL);',
    '    await Shipment.syncIndexes();',
    ...tail.map((t) => `    ${t}`),
    '  } catch (error) {',
    '    console.error(error);',
    '    process.exit(1);',
    '  }',
    '}',
  );

ruleTester.run('no-in-app-migrations (runs that end the process)', rule, {
  valid: [
    { code: exported('await mongoose.disconnect();', 'process.exit(0);'), filename: 'src/tools/rebuild-indexes.ts' },
    { code: exported('process.exit();'), filename: 'src/tools/rebuild-indexes.ts' },
    // the script's one run closes its connection: the process ends when the run does
    {
      code: lines(
        HEAD,
        'async function main() {',
        '  await mongoose.connect(process.env.MONGO_URL);',
        '  await Shipment.syncIndexes();',
        '  await mongoose.disconnect();',
        '}',
        'main().catch((error) => {',
        '  console.error(error);',
        '  process.exit(1);',
        '});',
      ),
      filename: 'src/tools/rebuild-indexes.ts',
    },
  ],
  invalid: [
    // a failure exit only: a server's start fails the same way
    { code: exported('console.log("indexes rebuilt");'), filename: 'src/db/indexes.ts', errors: [call(6, 11)] },
    { code: exported('if (!Shipment.db) process.exit(1);'), filename: 'src/db/indexes.ts', errors: [call(6, 11)] },
    // a function that also starts a server is a start
    {
      code: exported('app.listen(3000);', 'process.exit(0);'),
      filename: 'src/db/indexes.ts',
      errors: [call(6, 11)],
    },
    // a close of the connection alone does not make the function a command
    { code: exported('await mongoose.disconnect();'), filename: 'src/db/indexes.ts', errors: [call(6, 11)] },
    // the exit belongs to another function than the sync's
    {
      code: lines(
        HEAD,
        'export async function rebuildIndexes() {',
        '  await Shipment.syncIndexes();',
        '}',
        'export function stop() {',
        '  process.exit(0);',
        '}',
      ),
      filename: 'src/db/indexes.ts',
      errors: [call(4, 9)],
    },
  ],
});
