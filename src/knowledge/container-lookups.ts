// How a dependency-injection container hands out the instance of a class: NestJS's
// `app.get(BillingService)`, `moduleRef.get(…)` / `moduleRef.resolve(…)`, and the same shape in
// other containers (`container.get(Service)`, `container.resolve(Service)`). Plain data.

/** Methods of a container that return its instance of the class they are handed (`app.get(BillingService)`). */
export const CONTAINER_LOOKUP_METHODS: ReadonlySet<string> = new Set(['get', 'resolve']);

/** A class's name as written (`BillingService`): a capital first letter, as containers are handed classes, not strings or keys. */
export const CLASS_NAME = /^[A-Z]\w*$/;
