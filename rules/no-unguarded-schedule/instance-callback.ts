// Whether a timer only runs a callback its instance was built with: a timer utility
// (`class SoonestTimer { constructor(private cb) {} … setTimeout(() => this.cb(), ms) }`,
// `constructor(run) { this.run = run; } … setInterval(this.run, ms)`) is a tool, like a wrapper
// forwarding a parameter; the work is whatever the code that builds it hands in.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { isFunctionLike } from '../../analysis/scheduled-work/work-function.js';

/** `this.cb`, `this.cb.bind(this)`, `() => this.cb()`, `async () => { await this.cb(); }`: the field the timer runs. */
function fieldRun(expression: TSESTree.Node): string | undefined {
  let node = unwrapExpression(expression);
  if (isFunctionLike(node)) {
    let body: TSESTree.Node | null | undefined = node.body;
    if (body.type === 'BlockStatement') {
      const only = body.body.length === 1 ? body.body[0] : undefined;
      body = only?.type === 'ExpressionStatement' ? only.expression : only?.type === 'ReturnStatement' ? only.argument : undefined;
    }
    if (!body) return undefined;
    let call = unwrapExpression(body, { await: true });
    if (call.type === 'UnaryExpression' && call.operator === 'void') call = unwrapExpression(call.argument, { await: true });
    if (call.type !== 'CallExpression') return undefined;
    node = unwrapExpression(call.callee);
  } else if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression' && memberPropertyName(node.callee) === 'bind') {
    node = unwrapExpression(node.callee.object);
  }
  return node.type === 'MemberExpression' && node.object.type === 'ThisExpression' ? memberPropertyName(node) : undefined;
}

/** The class's constructor takes `name` as a parameter property, or assigns a parameter to `this.name`. */
function constructorTakes(classBody: TSESTree.ClassBody, name: string): boolean {
  const constructor = classBody.body.find((m) => m.type === 'MethodDefinition' && m.kind === 'constructor');
  if (constructor?.type !== 'MethodDefinition') return false;
  const params = constructor.value.params;
  const paramNames = new Set<string>();
  for (const param of params) {
    const inner = param.type === 'TSParameterProperty' ? param.parameter : param;
    const id = inner.type === 'AssignmentPattern' ? inner.left : inner;
    if (id.type !== 'Identifier') continue;
    if (param.type === 'TSParameterProperty' && id.name === name) return true;
    paramNames.add(id.name);
  }
  return (constructor.value.body?.body ?? []).some((statement) => {
    const e = statement.type === 'ExpressionStatement' ? statement.expression : undefined;
    return (
      e?.type === 'AssignmentExpression' &&
      e.left.type === 'MemberExpression' &&
      e.left.object.type === 'ThisExpression' &&
      memberPropertyName(e.left) === name &&
      e.right.type === 'Identifier' &&
      paramNames.has(e.right.name)
    );
  });
}

/** Whether the timer's work (`expression`, where it is handed over) only runs a callback the instance was built with. */
export function runsInstanceCallback(expression: TSESTree.Node | undefined): boolean {
  const name = expression ? fieldRun(expression) : undefined;
  if (name === undefined) return false;
  for (let node = expression!.parent; node; node = node.parent) if (node.type === 'ClassBody') return constructorTakes(node, name);
  return false;
}
