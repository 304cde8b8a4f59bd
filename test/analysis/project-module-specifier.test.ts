// Which import specifiers name a module of the project (src/knowledge/project-modules.ts): the one
// test every rule asks before following an import, so a path alias is followed everywhere or nowhere.
import { describe, expect, it } from 'vitest';
import { isProjectModuleSpecifier } from '../../src/knowledge/project-modules.js';

describe('isProjectModuleSpecifier', () => {
  it.each(['.', '..', './jobs', '../services/mailer', '@/lib/db', '~/db', '~lib/db', '#jobs', 'src/models/order'])(
    '%s is a module of the project',
    (specifier) => expect(isProjectModuleSpecifier(specifier)).toBe(true),
  );
  it.each(['pg', '@prisma/client', 'node:fs', 'lodash/merge', '.bin-like', undefined])('%s is not', (specifier) =>
    expect(isProjectModuleSpecifier(specifier)).toBe(false),
  );
});
