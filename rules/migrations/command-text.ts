// Schema-writing command lines given to exec/spawn/execa (or to what `promisify` makes of exec): their static text (string literals,
// template quasis, array elements, joined with spaces: `spawn('npx', ['prisma', 'migrate',
// 'deploy'])`), with the program told by what its variable holds where the file says it
// (`const bin = join(root, 'node_modules', '.bin', 'prisma')`; `${bin} migrate deploy`). A
// program the file does not spell out (a parameter, the environment, an import) counts only when
// the arguments can only be Prisma's (`migrate deploy`); the file has already passed the rule's
// gate, which asks for the word `prisma` and a process-spawning import.
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { assignedValues } from '../../analysis/ast/assigned-values.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { returnedExpressions } from '../../analysis/ast/returned-expressions.js';
import { constantInitializer } from '../../analysis/sql/sql-text-model.js';
import { enclosingFunction, isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { importedReferences, type TrackedApi } from '../../analysis/imports/imported-references.js';
import { declaredVariables } from '../../analysis/ast/declared-variables.js';
import { calleeName } from '../../analysis/ast/callee-name.js';
import type { DetectContext } from '../../analysis/detect-context.js';
import { migratorApplyCommand } from '../../src/knowledge/migration-scripts.js';
import {
  PRISMA_DIFF_COMMAND,
  PRISMA_EXECUTE_COMMAND,
  PROCESS_SPAWNERS,
  namesPrismaProgram,
  prismaOnlySchemaArguments,
  prismaSchemaCommand,
  type MigratorLibrary,
} from '../../src/knowledge/migrators.js';

type Node = TSESTree.Node;

/** The process-spawning functions called with a command line (tagged templates are found by the rule's listener). */
export const SPAWN_CATALOGUE: TrackedApi<true>[] = PROCESS_SPAWNERS.filter((s) => !s.tagged).flatMap((s) =>
  s.names.map((name) => ({ modules: s.modules, path: [name], kind: 'call' as const, entry: true as const })),
);

/** The same functions read (`promisify(exec)`): what the promisified function is called with is a command line too. */
const SPAWN_USES: TrackedApi<boolean>[] = [
  ...SPAWN_CATALOGUE,
  ...SPAWN_CATALOGUE.map((api) => ({ ...api, kind: 'read' as const, entry: false })),
];

/** The calls of what `promisify` makes of a spawning function read at `node` (`const run = promisify(exec); await run('…')`). */
function promisifiedCalls(node: Node, sourceCode: Readonly<SourceCode>): TSESTree.CallExpression[] {
  const wrap = node.parent;
  const declarator = wrap?.parent;
  if (wrap?.type !== 'CallExpression' || wrap.arguments[0] !== node || calleeName(wrap) !== 'promisify') return [];
  if (declarator?.type !== 'VariableDeclarator' || declarator.init !== wrap || declarator.id.type !== 'Identifier') return [];
  return declaredVariables(sourceCode, declarator, declarator.id.name).flatMap((variable) =>
    variable.references.flatMap((reference) => {
      const call = reference.identifier.parent;
      return call?.type === 'CallExpression' && call.callee === reference.identifier ? [call] : [];
    }),
  );
}

/** The spawns of a file and their arguments: calls of child_process's and execa's functions, and of their promisified forms. */
export function spawnCalls(context: DetectContext): Array<[Node, readonly Node[]]> {
  const out: Array<[Node, readonly Node[]]> = [];
  for (const ref of importedReferences(context, SPAWN_USES)) {
    if (ref.kind === 'call' && ref.node.type === 'CallExpression') out.push([ref.node, ref.node.arguments]);
    else if (ref.kind === 'read')
      for (const use of usesOf(ref.node, context.sourceCode))
        for (const call of promisifiedCalls(use, context.sourceCode)) out.push([call, call.arguments]);
  }
  return out;
}

/** Where a read of a spawning function is used: the imported or destructured binding's references, or the member read itself (`cp.exec`). */
function usesOf(node: Node, sourceCode: Readonly<SourceCode>): Node[] {
  const binding = node.type === 'Property' ? node.value : node;
  if (binding.type !== 'ImportSpecifier' && binding.type !== 'ImportDefaultSpecifier' && binding.type !== 'Identifier') return [node];
  const variable = binding.type === 'Identifier' ? scopeVariable(sourceCode, binding) : sourceCode.getDeclaredVariables(binding)[0];
  return variable?.references.map((reference) => reference.identifier as Node) ?? [];
}

/** Whether a template tag is `$` imported from execa or zx (the tracker reports imports, not tag uses, for reads). */
export function isSpawnerTag(tag: Node, sourceCode: Readonly<SourceCode>): boolean {
  const id = unwrapExpression(tag);
  if (id.type !== 'Identifier') return false;
  const variable = scopeVariable(sourceCode, id);
  const def = variable?.defs[0];
  if (!def || def.type !== 'ImportBinding' || def.node.type !== 'ImportSpecifier' || def.parent?.type !== 'ImportDeclaration') return false;
  const imported = def.node.imported.type === 'Identifier' ? def.node.imported.name : def.node.imported.value;
  const source = def.parent.source.value;
  return PROCESS_SPAWNERS.some((s) => s.tagged === true && s.names.includes(imported) && s.modules.includes(source));
}

/** The migrator whose schema command a spawn runs (`sequelize db:migrate` → sequelize); Prisma's otherwise. */
export const commandLibrary = (command: string): MigratorLibrary => migratorApplyCommand(command)?.library ?? 'prisma';

/** Stands in the command text for a value the file does not spell out. */
const UNKNOWN = '\u0000';
const MAX_DEPTH = 4;

interface Strings {
  strings: string[];
  complete: boolean;
}

/** The string pieces a value is built from in this file: literals, template quasis, path joins, `??` / `||` / `?:` branches, what a variable is given. */
function valueStrings(node: Node, sourceCode: Readonly<SourceCode>, depth: number, out: Strings): void {
  const value = unwrapExpression(node);
  if (depth > MAX_DEPTH) out.complete = false;
  else if (value.type === 'Literal' && typeof value.value === 'string') out.strings.push(value.value);
  else if (value.type === 'TemplateLiteral') {
    out.strings.push(...value.quasis.map((q) => q.value.cooked ?? ''));
    for (const expression of value.expressions) valueStrings(expression, sourceCode, depth + 1, out);
  } else if (value.type === 'BinaryExpression' || value.type === 'LogicalExpression') {
    if (value.left.type !== 'PrivateIdentifier') valueStrings(value.left, sourceCode, depth + 1, out);
    valueStrings(value.right, sourceCode, depth + 1, out);
  } else if (value.type === 'ConditionalExpression') {
    valueStrings(value.consequent, sourceCode, depth + 1, out);
    valueStrings(value.alternate, sourceCode, depth + 1, out);
  } else if (value.type === 'CallExpression') {
    // `join(root, '.bin', 'prisma')`, `require.resolve('prisma/build/index.js')`: the pieces are
    // the arguments; what the call makes of them is not known.
    out.complete = false;
    for (const argument of value.arguments) if (argument.type !== 'SpreadElement') valueStrings(argument, sourceCode, depth + 1, out);
    // A function of this file that finds the binary (`const cli = prismaCli()`): what it returns.
    const callee = unwrapExpression(value.callee);
    const returned = callee.type === 'Identifier' ? returnedValues(callee, sourceCode) : [];
    for (const result of returned) valueStrings(result, sourceCode, depth + 1, out);
  } else if (value.type === 'Identifier') variableStrings(value, sourceCode, depth, out);
  else out.complete = false;
}

/** The values a function of this file named `id` returns (its `return` arguments, or an arrow's expression body). */
function returnedValues(id: TSESTree.Identifier, sourceCode: Readonly<SourceCode>): Node[] {
  const variable = scopeVariable(sourceCode, id);
  const def = variable?.defs.length === 1 ? variable.defs[0]!.node : undefined;
  const fn = def?.type === 'VariableDeclarator' ? def.init : def;
  const candidate = fn ?? undefined;
  return isFunctionNode(candidate) ? returnedExpressions(candidate) : [];
}

/** What a variable of this file is given: its initialiser and every assignment (`bin = join(dir, 'prisma')` in a fallback). */
function variableStrings(id: TSESTree.Identifier, sourceCode: Readonly<SourceCode>, depth: number, out: Strings): void {
  const { values, complete } = assignedValues(sourceCode, id);
  // A parameter, an import, a destructured value: the file does not say what it holds.
  if (!complete) out.complete = false;
  for (const value of values) valueStrings(value, sourceCode, depth + 1, out);
}

/** The text an expression stands for in a command line: `prisma` when it names Prisma's CLI, its one string when it is one, else unknown. */
function expressionText(node: Node, sourceCode: Readonly<SourceCode>): string {
  const found: Strings = { strings: [], complete: true };
  valueStrings(node, sourceCode, 0, found);
  if (found.strings.some(namesPrismaProgram)) return 'prisma';
  return found.complete && found.strings.length === 1 ? found.strings[0]! : UNKNOWN;
}

/**
 * The words a value chooses between, when the file spells each out: `mode === 'status' ? 'status' : 'deploy'`,
 * `process.argv[2] ?? 'deploy'` (the spelt branch only), or a `const` holding such a choice.
 */
function choicesOf(node: Node, sourceCode: Readonly<SourceCode>, depth = 0): string[] | undefined {
  const value = unwrapExpression(node);
  if (depth > MAX_DEPTH) return undefined;
  if (value.type === 'Literal' && typeof value.value === 'string') return [value.value];
  if (value.type === 'ConditionalExpression') {
    const consequent = choicesOf(value.consequent, sourceCode, depth + 1);
    const alternate = choicesOf(value.alternate, sourceCode, depth + 1);
    return consequent && alternate ? [...consequent, ...alternate] : undefined;
  }
  if (value.type === 'LogicalExpression' && value.operator !== '&&') return choicesOf(value.right, sourceCode, depth + 1);
  if (value.type !== 'Identifier') return undefined;
  const init = constantInitializer(value, sourceCode);
  return init ? choicesOf(init, sourceCode, depth + 1) : undefined;
}

/** At most this many command lines are spelt out from the choices of one spawn. */
const MAX_CHOICES = 8;

/** Values a command line (or its argument list) is written as: a `const` holding one of them is read as the command itself. */
const COMMAND_VALUE: ReadonlySet<string | undefined> = new Set(['Literal', 'TemplateLiteral', 'ArrayExpression', 'BinaryExpression']);

/** The command line of a spawn's arguments (or a tagged template's quasi), and the source text of each part left unknown. */
export function migrationCommandLine(nodes: readonly Node[], sourceCode: Readonly<SourceCode>): { text: string; unknown: string[] } {
  // Each part is the words it may be: one, or several where the file chooses (`cond ? 'status' : 'deploy'`).
  const parts: string[][] = [];
  const unknown: string[] = [];
  const expression = (node: Node): void => {
    const text = expressionText(node, sourceCode);
    const choices = text === UNKNOWN ? choicesOf(node, sourceCode) : undefined;
    if (choices) {
      parts.push(choices);
      return;
    }
    parts.push([text]);
    if (text === UNKNOWN) unknown.push(sourceCode.getText(node));
  };
  const constantValueType = (id: TSESTree.Identifier): string | undefined => constantInitializer(id, sourceCode)?.type;
  const visit = (node: Node, depth: number): void => {
    if (depth > 3) return;
    const value = unwrapExpression(node);
    if (value.type === 'Literal' && typeof value.value === 'string') parts.push([value.value]);
    else if (value.type === 'TemplateLiteral') {
      value.quasis.forEach((quasi, i) => {
        parts.push([quasi.value.cooked ?? '']);
        const inner = value.expressions[i];
        if (inner) expression(inner);
      });
    } else if (value.type === 'ArrayExpression') {
      for (const element of value.elements) if (element && element.type !== 'SpreadElement') visit(element, depth + 1);
    } else if (value.type === 'BinaryExpression' && value.operator === '+') {
      visit(value.left, depth + 1);
      visit(value.right, depth + 1);
    } else if (value.type === 'Identifier' && COMMAND_VALUE.has(constantValueType(value))) {
      visit(constantInitializer(value, sourceCode) as Node, depth + 1);
    } else if (value.type !== 'ObjectExpression' && value.type !== 'SpreadElement') expression(value);
  };
  for (const node of nodes) visit(node, 0);
  // Every command line the choices spell (a few at most); the one that writes schema, if one does.
  let lines: string[] = [''];
  for (const words of parts) {
    lines = lines.flatMap((line) => words.map((word) => `${line} ${word}`));
    if (lines.length > MAX_CHOICES) lines = lines.slice(0, MAX_CHOICES);
  }
  const spelt = lines.map((line) => ({ text: line.replace(/\s+/g, ' ').trim(), unknown }));
  return spelt.find((line) => schemaCommandOf(line) !== undefined) ?? spelt[0]!;
}

/** The schema write a command line runs, by Prisma's words: with the program named, or unknown with arguments only Prisma has. */
function schemaCommandOf({ text, unknown }: { text: string; unknown: string[] }): string | undefined {
  const named = prismaSchemaCommand(text) ?? migratorApplyCommand(text)?.command;
  if (named) return named;
  if (!text.startsWith(UNKNOWN)) return undefined;
  const words = prismaOnlySchemaArguments(text.slice(UNKNOWN.length));
  return words && `${unknown[0]} ${words}`;
}

/**
 * The spawns among `spawns` that write schema, with the command to name: a Prisma schema command,
 * and `prisma db execute` in a function that also spawns `prisma migrate diff` (diff-then-apply).
 */
export function schemaWriteCommands(
  spawns: ReadonlyArray<readonly [Node, readonly Node[]]>,
  sourceCode: Readonly<SourceCode>,
): Array<[Node, string]> {
  const lines = spawns.map(([call, nodes]) => [call, migrationCommandLine(nodes, sourceCode)] as const);
  const out: Array<[Node, string]> = [];
  for (const [call, line] of lines) {
    const command = schemaCommandOf(line);
    if (command) out.push([call, command]);
    else if (PRISMA_EXECUTE_COMMAND.test(line.text)) {
      const scope = enclosingFunction(call);
      const diff = lines.some(
        ([other, { text }]) => other !== call && PRISMA_DIFF_COMMAND.test(text) && enclosingFunction(other) === scope,
      );
      if (diff) out.push([call, 'prisma migrate diff | prisma db execute']);
    }
  }
  return out;
}
