// The JetStream context reader on its own: for each `.publish(…)` receiver in a file, which
// client's JetStream context it is (or none), and what the NATS imports of a file are.
import { describe, expect, test } from 'vitest';
import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { createJetStreamContexts, patternPath } from '../../../rules/require-jetstream-msg-id/contexts.js';
import { readNatsImports, type NatsImports } from '../../../rules/require-jetstream-msg-id/nats-imports.js';
import { classFieldValues } from '../../../analysis/ast/class-fields.js';

/** Runs `probe` on the parsed file at Program:exit. */
function withSourceCode(code: string, probe: (sourceCode: Readonly<TSESLint.SourceCode>) => void, parser: 'ts' | 'js' = 'ts'): void {
  const linter = new Linter({ configType: 'flat' });
  const rule = {
    create: (context: { sourceCode: Readonly<TSESLint.SourceCode> }) => ({ 'Program:exit': () => probe(context.sourceCode) }),
  };
  const messages = linter.verify(code, [
    {
      plugins: { probe: { rules: { probe: rule } } } as never,
      rules: { 'probe/probe': 'error' },
      languageOptions: parser === 'ts' ? { parser: tsParser as never } : { sourceType: 'commonjs' },
    },
  ]);
  expect(messages.filter((m) => m.fatal)).toEqual([]);
}

/** Receiver text → the API `apiOf` gives it, for every `x.publish(…)` in the file. */
function publishReceivers(code: string, parser: 'ts' | 'js' = 'ts'): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  withSourceCode(
    code,
    (sourceCode) => {
      const contexts = createJetStreamContexts(sourceCode);
      const visit = (node: TSESTree.Node): void => {
        if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression') {
          const property = node.callee.property;
          if (property.type === 'Identifier' && property.name === 'publish') {
            out[sourceCode.getText(node.callee.object)] = contexts.apiOf(node.callee.object);
          }
        }
        for (const key of sourceCode.visitorKeys[node.type] ?? []) {
          const child = (node as unknown as Record<string, unknown>)[key];
          for (const c of Array.isArray(child) ? child : [child]) if (c && typeof (c as TSESTree.Node).type === 'string') visit(c);
        }
      };
      visit(sourceCode.ast);
    },
    parser,
  );
  return out;
}

function natsImportsOf(code: string, parser: 'ts' | 'js' = 'ts'): NatsImports {
  let imports: NatsImports | undefined;
  withSourceCode(code, (sourceCode) => (imports = readNatsImports(sourceCode)), parser);
  return imports!;
}

