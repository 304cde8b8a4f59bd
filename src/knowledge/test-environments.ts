// How code says it runs under a test runner: the run environment's value for tests
// (`process.env.NODE_ENV === 'test'`) and the flags and predicates named for it (`isTest()`,
// `config.isTestEnv`, `IS_TESTING`). Plain data.

/** Values of the run environment (`NODE_ENV`, `APP_ENV`, `config.env`) under a test runner. */
export const TEST_ENVIRONMENTS: readonly string[] = ['test', 'testing'];

/** Flags and predicates that hold under tests only, matched on the last name with underscores removed. */
export const TEST_FLAG_PATTERN = /^(?:is|in)(?:test|testing|testenv|testenvironment|testmode|underTest)$/i;
