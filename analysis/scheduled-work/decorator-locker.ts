// A decorated job handed to a locker the replicas share (src/knowledge/decorator-schedulers.ts):
// nest-schedule's `class Jobs extends NestDistributedSchedule` (its `tryLock(method)` decides each
// run) or `@UseLocker(RedisLocker)` on the method. The scheduler itself coordinates the job.
import type { TSESTree } from '@typescript-eslint/utils';
import { DECORATOR_SCHEDULE_LOCKERS } from '../../src/knowledge/decorator-schedulers.js';
import { decoratorName } from '../ast/decorator-name.js';
import { moduleBindings } from '../imports/module-bindings.js';
import { programOf } from '../ast/program-of.js';

const fromLockerModule = (program: TSESTree.Program | undefined, name: string | undefined): boolean =>
  name !== undefined &&
  program !== undefined &&
  (DECORATOR_SCHEDULE_LOCKERS.modules as readonly string[]).includes(moduleBindings(program).get(name) ?? '');

/** Whether the decorator (`@Cron(…)`) sits on a method of a distributed schedule class, or beside `@UseLocker(…)`. */
export function isHandedToDecoratorLocker(decorator: TSESTree.Decorator): boolean {
  const method = decorator.parent;
  if (method?.type !== 'MethodDefinition') return false;
  const program = programOf(method);
  const locker = (d: TSESTree.Decorator) => (DECORATOR_SCHEDULE_LOCKERS.decorators as readonly string[]).includes(decoratorName(d) ?? '');
  if (method.decorators.some((d) => locker(d) && fromLockerModule(program, decoratorName(d)))) return true;
  const owner = method.parent.parent;
  const base = owner.type === 'ClassDeclaration' || owner.type === 'ClassExpression' ? owner.superClass : undefined;
  return (
    base?.type === 'Identifier' &&
    (DECORATOR_SCHEDULE_LOCKERS.baseClasses as readonly string[]).includes(base.name) &&
    fromLockerModule(program, base.name)
  );
}
