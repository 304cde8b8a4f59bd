// A period written with a name the work function cannot see: `startSweep(ms) { setInterval(() =>
// sweep(), ms) }` puts the guard first in `sweep`, where `ms` is not declared, so an inserted
// `claimPeriod(key, ms)` would not compile. The suggestion and the codemod leave such a schedule to
// a human (the same manual decision gates both).
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { SchedulePeriod } from '../../analysis/scheduled-work/scheduled-work.js';
import type { FunctionLike } from '../../analysis/scheduled-work/work-function.js';

type Scope = ReturnType<Readonly<TSESLint.SourceCode>['getScope']>;

/** The text of a period that names things: an interval as written, a cron constant, a time zone. */
function namingText(period: NonNullable<SchedulePeriod>): string {
  if (period.kind === 'interval') return period.text;
  return `${period.kind === 'cron-reference' ? period.text : ''} ${period.tzText ?? ''}`;
}

/** The scope that declares `name`, seen from `scope` outwards, or undefined (a global). */
function declaringScope(scope: Scope | null, name: string): Scope | undefined {
  for (let at = scope; at; at = at.upper) if (at.set.has(name)) return at;
  return undefined;
}

/** The first name of the period that the work function cannot see, or undefined when it sees them all. */
export function periodNameHiddenFrom(
  sourceCode: Readonly<TSESLint.SourceCode>,
  period: SchedulePeriod,
  schedulerNode: TSESTree.Node,
  fn: FunctionLike,
): string | undefined {
  if (!period) return undefined;
  // Names that start an expression: not a property after `.`, not inside a string.
  const text = namingText(period).replace(/(['"`])(?:\\.|(?!\1)[^\\])*\1/g, '');
  const names = text.match(/(?<![\w$.])[A-Za-z_$][\w$]*/g);
  if (!names) return undefined;
  const scope = sourceCode.getScope(schedulerNode);
  for (const name of names) {
    const declared = declaringScope(scope, name);
    const [from, to] = declared?.block.range ?? [0, Infinity];
    if (fn.range[0] < from || fn.range[1] > to) return name;
  }
  return undefined;
}
