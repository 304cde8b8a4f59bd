// Small pieces of the taint engine kept beside it: its listeners wrapped so that a shape nobody
// foresaw skips that node instead of failing the lint of the whole file, and the parameters a walk
// of one function starts with holding a read (parameter-rows.ts, entity-parameters.ts, saved-parameters.ts).
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { ReadSite } from './model.js';
import { entityParameterReads } from './entity-parameters.js';
import { saveSpellingsOf, savedParameterReads } from './saved-parameters.js';
import { keyedParameterReads } from './keyed-parameters.js';

/** A listener that never lets an unforeseen shape break linting. */
export function guarded<T>(fn: (node: T) => void): (node: T) => void {
  return (node: T): void => {
    try {
      fn(node);
    } catch {
      // A shape we did not foresee never breaks linting.
    }
  };
}

/** The parameters of `fn` a caller of this file hands a read to (`handed`, parameter-rows.ts), each with that read. */
export function handedReads(
  fn: TSESTree.FunctionLike,
  handed: ReadonlyMap<TSESTree.Node, ReadSite> | undefined,
): { name: string; read: ReadSite }[] {
  if (!handed) return [];
  return fn.params.flatMap((param) => {
    const read = handed.get(param);
    return read && param.type === 'Identifier' ? [{ name: param.name, read }] : [];
  });
}

/**
 * The parameters of `fn` that hold a read when its walk starts: typed as an entity its caller
 * loaded (entity-parameters.ts), handed a read by a call of this file (parameter-rows.ts), a
 * document the function saves itself (saved-parameters.ts), or a row it writes back by its own key
 * to the model it is named for (keyed-parameters.ts).
 */
export function parameterReads(
  fn: TSESTree.FunctionLike,
  handed: ReadonlyMap<TSESTree.Node, ReadSite> | undefined,
  sourceCode: Readonly<TSESLint.SourceCode>,
): { name: string; read: ReadSite }[] {
  const keys = sourceCode.visitorKeys;
  // A body whose text spells no save is not walked for one (saved-parameters.ts).
  const saved = savedParameterReads(fn, keys, saveSpellingsOf(sourceCode));
  return [...entityParameterReads(fn), ...handedReads(fn, handed), ...saved, ...keyedParameterReads(fn, keys)];
}
