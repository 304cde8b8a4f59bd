// Programmatic API of the codemod engine: `import { runCodemod } from 'replica-guard/codemod'`.
export { runCodemod, Engine, CodemodUsageError } from './engine.js';
export { CodemodWorkerError } from './worker-pool.js';
export type { CodemodOptions, CodemodReport, FileChange, FileFailure, ManualFollowUp } from './engine.js';
export { transforms, findTransforms, UnknownTransformError } from './registry.js';
export { formatDiff } from './format-diff.js';
export { MARKER_PREFIX } from './manual-marker.js';
export type {
  Transform,
  TransformContext,
  TransformOutput,
  TextEdit,
  ManualNote,
  SourceFileInfo,
  ProjectOutput,
  ProjectView,
} from './transform.js';
