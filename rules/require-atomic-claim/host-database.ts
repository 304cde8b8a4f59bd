// A read through a Prisma client whose package's schema is SQLite (`provider = "sqlite"`): the
// database is a file on this host or device, which no second replica shares, and SQLite runs one
// write transaction at a time. A claim race between replicas cannot happen there.
import type { TSESTree } from '@typescript-eslint/utils';
import { prismaOnHostDatabase } from '../../analysis/modules/index.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import type { DatabaseCall } from './claim-shapes.js';

/** A name of a Prisma client (`prisma`, `prismaClient`, `this.prisma`). */
const PRISMA_CLIENT = /prisma/i;

/** The name a call's receiver chain starts from: `prisma` in `prisma.job.findFirst(…)` and in `this.prisma.job.findFirst(…)`. */
function receiverRoot(call: DatabaseCall): string | undefined {
  let node: TSESTree.Node = call.type === 'TaggedTemplateExpression' ? call.tag : call.callee;
  for (;;) {
    if (node.type === 'CallExpression') node = node.callee;
    else if (node.type === 'MemberExpression' && node.object.type === 'ThisExpression') return memberPropertyName(node);
    else if (node.type === 'MemberExpression') node = node.object;
    else if (node.type === 'AwaitExpression') node = node.argument;
    else return node.type === 'Identifier' ? node.name : undefined;
  }
}

/** Whether a read goes through a Prisma client of a package whose Prisma schema is SQLite. */
export const readsPrismaOnHostDatabase = (read: DatabaseCall, filename: string): boolean =>
  PRISMA_CLIENT.test(receiverRoot(read) ?? '') && prismaOnHostDatabase(filename);
