// A document a loader-named method of any object hands back (`const profile = await
// bot.fetchProfile(author)`, the object's module out of reach) that the function then saves itself
// (`profile.save()`): only a loaded document saves itself, so the result is taken for a row read
// when the call was made, as a data-access object's loader result is (helper-reads.ts). A result
// never saved this way, or an object named for configuration, is not taken for one.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression, wrappingExpression } from '../../analysis/ast/unwrapped-expression.js';
import { isSaveOptions } from './saved-parameters.js';

/** Receivers whose methods read configuration, not a row. */
const CONFIGURATION_NAME = /config|setting|option|env|feature|flag|cache/i;

/** Whether `call` is a method call, named for loading (`isLoaderName`), whose result is kept in a `const`/`let` the function saves with `.save()`. */
export function isSavedLoaderResult(
  call: TSESTree.CallExpression,
  sourceCode: Readonly<TSESLint.SourceCode>,
  isLoaderName: (name: string) => boolean,
): boolean {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression' || !isLoaderName(memberPropertyName(callee) ?? '')) return false;
  const receiver = unwrapExpression(callee.object);
  const receiverName =
    receiver.type === 'Identifier' ? receiver.name : receiver.type === 'MemberExpression' ? memberPropertyName(receiver) : undefined;
  if (receiverName === undefined || CONFIGURATION_NAME.test(receiverName)) return false;
  const declarator = wrappingExpression(call).parent;
  if (declarator?.type !== 'VariableDeclarator' || declarator.id.type !== 'Identifier') return false;
  return (scopeVariable(sourceCode, declarator.id)?.references ?? []).some((reference) => {
    const member = reference.identifier.parent;
    const save = member?.parent;
    return (
      member?.type === 'MemberExpression' &&
      member.object === reference.identifier &&
      memberPropertyName(member) === 'save' &&
      save?.type === 'CallExpression' &&
      save.callee === member &&
      save.arguments.every(isSaveOptions)
    );
  });
}
