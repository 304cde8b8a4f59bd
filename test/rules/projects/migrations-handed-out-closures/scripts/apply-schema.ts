import { applySchema } from '../src/store/index';

await applySchema();
process.exit(0);
