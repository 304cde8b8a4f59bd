// The codemod benchmark's third side: a jscodeshift transform that changes nothing. Like a
// transform that finds nothing to rewrite, it parses each file and prints it back; the parser is
// chosen as replica-codemod chooses it: TypeScript (`tsx`) for .ts/.mts/.cts, JavaScript (`babel`)
// for the rest.
const jscodeshift = require('jscodeshift');

const typescript = jscodeshift.withParser('tsx');
const javascript = jscodeshift.withParser('babel');

module.exports = (file) => {
  const j = /\.[cm]?tsx?$/.test(file.path) ? typescript : javascript;
  return j(file.source).toSource();
};
