// Whether a migrate entrypoint speaks only MongoDB's protocol: the database modules it loads are
// all MongoDB's driver or ODMs (`import { MongoClient } from 'mongodb'`, `require('mongoose')`, or a
// loader of the script's own given the name, `createRequire(url)('mongodb')`, `requireAny('mongodb')`).
// A copy between two MongoDB-protocol stores (MongoDB to FerretDB) or a MongoDB data upgrade has no
// PostgreSQL session to take an advisory lock on and no POSTGRES_MIGRATE_URL to read: the
// entrypoint's lock and URL findings are PostgreSQL's. Any other database module loaded (a driver,
// an ORM, a project module named `db`) keeps them.
import type { TSESTree } from '@typescript-eslint/utils';
import { calleeName } from '../../analysis/ast/callee-name.js';
import { DATABASE_MODULE_SPECIFIER, MONGODB_MODULES } from '../../src/knowledge/database-access.js';

/** The string a call or `import()` is given as its only argument, when it is a literal. */
function onlyLiteral(argumentsOf: readonly TSESTree.Node[]): string | undefined {
  const [argument] = argumentsOf;
  return argumentsOf.length === 1 && argument?.type === 'Literal' && typeof argument.value === 'string' ? argument.value : undefined;
}

/** Whether the entrypoint's database modules (imported, required, loaded by name) are all MongoDB's, and there is one. */
export function speaksOnlyMongoDb(
  program: TSESTree.Program,
  calls: readonly TSESTree.CallExpression[],
  dynamicImports: readonly TSESTree.ImportExpression[],
): boolean {
  const loaded: string[] = [];
  for (const statement of program.body) if (statement.type === 'ImportDeclaration') loaded.push(statement.source.value);
  for (const node of dynamicImports) {
    const specifier = onlyLiteral([node.source]);
    if (specifier !== undefined) loaded.push(specifier);
  }
  for (const call of calls) {
    const specifier = onlyLiteral(call.arguments);
    // `require('pg')`; a MongoDB module's name given to any loader (`req('mongodb')`).
    if (specifier !== undefined && (calleeName(call) === 'require' || MONGODB_MODULES.includes(specifier))) loaded.push(specifier);
  }
  const databases = loaded.filter((specifier) => DATABASE_MODULE_SPECIFIER.test(specifier));
  return databases.length > 0 && databases.every((specifier) => MONGODB_MODULES.includes(specifier));
}
