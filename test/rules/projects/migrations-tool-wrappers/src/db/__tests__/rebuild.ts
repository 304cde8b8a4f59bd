import { rebuildForTests } from '../schema';

await rebuildForTests();
