// The line that sends a changed field: in a write whose values are an object written out over
// several lines (`updateOne({ _id }, {\n  stamp,\n  streak: user.streak,\n})`), the field's own
// property may sit more than a few lines below the write's name. A report that already runs from a
// computation far above down to the write (report-span.ts) runs on to that property, so the line
// that computes the value, the write and the line that sends it are all inside it.
import type { TSESTree } from '@typescript-eslint/utils';
import { propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import type { ReadThenWriteFacts } from './model.js';

/** The end of the last property of the written values that sends one of the changed fields, when it ends below `end`; else `end`. */
export function sentFieldsEnd(facts: ReadThenWriteFacts, end: TSESTree.Position, values = facts.writeShape.data): TSESTree.Position {
  const data = values && unwrapExpression(values);
  if (data?.type !== 'ObjectExpression') return end;
  let last = end;
  for (const property of data.properties) {
    if (property.type !== 'Property') continue;
    const key = propertyKeyName(property) ?? '';
    // A MongoDB operator's values (`$set: { … }`), one level down.
    if (key.startsWith('$') && values === facts.writeShape.data) last = sentFieldsEnd(facts, last, property.value);
    else if (facts.fields.includes(key) && property.loc.end.line > last.line) last = property.loc.end;
  }
  return last;
}
