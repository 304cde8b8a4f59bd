// Strapi's data access: the query engine (`strapi.db.query(uid)`), the document service
// (`strapi.documents(uid)`, Strapi 5) and the entity service (`strapi.entityService`, Strapi 4).
// Each names a content type by its uid (`api::ticket.ticket`, `plugin::users-permissions.user`).

/** A content type's uid: a namespace, `::`, then the type (`api::ticket.ticket`). */
export const STRAPI_UID = /^(?:api|plugin|admin|strapi)::[\w-]+(?:\.[\w-]+)?$/;

/** Calls handed a uid that return a content type's own methods (`strapi.db.query(uid)`, `strapi.documents(uid)`). */
export const STRAPI_UID_ACCESSORS: readonly string[] = ['query', 'documents'];

/** The service whose methods take the uid first (`strapi.entityService.findOne(uid, id, params)`). */
export const STRAPI_ENTITY_SERVICE = 'entityService';

/** Methods that read one entry into JavaScript. */
export const STRAPI_READS: readonly string[] = ['findOne', 'findFirst'];

/** Methods that read a list of entries. */
export const STRAPI_LIST_READS: readonly string[] = ['findMany', 'findWithCount', 'findPage'];

/** Methods that write values (`update({ where, data })`, `entityService.update(uid, id, { data })`). */
export const STRAPI_WRITES: readonly string[] = ['update', 'updateMany'];

/** The module a Strapi project imports its factories from. */
export const STRAPI_MODULES: readonly string[] = ['@strapi/strapi'];

/** Strapi's entry of the libraries' reads and writes (orm-reads-writes.ts): its knex connection does the arithmetic. */
export const STRAPI_READS_WRITES = {
  library: 'strapi' as const,
  modules: STRAPI_MODULES,
  reads: [...STRAPI_READS, ...STRAPI_LIST_READS],
  writes: STRAPI_WRITES,
  atomicMethods: [] as readonly string[],
  lockingMethods: [] as readonly string[],
  atomicForm: "strapi.db.connection(table).where({ id }).increment('{{field}}', n) with the bound in where (then check the rows changed)",
};