describe('createJetStreamContexts', () => {
  test('v2: a connection from connect(), its jetstream(), through awaits and variables', () => {
    const code = `
      import { connect } from 'nats';
      const nc = await connect();
      const js = nc.jetstream();
      await js.publish('a', data);
      await nc.publish('b', data);
    `;
    expect(publishReceivers(code)).toEqual({ js: 'nats-v2', nc: undefined });
  });

  test('v3: jetstream(nc) from @nats-io/jetstream, also renamed', () => {
    const code = `
      import { jetstream as openStream } from '@nats-io/jetstream';
      const stream = openStream(nc);
      await stream.publish('a', data);
    `;
    expect(publishReceivers(code)).toEqual({ stream: 'nats-v3' });
  });

  test('annotations: a typed parameter, a namespace type, a union with undefined, a cast', () => {
    const code = `
      import type { JetStreamClient } from '@nats-io/jetstream';
      import * as nats from 'nats';
      export async function relay(client: JetStreamClient, other: nats.JetStreamClient | undefined, raw: unknown) {
        await client.publish('a');
        await other!.publish('b');
        await (raw as JetStreamClient).publish('c');
      }
    `;
    expect(publishReceivers(code)).toEqual({ client: 'nats-v3', 'other!': 'nats-v2', 'raw as JetStreamClient': 'nats-v3' });
  });

  test('class fields: a parameter property, a private field assigned in a method, a nested class does not leak', () => {
    const code = `
      import type { JetStreamClient, NatsConnection } from 'nats';
      class Relay {
        #stream;
        constructor(private readonly js: JetStreamClient, private readonly nc: NatsConnection, private readonly sink: JetStreamClient) {}
        async start() { this.#stream = this.nc.jetstream(); }
        async send() {
          await this.js.publish('a');
          await this.#stream.publish('b');
          class Inner { go() { return this.sink.publish('c'); } }
          void Inner;
        }
      }
    `;
    expect(publishReceivers(code)).toEqual({ 'this.js': 'nats-v2', 'this.#stream': 'nats-v2', 'this.sink': undefined });
  });

  test('destructuring: a context kept in an object and read back', () => {
    const code = `
      import { connect } from 'nats';
      const deps = { bus: { stream: (await connect()).jetstream() } };
      const { bus: { stream } } = deps;
      await stream.publish('a');
      const { bus } = deps;
      await bus.stream.publish('b');
    `;
    expect(publishReceivers(code)).toEqual({ stream: 'nats-v2', 'bus.stream': 'nats-v2' });
  });

  test('require without declared CommonJS globals, both destructured and as a namespace', () => {
    const code = `
      const natsLib = require('nats');
      const { jetstream } = require('@nats-io/jetstream');
      const a = natsLib.connect().jetstream();
      const b = jetstream(conn);
      a.publish('x'); b.publish('y');
    `;
    expect(publishReceivers(code)).toEqual({ a: 'nats-v2', b: 'nats-v3' });
  });

  test('require as a CommonJS global in a .js file', () => {
    const code = `
      const { connect } = require('nats');
      async function main() { const js = (await connect()).jetstream(); await js.publish('x'); }
    `;
    expect(publishReceivers(code, 'js')).toEqual({ js: 'nats-v2' });
  });

  test('an untraced receiver of .jetstream() counts only in a file that uses or names NATS', () => {
    expect(publishReceivers(`import { headers } from 'nats'; const js = conn.jetstream(); js.publish('a');`)).toEqual({ js: 'nats-v2' });
    expect(publishReceivers(`const js = conn.jetstream(); js.publish('a');`)).toEqual({ js: undefined });
    // A file that names NATS without importing a NATS module (a project wrapper's connection).
    expect(
      publishReceivers(`import { natsClient } from './nats/connection'; const js = natsClient.conn.jetstream(); js.publish('a');`),
    ).toEqual({
      js: 'nats-v2',
    });
  });

  test('by name, in a file that names NATS or JetStream: helpers, imported or injected contexts, re-exported types', () => {
    const code = `
      import { natsJs, getJetStreamContext } from '@shop/nats';
      import type { JetStreamClient } from './types';
      const made = build();
      const js = made;
      export function send(jetstream, typed: JetStreamClient, conn: Conn) {
        natsJs.publish('a');
        getJetStreamContext().publish('b');
        jetstream.publish('c');
        typed.publish('d');
        js.publish('e');
        conn.publish('f');
        conn.jetstream().publish('g');
      }
    `;
    expect(publishReceivers(code)).toEqual({
      natsJs: 'nats-v2',
      'getJetStreamContext()': 'nats-v2',
      jetstream: 'nats-v2',
      typed: 'nats-v2',
      js: undefined,
      conn: undefined,
      // `.jetstream()` is a NATS connection's method: on a connection the file cannot trace, in a file that names NATS.
      'conn.jetstream()': 'nats-v2',
    });
    // The same names in a file that names neither are nothing.
    expect(publishReceivers(`import { js } from './bus'; js.publish('a');`)).toEqual({ js: undefined });
  });

  test('by name, a property destructured from an object the file cannot trace (a cache of connections)', () => {
    const code = `
      const { connect } = require('nats');
      const links = new Map();
      async function send(url, subject, payload) {
        const { js } = links.get(url);
        const { js: stream } = await openLink(url);
        const { client } = links.get(url);
        await js.publish(subject, payload);
        await stream.publish(subject, payload);
        await client.publish(subject, payload);
      }
    `;
    expect(publishReceivers(code, 'js')).toEqual({ js: 'nats-v2', stream: 'nats-v2', client: undefined });
    // A property of an object built here says what it is; names count only where NATS is named.
    expect(publishReceivers(`const { js } = { js: makeBus() }; js.publish('a');`)).toEqual({ js: undefined });
    expect(publishReceivers(`const { js } = links.get(url); js.publish('a');`)).toEqual({ js: undefined });
  });

  test('never throws on a self-referencing variable', () => {
    expect(publishReceivers(`import 'nats'; let js = js; js.publish('a');`)).toEqual({ js: undefined });
  });
});

describe('readNatsImports', () => {
  test('which client a file uses, its type names and namespaces', () => {
    const v3 = natsImportsOf(
      `import { type JetStreamClient as Js } from '@nats-io/jetstream'; import * as core from '@nats-io/nats-core';`,
    );
    expect(v3.importsNats).toBe(true);
    expect(v3.importsV2).toBe(false);
    expect([...v3.typeNames]).toEqual([['Js', { kind: 'context', api: 'nats-v3' }]]);
    expect([...v3.namespaces]).toEqual([['core', '@nats-io/nats-core']]);
    const v2 = natsImportsOf(`const nats = require('nats');`, 'js');
    expect(v2.importsNats && v2.importsV2).toBe(true);
    expect(natsImportsOf(`import { connect } from 'redis';`).importsNats).toBe(false);
  });
});

describe('patternPath and classFieldValues', () => {
  test('the property path of a name inside a destructuring pattern', () => {
    withSourceCode(`const { a: { b = 1 }, c } = x;`, (sourceCode) => {
      const declaration = sourceCode.ast.body[0] as TSESTree.VariableDeclaration;
      const pattern = declaration.declarations[0]!.id as TSESTree.ObjectPattern;
      const inner = (pattern.properties[0] as TSESTree.Property).value as TSESTree.ObjectPattern;
      const b = ((inner.properties[0] as TSESTree.Property).value as TSESTree.AssignmentPattern).left;
      expect(patternPath(pattern, b)).toEqual(['a', 'b']);
      expect(patternPath(pattern, (pattern.properties[1] as TSESTree.Property).value)).toEqual(['c']);
    });
  });

  test('every value and annotation a field is given', () => {
    withSourceCode(`class A { x = 1; #y: string; constructor(private z: Z) { this.x = 2; } }`, (sourceCode) => {
      const fields = classFieldValues(sourceCode.ast.body[0] as TSESTree.ClassDeclaration, sourceCode.visitorKeys as never);
      expect([...fields.keys()].sort()).toEqual(['#y', 'x', 'z']);
      expect(fields.get('x')!.map((n) => sourceCode.getText(n))).toEqual(['1', '2']);
      expect(fields.get('z')!.map((n) => n.type)).toEqual(['TSTypeAnnotation']);
    });
  });
});
