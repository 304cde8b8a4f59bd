// A guard does nothing until `setLeaseClient(redis)` runs. After the files are transformed, if the
// project uses guards and never calls setLeaseClient: where exactly one Redis client is created
// at module level in a module that runs (reached from where the service starts or from the guarded
// code), call it right after that; otherwise say where it has to go. Never a second call.
import type { TSESTree } from '@typescript-eslint/utils';
import { createRule } from '../../rules/utils/create-rule.js';
import { importedReferences } from '../../analysis/imports/imported-references.js';
import { holdsQuoted } from '../../analysis/source/quoted-word.js';
import { LEASE_CLIENT_SETTER, REDIS_CLIENT_FACTORIES } from '../../src/knowledge/redis-clients.js';
import { RUNTIME_MODULE } from '../../rules/rewrites/runtime-import.js';
import { reachableFrom, serviceStarts } from './service-start.js';
import { lineAt } from './text-edits.js';
import type { ProjectOutput, ProjectView } from './transform.js';

/** A Redis client bound to a module-level variable: `const redis = new Redis(url)`. */
export interface ModuleLevelClient {
  path: string;
  name: string;
  /** The whole top-level statement (including `export`), so the call goes after it. */
  statement: TSESTree.Node;
  line: number;
}

const catalogue = REDIS_CLIENT_FACTORIES.map((f) => ({ modules: f.modules, path: f.path, kind: f.kind, entry: f }));

interface ClientFacts {
  name: string | undefined;
  statement: TSESTree.Node | undefined;
}

/** Not a lint rule: how the wiring step finds client creations, with the rules' import tracking. */
export const redisClientCreations = createRule<'client', [], ClientFacts>({
  name: 'redis-client-creations',
  meta: {
    type: 'suggestion',
    docs: { description: 'Redis clients created in a file.', recommended: false },
    messages: { client: 'Redis client' },
    schema: [],
  },
  defaultOptions: [],
  detect(context, report) {
    return {
      'Program:exit'() {
        for (const ref of importedReferences(context, catalogue)) {
          const declarator = ref.node.parent;
          const declaration = declarator?.parent;
          const atTop =
            declaration?.type === 'VariableDeclaration' &&
            (declaration.parent?.type === 'Program' || declaration.parent?.parent?.type === 'Program');
          const named = declarator?.type === 'VariableDeclarator' && declarator.id.type === 'Identifier' && declarator.init === ref.node;
          const statement = declaration?.parent?.type === 'ExportNamedDeclaration' ? declaration.parent : declaration;
          report({
            messageId: 'client',
            node: ref.node,
            facts: {
              name: named && atTop ? (declarator.id as TSESTree.Identifier).name : undefined,
              statement: named && atTop ? statement : undefined,
            },
          });
        }
      },
    };
  },
});

const USES_RUNTIME = new RegExp(`['"]${RUNTIME_MODULE}['"]`);
/**
 * A file that can create a client names a client module as a whole string (`from 'ioredis'`,
 * `require("redis")`): the import tracking matches the specifier exactly. A file that only says
 * the word (`@redis/client`'s own modules, a comment) is not parsed: a library or a monorepo has
 * hundreds of those. It also reaches one of that module's factories: a `construct` factory only in
 * a `new` expression (a keyword no escape can spell), a named one (`createClient`, `Cluster`) only
 * where its name is written (an import, a destructuring, `redis.createClient`) unless an escape
 * (`create\u0043lient`) spells it. A module that only takes a client it is given, or imports a
 * client's types or helpers, is not parsed either.
 */
const ESCAPE = /\\u/;
const NEW = /(?<![\w$])new(?![\w$])/;
export const mayCreateClient = (text: string): boolean =>
  REDIS_CLIENT_FACTORIES.some(
    (factory) =>
      factory.modules.some((module) => holdsQuoted(text, module)) &&
      (factory.kind !== 'construct' || NEW.test(text)) &&
      (factory.path.length === 0 || ESCAPE.test(text) || text.includes(factory.path.at(-1)!)),
  );
const CALLS_SETTER = new RegExp(`\\b${LEASE_CLIENT_SETTER}\\s*\\(`);

function clientsIn(view: ProjectView): { atModuleLevel: ModuleLevelClient[]; elsewhere: Array<{ path: string; line: number }> } {
  const atModuleLevel: ModuleLevelClient[] = [];
  const elsewhere: Array<{ path: string; line: number }> = [];
  for (const [path, text] of view.files) {
    if (!mayCreateClient(text)) continue;
    for (const finding of view.detect(path, text, redisClientCreations)) {
      const { facts } = finding;
      const line = lineAt(text, finding.node.range[0]);
      if (facts.name && facts.statement) atModuleLevel.push({ path, name: facts.name, statement: facts.statement, line });
      else elsewhere.push({ path, line });
    }
  }
  return { atModuleLevel, elsewhere };
}

export function leaseClientWiring(view: ProjectView): ProjectOutput {
  const none: ProjectOutput = { changes: [], manual: [] };
  const texts = [...view.files];
  const guardUsers = texts.filter(([, text]) => USES_RUNTIME.test(text));
  if (view.fixed === 0 && guardUsers.length === 0) return none;
  if (texts.some(([, text]) => CALLS_SETTER.test(text))) return none;

  const { atModuleLevel, elsewhere } = clientsIn(view);
  // Only a module that runs: reached from where the service starts, or from the guarded code itself.
  const starts = serviceStarts(view.cwd, view.files);
  const running = reachableFrom([...starts, ...guardUsers.map(([path]) => path)], view.files);
  const client = atModuleLevel.length === 1 && elsewhere.length === 0 ? atModuleLevel[0]! : undefined;
  if (client && !running.has(client.path)) {
    const where = starts[0] ? `where the service starts (${view.relative(starts[0])})` : 'where the service starts';
    const reason = `${view.relative(client.path)} creates the Redis client but nothing the service runs imports it: call ${LEASE_CLIENT_SETTER}(${client.name}) once ${where}`;
    return { changes: [], manual: [{ path: client.path, line: client.line, reason }] };
  }
  if (client) {
    const file = view.parse(client.path)!;
    const end = client.statement.range[1];
    return {
      changes: [
        {
          path: client.path,
          edits: [{ start: end, end, text: `${file.style.eol}${LEASE_CLIENT_SETTER}(${client.name})${file.style.semicolons ? ';' : ''}` }],
          imports: [LEASE_CLIENT_SETTER],
        },
      ],
      manual: [],
    };
  }
  const anchor = guardUsers[0]?.[0] ?? texts[0]?.[0];
  if (!anchor) return none;
  const all = [...atModuleLevel, ...elsewhere];
  const reason =
    all.length === 0
      ? `guards do nothing until ${LEASE_CLIENT_SETTER}(<redis client>) runs, and no Redis client is created here: call it once at startup with your ioredis or node-redis client`
      : `${all.length} Redis client creations (${all.map((c) => `${view.relative(c.path)}:${c.line}`).join(', ')}), not exactly one at module level: call ${LEASE_CLIENT_SETTER}(<the client for leases>) once at startup`;
  const where = all[0] ?? { path: anchor, line: 1 };
  return { changes: [], manual: [{ path: where.path, line: where.line, reason }] };
}
