// JetStream contexts that come from another module of the project: a helper that returns one
// (`getBus()` from './bus', however it is named) and a value a module exports
// (`export const js = nc.jetstream()`). Asked through the module summaries only for publish
// receivers the linted file cannot place itself.
import type { TSESLint } from '@typescript-eslint/utils';
import { defineFunctionFact, projectFunctionOf, projectValueOf, type ProjectFunction } from '../../analysis/modules/index.js';
import type { DetectContext } from '../../analysis/detect-context.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { returnedExpressions } from '../../analysis/ast/returned-expressions.js';
import type { JetStreamApi } from '../../src/knowledge/jetstream.js';
import { createJetStreamContexts, type CrossFileContexts, type JetStreamContexts } from './contexts.js';

/** One context reader per module read (a module's SourceCode is kept while the file is unchanged). */
const readers = new WeakMap<object, JetStreamContexts>();
export function contextsOfModule(sourceCode: Readonly<TSESLint.SourceCode>): JetStreamContexts {
  let contexts = readers.get(sourceCode);
  if (!contexts) {
    contexts = createJetStreamContexts(sourceCode);
    readers.set(sourceCode, contexts);
  }
  return contexts;
}

/** Which client's JetStream context a project function returns (directly, or by returning another helper's), or null. */
export const returnsJetStreamContext: (fn: ProjectFunction) => JetStreamApi | null = defineFunctionFact<JetStreamApi | null>(
  'returnsJetStreamContext',
  null,
  (fn, follow): JetStreamApi | null => {
    const contexts = contextsOfModule(fn.module.sourceCode);
    for (const returned of returnedExpressions(fn.fn)) {
      const api = contexts.apiOf(returned);
      if (api) return api;
      const value = unwrapExpression(returned, { await: true });
      const inner = value.type === 'CallExpression' ? follow(value.callee) : undefined;
      const innerApi: JetStreamApi | null = inner ? returnsJetStreamContext(inner) : null;
      if (innerApi) return innerApi;
    }
    return null;
  },
);

/** The cross-file answers for the linted file. */
export function crossFileContexts(context: DetectContext): CrossFileContexts {
  return {
    callResult(call) {
      const fn = projectFunctionOf(context, call.callee);
      return (fn && returnsJetStreamContext(fn)) ?? undefined;
    },
    importedValue(identifier) {
      const value = projectValueOf(context, identifier);
      if (!value || value.module.path === context.filename) return undefined;
      try {
        return contextsOfModule(value.module.sourceCode).apiOf(value.node);
      } catch {
        return undefined;
      }
    },
  };
}
