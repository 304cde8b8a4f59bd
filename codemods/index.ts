// Programmatic API of the codemod engine: `import { runCodemod } from 'replica-guard/codemod'`.
export { runCodemod, Engine, CodemodUsageError } from './engine/engine.js';
export { CodemodWorkerError } from './engine/worker-pool.js';
export type { CodemodOptions, CodemodReport, FileChange, FileFailure, ManualFollowUp } from './engine/engine.js';
export { transforms, findTransforms, UnknownTransformError } from './registry.js';
export { formatDiff } from './engine/format-diff.js';
export { MARKER_PREFIX } from './engine/manual-marker.js';
export type {
  Transform,
  TransformContext,
  TransformOutput,
  TextEdit,
  ManualNote,
  SourceFileInfo,
  ProjectOutput,
  ProjectView,
} from './engine/transform.js';
