// A schedule handed a function imported from another module (`cron.schedule('0 1 * * *',
// expirePoints)`): the guard cannot go into a body this file does not hold, so the reference is
// wrapped where it is handed over — `async (...args) => { <guard> return expirePoints(...args); }`
// — which guards this schedule and leaves the function (and its other callers) as they are.
import { chainStart } from '../../../analysis/ast/chain-root.js';
import type { TSESTree } from '@typescript-eslint/utils';
import { WORK_NOT_DEFINED_HERE, type UnguardedScheduleFacts } from '../../../rules/no-unguarded-schedule.js';
import type { SourceFileInfo, TextEdit } from '../../engine/transform.js';

/** Whether `name` is bound by an import or a `require` in this file. */
function isImported(file: SourceFileInfo, name: TSESTree.Identifier): boolean {
  let scope: ReturnType<SourceFileInfo['sourceCode']['getScope']> | null = file.sourceCode.getScope(name as never);
  for (; scope; scope = scope.upper) {
    const variable = scope.set.get(name.name);
    if (!variable) continue;
    const def = variable.defs[0];
    if (def?.type === 'ImportBinding') return true;
    if (def?.type !== 'Variable') return false;
    const declared = (def.node as TSESTree.VariableDeclarator).init;
    const init = declared && chainStart(declared);
    return init?.type === 'CallExpression' && init.callee.type === 'Identifier' && init.callee.name === 'require';
  }
  return false;
}

/**
 * The one imported function the schedule is handed, when the rule found no work function in this file
 * (not when the schedule hands it what tells its instances apart: one wrapped key would serve them all).
 */
export function importedWorkArgument(facts: UnguardedScheduleFacts, file: SourceFileInfo): TSESTree.Identifier | undefined {
  if (facts.workFunction || facts.loopBody || facts.decorator || !facts.period || facts.manual !== WORK_NOT_DEFINED_HERE) return undefined;
  const candidates = facts.schedulerNode.arguments.filter((a): a is TSESTree.Identifier => a.type === 'Identifier' && isImported(file, a));
  return candidates.length === 1 ? candidates[0] : undefined;
}

/** The reference becomes a guarded arrow; in TypeScript its parameters are the function's own. */
export function wrapEdit(reference: TSESTree.Identifier, guard: string, file: SourceFileInfo): TextEdit {
  const name = reference.name;
  const typed = /\.[cm]?tsx?$/.test(file.path) ? `: Parameters<typeof ${name}>` : '';
  const semi = file.style.semicolons ? ';' : '';
  const statement = file.style.semicolons ? guard : guard.replace(/;$/, '');
  return {
    start: reference.range[0],
    end: reference.range[1],
    text: `async (...args${typed}) => { ${statement} return ${name}(...args)${semi} }`,
  };
}
