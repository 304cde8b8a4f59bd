// What the receiver of a migrator method must show before the call counts. Some method names are
// common words other libraries use too: `sync()` is Sequelize's schema write, and also
// `glob.sync(pattern)`, `mkdirp.sync(dir)`, `rimraf.sync(path)`, `execa.sync(cmd)` or a project's
// own `collection.sync()`. For such an entry the file importing the library is not enough: the
// receiver itself must be one of the library's objects. Plain data, read by the migrations family.

import { PRISMA_MIGRATE_MODULES, SEQUELIZE_MODULES, type MigratorLibrary } from './migrators.js';

/** Evidence that a receiver is one of a library's objects. */
export interface ReceiverEvidence {
  /** Modules whose classes make such a receiver: `new Sequelize(url)`, `class User extends Model {}`. */
  modules: readonly string[];
  /** Class names whose `new` makes one, wherever the class comes from (`new Sequelize(url)`). */
  classes: readonly string[];
  /** The receiver's own name (its last segment): `sequelize`, `this.sequelize`, `db.sequelize`, `model`, `this.userModel`. */
  names: RegExp;
  /** Type names of an annotation on the receiver: `sequelize: Sequelize`, `model: ModelStatic<User>`. */
  types: RegExp;
  /** Methods of such a receiver that return another one: `sequelize.define('user', …)`, `sequelize.model('user')`. */
  makers: readonly string[];
  /**
   * Whether a class name (`User`) imported from a module of the project (a relative path) counts:
   * the project's model classes, in a file that imports the library.
   */
  projectClasses: boolean;
}

/** Receiver evidence by library, for the entries whose method names are too common to stand alone. */
export const RECEIVER_EVIDENCE: Partial<Readonly<Record<MigratorLibrary, ReceiverEvidence>>> = {
  sequelize: {
    modules: SEQUELIZE_MODULES,
    classes: ['Sequelize'],
    names: /^(?:sequelize|models?|\w+(?:Sequelize|Model))$/,
    types: /^(?:Sequelize|Model|ModelStatic|ModelCtor|ModelDefined)$/,
    makers: ['define', 'model'],
    projectClasses: true,
  },
  // `push` is every array's method: only an instance of Prisma Migrate's `Migrate` class counts.
  prisma: {
    modules: PRISMA_MIGRATE_MODULES,
    classes: ['Migrate'],
    names: /^(?!)/,
    types: /^Migrate$/,
    makers: [],
    projectClasses: false,
  },
};

/**
 * Names a project gives the Sequelize client another of its modules builds (`db`, `database`, `seq`, `seqClient`,
 * `mainDb`, `appDatabase`, capitalised as a default import often is: `Database`, `DB`): with that module out of view, a bare `sync()` on such a name is the schema sync
 * (receivers-out-of-view.ts). `conn`, `store` or `repo` say nothing of a database.
 */
export const OUT_OF_VIEW_CLIENT_NAMES = /^(?:[dD]b|DB|[dD]atabase|[sS]equelize|seq)(?:[A-Z_\d]\w*)?$|^\w+(?:Db|DB|Database|Sequelize)$/;
