// `replica-codemod [paths…]`
console.log('usage: replica-codemod [paths…] [--dry-run] [--check] [--transform a,b] [--json] [--service NAME] [--force]');
