// Strapi's reads and writes (src/knowledge/strapi.ts): `strapi.db.query(uid).findOne({ where })`
// then `.update({ where, data: { stock: row.stock + n } })`, the document service's
// `strapi.documents(uid)` and the entity service's `findOne(uid, id)` / `update(uid, id, { data })`.
// The content type's uid is the model, so a value moved to another type is not written back.
import type { TSESTree } from '@typescript-eslint/utils';
import { methodChainOf } from '../../analysis/ast/method-chain.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import {
  STRAPI_ENTITY_SERVICE,
  STRAPI_LIST_READS,
  STRAPI_READS,
  STRAPI_UID,
  STRAPI_UID_ACCESSORS,
  STRAPI_WRITES,
} from '../../src/knowledge/strapi.js';
import type { ReadSite, WriteSite } from './model.js';
import { valuesOf } from './write-site.js';

const READS: ReadonlySet<string | undefined> = new Set(STRAPI_READS);
const LIST_READS: ReadonlySet<string | undefined> = new Set(STRAPI_LIST_READS);
const WRITES: ReadonlySet<string | undefined> = new Set(STRAPI_WRITES);
const ACCESSORS: ReadonlySet<string | undefined> = new Set(STRAPI_UID_ACCESSORS);

const uidOf = (node: TSESTree.Node | undefined): string | null => {
  const expr = node && node.type !== 'SpreadElement' ? unwrapExpression(node) : undefined;
  return expr?.type === 'Literal' && typeof expr.value === 'string' && STRAPI_UID.test(expr.value) ? expr.value : null;
};

const propertyOf = (object: TSESTree.Node | undefined, name: string): TSESTree.Node | undefined => {
  const expr = object && object.type !== 'SpreadElement' ? unwrapExpression(object) : undefined;
  if (expr?.type !== 'ObjectExpression') return undefined;
  for (const property of expr.properties) if (property.type === 'Property' && propertyKeyName(property) === name) return property.value;
  return undefined;
};

interface StrapiCall {
  method: string;
  uid: string;
  /** The arguments after the uid: `(params)` of the query engine and documents, `(id, params)` of the entity service. */
  rest: TSESTree.CallExpressionArgument[];
  callee: TSESTree.MemberExpression;
}

/** `strapi.db.query(uid).m(…)`, `strapi.documents(uid).m(…)` or `strapi.entityService.m(uid, …)`, split; undefined otherwise. */
function strapiCallOf(call: TSESTree.CallExpression, methods: (method: string) => boolean): StrapiCall | undefined {
  const callee = unwrapExpression(call.callee);
  const method = callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
  if (callee.type !== 'MemberExpression' || method === undefined || !methods(method)) return undefined;
  const receiver = unwrapExpression(callee.object);
  if (receiver.type === 'MemberExpression' && memberPropertyName(receiver) === STRAPI_ENTITY_SERVICE) {
    const uid = uidOf(call.arguments[0]);
    return uid === null ? undefined : { method, uid, rest: call.arguments.slice(1), callee };
  }
  const { links } = methodChainOf(call);
  const accessor = links[links.length - 2];
  if (links.length !== 2 || !accessor || !ACCESSORS.has(accessor.name)) return undefined;
  const uid = uidOf(accessor.call.arguments[0]);
  return uid === null ? undefined : { method, uid, rest: call.arguments, callee };
}

/** The read `call` is when it reads a Strapi content type's entries; null otherwise. */
export function strapiReadSiteOf(call: TSESTree.CallExpression): ReadSite | null {
  const found = strapiCallOf(call, (method) => READS.has(method) || LIST_READS.has(method));
  if (!found) return null;
  const read: ReadSite = { candidates: ['strapi'], node: call, model: found.uid, locked: false, mutations: [], boundChecks: [] };
  return LIST_READS.has(found.method) ? { ...read, many: true } : read;
}

/** The write `call` is when it updates a Strapi content type's entries (the values under `data`); null otherwise. */
export function strapiWriteSiteOf(call: TSESTree.CallExpression): WriteSite | null {
  const found = strapiCallOf(call, (method) => WRITES.has(method));
  if (!found) return null;
  const service = found.rest.length > 1;
  const params = found.rest[found.rest.length - 1];
  const data = propertyOf(params, 'data');
  if (!data) return null;
  // The filter: the query engine's `where`, the document's `documentId`, the entity service's id.
  const filter = service ? found.rest[0] : (propertyOf(params, 'where') ?? propertyOf(params, 'documentId'));
  const conditions = filter && filter.type !== 'SpreadElement' ? [filter] : [];
  return {
    candidates: ['strapi'],
    model: found.uid,
    node: call,
    reportNode: found.callee.property,
    values: valuesOf(data),
    entities: [],
    conditions,
    shape: { method: found.method, nameNode: found.callee.property, data, filter: conditions[0] },
  };
}
