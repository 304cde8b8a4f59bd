import { loadDemo } from './controllers/demo.js';

await loadDemo(0);
