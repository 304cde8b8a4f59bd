// What a detection may read of ESLint's rule context. The codemod engine builds the same object for
// a file it parses itself, so every analysis works under both.
import type { RuleContext } from '@typescript-eslint/utils/ts-eslint';

/** The members of ESLint's rule context a detection may read (the codemod engine passes the same). */
export type DetectContext<MessageIds extends string = string, Options extends readonly unknown[] = readonly unknown[]> = Readonly<
  Pick<
    RuleContext<MessageIds, Options>,
    'id' | 'options' | 'sourceCode' | 'settings' | 'filename' | 'physicalFilename' | 'cwd' | 'languageOptions'
  >
>;
