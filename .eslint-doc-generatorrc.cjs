// eslint-doc-generator (npm run docs:generate / docs:check). The plugin is loaded from
// scripts/docs-plugin (rules/index.ts from source), so paths are relative to that directory.
/** @type {import('eslint-doc-generator').GenerateOptions} */
module.exports = {
  pathRuleDoc: '../../docs/rules/{name}.md',
  pathRuleList: '../../README.md',
  ruleDocTitleFormat: 'name',
  // The description is the doc's own first paragraph (checked by test/meta), not a notice.
  ruleDocNotices: ['deprecated', 'configs', 'fixableAndHasSuggestions', 'requiresTypeChecking', 'options'],
  ruleDocSectionInclude: ['Why', 'Incorrect', 'Correct', 'When not to use it'],
  // Every doc has an Options section ("none" for rules without options); test/meta checks that
  // each option is mentioned, so the generator must not forbid the section.
  ruleDocSectionOptions: false,
  ruleListColumns: ['name', 'description', 'configsError', 'hasSuggestions', 'requiresTypeChecking'],
};
