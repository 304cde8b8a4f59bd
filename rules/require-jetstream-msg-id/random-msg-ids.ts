// A `msgID` made fresh at the publish (`msgID: uuidv4()`, `msgID: String(Date.now())`): the server
// dedupes by the id, and a retried publish makes a new one, so the retry is stored again. The same
// for a `Nats-Msg-Id` header set to such a value, or to a `const` the publishing function makes
// from one (`` const id = `${event.type} at ${new Date()}` ``).
import type { TSESTree } from '@typescript-eslint/utils';
import { importedReferences, type TrackedApi } from '../../analysis/imports/imported-references.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import type { DetectContext } from '../utils/create-rule.js';
import { MSG_ID_OPTION } from '../../src/knowledge/jetstream.js';
import { RANDOM_ID_MAKERS } from '../../src/knowledge/random-ids.js';
import { HEADERS_OPTION } from '../../src/knowledge/jetstream.js';
import { enclosingFunction } from '../../analysis/sql/enclosing-function.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { msgIdHeaderValues } from './header-msg-ids.js';

const CATALOGUE: readonly TrackedApi<true>[] = RANDOM_ID_MAKERS.map((maker) => ({ ...maker, entry: true }));

/** Conversions that keep an id as random as it was (`String(x)`, `x.toString('hex')`, `` `${x}` ``). */
const TO_TEXT_METHODS: ReadonlySet<string> = new Set([
  'toString',
  'toHexString',
  'toJSON',
  'toISOString',
  'getTime',
  'valueOf',
  'slice',
  'substring',
  'replace',
]);

/** The calls in `value` that make the id, through text conversions and templates. */
function idMakingCalls(value: TSESTree.Node, depth = 0): TSESTree.Node[] {
  if (depth > 4) return [];
  const node = unwrapExpression(value);
  if (node.type === 'TemplateLiteral') return node.expressions.flatMap((e) => idMakingCalls(e, depth + 1));
  if (node.type === 'BinaryExpression' && node.operator === '+')
    return [...idMakingCalls(node.left, depth + 1), ...idMakingCalls(node.right, depth + 1)];
  if (node.type === 'NewExpression') return [node];
  if (node.type !== 'CallExpression') return [];
  const callee = unwrapExpression(node.callee);
  const first = node.arguments[0];
  if (callee.type === 'Identifier' && callee.name === 'String' && first && first.type !== 'SpreadElement')
    return idMakingCalls(first, depth + 1);
  if (callee.type === 'MemberExpression' && TO_TEXT_METHODS.has(memberPropertyName(callee) ?? ''))
    return [node, ...idMakingCalls(callee.object, depth + 1)];
  return [node];
}

/** A file's random-id makers, asked of an id's value (made only when a publish or a forwarding call has one). */
export interface RandomIds {
  /** The `key` property of publish options (`msgID` unless a helper reads its own key) when its value is made fresh. */
  property(options: TSESTree.ObjectExpression, key?: string): TSESTree.Property | undefined;
  /** Whether an id's value is made fresh where it is written (`randomUUID()`, `` `${type}-${Date.now()}` ``). */
  fresh(value: TSESTree.Node): boolean;
  /** The value a `Nats-Msg-Id` header of the publish `call`'s options is set to, when it is made fresh. */
  header(options: TSESTree.ObjectExpression, call: TSESTree.CallExpression): TSESTree.Node | undefined;
}

/** A `const` the function `within` declares: its initialiser (`const id = \`…${new Date()}\``), else the value itself. */
function constValueIn(value: TSESTree.Node, within: TSESTree.Node | undefined, context: DetectContext): TSESTree.Node {
  const node = unwrapExpression(value);
  const def = node.type === 'Identifier' ? scopeVariable(context.sourceCode, node)?.defs[0] : undefined;
  const declarator = def?.node.type === 'VariableDeclarator' && def.node.id === def.name ? def.node : undefined;
  const isConst = declarator?.parent?.type === 'VariableDeclaration' && declarator.parent.kind === 'const';
  return isConst && declarator.init && within && enclosingFunction(declarator) === within ? declarator.init : value;
}

/** Per file, the calls of random-id makers (found once, when an id's value is first asked about). */
export function randomMsgIdsIn(context: DetectContext): RandomIds {
  let makers: ReadonlySet<TSESTree.Node> | undefined;
  const fresh = (value: TSESTree.Node): boolean => {
    const calls = idMakingCalls(value);
    if (calls.length === 0) return false;
    makers ??= new Set(importedReferences(context, CATALOGUE).map((ref) => ref.node));
    // A constructor handed a value makes the id from it (`new Date(event.at)`, `new ObjectId(hex)`).
    return calls.some((call) => makers!.has(call) && !(call.type === 'NewExpression' && call.arguments.length > 0));
  };
  return {
    property(options, key = MSG_ID_OPTION) {
      const property = options.properties.find(
        (p): p is TSESTree.Property => p.type === 'Property' && !p.computed && propertyKeyName(p) === key,
      );
      return property && fresh(property.value) ? property : undefined;
    },
    fresh,
    header(options, call) {
      const headers = options.properties.find(
        (p): p is TSESTree.Property => p.type === 'Property' && !p.computed && propertyKeyName(p) === HEADERS_OPTION,
      );
      const values = headers ? msgIdHeaderValues(headers.value, context.sourceCode) : [];
      const publisher = enclosingFunction(call);
      return values.find((value) => fresh(constValueIn(value, publisher, context)));
    },
  };
}
