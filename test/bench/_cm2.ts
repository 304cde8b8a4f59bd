import { buildBenchCorpus } from './corpus.js';
const c = await buildBenchCorpus();
const { runCodemod } = await import('../../codemods/index.js');
const s = performance.now();
const r = await runCodemod({ cwd: c.dir, paths: ['.'], dryRun: true, force: true, service: 'bench' });
console.log('codemod', ((performance.now() - s) / 1000).toFixed(1), 's', r.filesScanned);
c.dispose();
