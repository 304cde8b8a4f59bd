// Adds `"migrate": "<command>"` to package.json `scripts` as a text insertion, so the rest of the
// file (key order, spacing, line endings) stays exactly as written. Never replaces a script.

export type ScriptResult = { kind: 'added'; text: string } | { kind: 'exists'; script: string } | { kind: 'unreadable'; reason: string };

export function withMigrateScript(text: string, command: string): ScriptResult {
  let json: { scripts?: unknown };
  try {
    json = JSON.parse(text) as { scripts?: unknown };
  } catch (error) {
    return { kind: 'unreadable', reason: `package.json does not parse (${error instanceof Error ? error.message : String(error)})` };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { kind: 'unreadable', reason: 'package.json is not an object' };
  const scripts = json.scripts;
  if (scripts !== undefined && (typeof scripts !== 'object' || scripts === null || Array.isArray(scripts)))
    return { kind: 'unreadable', reason: '`scripts` in package.json is not an object' };
  const existing = (scripts as Record<string, unknown> | undefined)?.migrate;
  if (existing !== undefined) return { kind: 'exists', script: String(existing) };

  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
  const entry = `"migrate": ${JSON.stringify(command)}`;
  const scriptsOpen = topLevelObjectOpen(text, 'scripts');
  if (scripts !== undefined && scriptsOpen !== undefined) {
    const open = scriptsOpen;
    const empty = /^\s*\}/.test(text.slice(open));
    const inner = `${indent}${indent}`;
    const insertion = empty ? `${eol}${inner}${entry}${eol}${indent}` : `${eol}${inner}${entry},`;
    // An empty `{}` gets the entry and its closing brace on their own lines.
    const end = empty ? open + (/^\s*/.exec(text.slice(open))?.[0].length ?? 0) : open;
    return { kind: 'added', text: text.slice(0, open) + insertion + text.slice(end) };
  }
  const rootOpen = text.indexOf('{') + 1;
  const hasKeys = /^\s*"/.test(text.slice(rootOpen));
  const insertion = `${eol}${indent}"scripts": {${eol}${indent}${indent}${entry}${eol}${indent}}${hasKeys ? ',' : eol}`;
  return { kind: 'added', text: text.slice(0, rootOpen) + insertion + text.slice(rootOpen) };
}

/**
 * The offset just after the `{` of the top-level `key` object (`"scripts": {`), skipping strings
 * and nested objects: a `"scripts"` inside another field (an `nx` or workspace config) is not it.
 */
export function topLevelObjectOpen(text: string, key: string): number | undefined {
  let depth = 0;
  let lastString: string | undefined;
  let lastStringDepth = -1;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      lastString = text.slice(i + 1, end);
      lastStringDepth = depth;
      i = end;
      continue;
    }
    if (char === ':' && depth === 1 && lastStringDepth === 1 && lastString === key) {
      const value = /^\s*\{/.exec(text.slice(i + 1));
      if (value) return i + 1 + value[0].length;
    }
    if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') depth--;
    if (char !== ' ' && char !== '\t' && char !== '\r' && char !== '\n' && char !== ':') lastString = undefined;
  }
  return undefined;
}
