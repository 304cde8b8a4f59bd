// eslint-doc-generator loads a plugin from a directory's package.json `main`; the package's own
// `main` is the runtime, so this shim hands it rules/index.ts, compiled on the fly by tsx.
const { require: tsxRequire } = require('tsx/cjs/api');

module.exports = tsxRequire('../../rules/index.ts', __filename).default;
