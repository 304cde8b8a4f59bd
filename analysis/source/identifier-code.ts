// The text pre-checks read names character by character on the raw text, without a tokenizer.

/**
 * Whether a UTF-16 code unit can be part of a name in source text: ASCII letters, digits, `_`, `$`,
 * and any code unit past ASCII (identifiers may hold non-ASCII letters; a word beside one is not whole).
 */
export function isIdentifierCode(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 36 || code > 127
  );
}
