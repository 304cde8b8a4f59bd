// Whether a read of a database URL is only printed: a banner, a log line, a redacted echo
// (`console.log(`POSTGRES: ${process.env.DATABASE_URL}`)`, `logger.info({ url: redact(env.DATABASE_URL) })`).
// Such a read connects nothing; the entrypoint's URL finding is about the value that reaches a
// client, a pool, a migrator or its options. The read is followed up its expression to the first
// call it is an argument of (through templates, arrays, objects, `??`, and calls that only
// transform a string, like `redact()`): a printing call there means it is only printed.
import type { TSESTree } from '@typescript-eslint/utils';
import { calleeName } from '../../analysis/ast/callee-name.js';

/** Calls that print: console methods and loggers (`log`, `info`, `warn`, `debug`…), and printers named so (`printBoxMessage`, `showBanner`). */
const PRINTING_CALL =
  /^(?:log|info|warn|warning|error|debug|trace|fatal|notice|print\w*|show\w*|echo|write|banner)$|(?:Banner|Message|Log)$/;
/** Calls that only reshape a string on its way to a printer. */
const STRING_TRANSFORM = /^(?:redact\w*|mask\w*|sanitize\w*|obfuscate\w*|hide\w*|String|replace\w*|slice|substring|toString)$/i;

export function isOnlyPrinted(read: TSESTree.Node): boolean {
  let node: TSESTree.Node = read;
  for (let parent = node.parent; parent; node = parent, parent = parent.parent) {
    switch (parent.type) {
      case 'TemplateLiteral':
      case 'ArrayExpression':
      case 'ObjectExpression':
      case 'Property':
      case 'LogicalExpression':
      case 'ConditionalExpression':
      case 'BinaryExpression':
      case 'SpreadElement':
      case 'TSAsExpression':
      case 'TSNonNullExpression':
      case 'ChainExpression':
        continue;
      case 'MemberExpression':
        // `process.env.DATABASE_URL.replace(…)`: the method call decides.
        if (parent.object === node) continue;
        return false;
      case 'CallExpression': {
        const name = calleeName(parent);
        if (parent.callee === node) {
          if (name !== undefined && STRING_TRANSFORM.test(name)) continue;
          return false;
        }
        if (name !== undefined && PRINTING_CALL.test(name)) return true;
        if (name !== undefined && STRING_TRANSFORM.test(name)) continue;
        return false;
      }
      default:
        return false;
    }
  }
  return false;
}
