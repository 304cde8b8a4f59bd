import { importData } from './controllers/imports.js';

// Demo data loaded at every start.
await importData(0, [{ amount: 1 }]);
