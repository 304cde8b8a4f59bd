// Programmatic API of the codemod engine: `import { runCodemod } from 'replica-guard/codemod'`.
export {};
