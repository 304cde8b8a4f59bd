import { importData } from '../src/controllers/imports.js';

await importData(1, [{ amount: 3 }]);
