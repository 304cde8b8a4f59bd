// A JetStream publish without `msgID` (the `Nats-Msg-Id` header) is stored again every time it is
// retried: after a timeout, after a crash between publish and "mark sent", or by a second replica
// relaying the same outbox row. With `msgID` the server drops the repeat inside the stream's
// duplicate window.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { isLintedTestCode } from '../analysis/source/test-code.js';
import { createRule } from './utils/create-rule.js';
import { codeTextOf } from '../analysis/source/code-text.js';
import { createJetStreamContexts } from './require-jetstream-msg-id/contexts.js';
import { crossFileContexts } from './require-jetstream-msg-id/cross-file.js';
import { msgIdCandidate, payloadIdCandidate } from './require-jetstream-msg-id/msg-id-candidate.js';
import { jetStreamPublishOptions, type JetStreamPublishOptions } from './require-jetstream-msg-id/publish-options.js';
import { publishCallsIn, writesPublishName } from './require-jetstream-msg-id/publish-calls.js';
import { mayEmitThroughJetStreamProxy, proxyEmitsWithoutMsgId } from './require-jetstream-msg-id/proxy-emits.js';
import { helperPublishWithoutMsgId, type HelperPublish } from './require-jetstream-msg-id/helper-publishes.js';
import { unwrapExpression } from '../analysis/ast/unwrapped-expression.js';
import { headersCarryMsgIdIn } from './require-jetstream-msg-id/header-msg-ids.js';
import {
  forwardingHelperOf,
  handedFreshId,
  handsNoId,
  publishNamedCallsIn,
  type ForwardedId,
} from './require-jetstream-msg-id/forwarded-ids.js';
import { randomMsgIdsIn } from './require-jetstream-msg-id/random-msg-ids.js';
import { propertyKeyName } from '../analysis/ast/property-names.js';
import { JETSTREAM_FILE_WORDS, JETSTREAM_ONLY_PUBLISH_OPTIONS, MSG_ID_OPTION, type JetStreamApi } from '../src/knowledge/jetstream.js';

export type RequireJetStreamMsgIdMessageIds =
  | 'missingMsgId'
  | 'optionsWithoutMsgId'
  | 'proxyEmitWithoutMsgId'
  | 'proxyEmitNeverMsgId'
  | 'helperWithoutMsgId'
  | 'helperOnConnectionWithoutMsgId'
  | 'helperOnHeldConnectionWithoutMsgId'
  | 'forwardedWithoutMsgId'
  | 'randomMsgId'
  | 'addMsgId';

/** What the `jetstream-msg-id` codemod needs to add `msgID`. */
export interface RequireJetStreamMsgIdFacts {
  /** The publish call (`js.publish(subject, data, options?)`). */
  call: TSESTree.CallExpression;
  /** Which client the JetStream context came from. */
  api: JetStreamApi;
  /** The options argument, if there is one (an object literal or the name of a `const` one). */
  options: TSESTree.Node | undefined;
  /** The object literal to add `msgID` to, if the options are one the rule can see. */
  optionsObject: TSESTree.ObjectExpression | undefined;
  /** Index of the options argument in the call (`2` for `publish`). */
  optionsIndex: number;
  /** Source text of the obvious id in scope (`row.id`, `event.id`, `outboxId`), if there is one. */
  candidateId: string | undefined;
  /** The candidate is seen to be an id (an id variable, or a holder whose `.id` is read or typed), not only named like one. */
  candidateIdSeen: boolean;
  /** The id of the published value (`order.id` for `publish(subject, encode(order))` when `order` has one): the codemod's second choice. */
  payloadId: string | undefined;
  /** For an `emit` on a NestJS transport's client proxy: the record builder that sets the id (nothing to add to the call itself). */
  proxyBuilder?: string;
  /** For an `emit` on a transport's client proxy that sets no id on any event: the proxy class (the publish must move to the JetStream client). */
  proxyWithoutIds?: string;
  /** For a publish through a helper from outside the project handed a JetStream context and no id: the helper and where it comes from. */
  helperWithoutIds?: string;
  /** For a call of a project helper that publishes with the id its caller hands it, and is handed none: the helper and the argument. */
  forwardedTo?: string;
  /** For a `msgID` made fresh at the publish (`uuidv4()`): its source text (no stable id to put in its place is known). */
  randomId?: string;
}

/**
 * Whether a file can publish to JetStream: it names NATS or JetStream somewhere (a NATS module,
 * a project alias `@app/nats`, a `getJetStream()` helper, a `JetStreamClient` type), or calls a
 * `publish` whose context another module may make.
 */
export function mayPublishToJetStream(text: string): boolean {
  // Every finding is a publish call, which writes the method's name: one `includes` settles most files.
  if (!writesPublishName(text)) return false;
  // A publish on a context another module of the project makes (`getBus().publish(…)`) names neither.
  // The call first: a case-blind expression costs several times one that starts with a `.publish`.
  return PUBLISH_CALL.test(text) || JETSTREAM_FILE_WORDS.test(text);
}
const PUBLISH_CALL = /\.publish\s*\(/;

/**
 * `mayPublishToJetStream` asked of the raw text, before its comments are set aside: admits every text whose
 * comment-free form it admits. Each comment becomes one space there, and no word it asks for holds a space, so
 * each is in the raw text too; the call's `\s*(` may run across a comment, so `.publish` stands for it.
 */
function mayPublishInRawText(text: string): boolean {
  return writesPublishName(text) && (text.includes('.publish') || JETSTREAM_FILE_WORDS.test(text));
}

/**
 * Whether the rule can report anything in a file's text: a publish to JetStream, or an `emit` on a
 * NestJS JetStream transport's client proxy. The codemod's pre-check: it skips only the files the
 * rule itself turns away.
 */
export function mayReportJetStreamPublish(text: string): boolean {
  return mayPublishToJetStream(text) || mayEmitThroughJetStreamProxy(text);
}

/** Whether publish options hold an option only JetStream has (`expect`), which makes the publish a JetStream one. */
function hasJetStreamOnlyOption(options: JetStreamPublishOptions): boolean {
  return (
    options.kind === 'object' &&
    options.object.properties.some((p) => p.type === 'Property' && JETSTREAM_ONLY_PUBLISH_OPTIONS.includes(propertyKeyName(p) ?? ''))
  );
}

type Report = Parameters<
  Parameters<typeof createRule<RequireJetStreamMsgIdMessageIds, readonly unknown[], RequireJetStreamMsgIdFacts>>[0]['detect']
>[1];

/** `emit` on a NestJS JetStream transport's client proxy with a payload that visibly carries no message id. */
function reportProxyEmits(sourceCode: Readonly<TSESLint.SourceCode>, report: Report): void {
  for (const { call, name, transport } of proxyEmitsWithoutMsgId(sourceCode)) {
    const { builder } = transport;
    report({
      ...(builder
        ? { messageId: 'proxyEmitWithoutMsgId', data: { proxy: transport.proxy, builder: builder.name, setter: builder.setMsgId } }
        : { messageId: 'proxyEmitNeverMsgId', data: { proxy: transport.proxy } }),
      node: name,
      facts: {
        call,
        api: 'nats-v2',
        options: undefined,
        optionsObject: undefined,
        optionsIndex: 1,
        candidateId: undefined,
        candidateIdSeen: false,
        payloadId: undefined,
        ...(builder ? { proxyBuilder: builder.name } : { proxyWithoutIds: transport.proxy }),
      },
    });
  }
}

/** A publish through a helper from outside the project, handed a JetStream context and no message id. */
function reportHelperPublish(call: TSESTree.CallExpression, name: TSESTree.Node, helper: HelperPublish, report: Report): void {
  report({
    messageId:
      helper.handed === 'context'
        ? 'helperWithoutMsgId'
        : helper.handed === 'connection'
          ? 'helperOnConnectionWithoutMsgId'
          : 'helperOnHeldConnectionWithoutMsgId',
    data: { helper: helper.helper, source: helper.source },
    node: name,
    facts: {
      call,
      api: helper.api,
      options: undefined,
      optionsObject: undefined,
      optionsIndex: call.arguments.length,
      candidateId: undefined,
      candidateIdSeen: false,
      payloadId: undefined,
      helperWithoutIds: `${helper.helper} from ${helper.source}`,
    },
  });
}

/** A call of a project helper that publishes to JetStream with the id its caller hands it, handed none. */
function reportForwarded(call: TSESTree.CallExpression, name: TSESTree.Node, helper: string, forwarded: ForwardedId, report: Report): void {
  const argument = `${forwarded.kind === 'id' ? 'id' : 'options'} argument ${forwarded.index + 1}`;
  report({
    messageId: 'forwardedWithoutMsgId',
    data: { helper, argument },
    node: name,
    facts: {
      call,
      api: forwarded.api,
      options: call.arguments[forwarded.index],
      optionsObject: undefined,
      optionsIndex: forwarded.index,
      candidateId: undefined,
      candidateIdSeen: false,
      payloadId: undefined,
      forwardedTo: `${helper} (${argument})`,
    },
  });
}

/** A `msgID` made fresh at the publish, or handed fresh to a helper that publishes with it: reported on its value. */
function reportRandomId(
  call: TSESTree.CallExpression,
  api: JetStreamApi,
  value: TSESTree.Node,
  text: string,
  optionsIndex: number,
  report: Report,
): void {
  const options = value.parent?.type === 'Property' ? value.parent.parent : value;
  report({
    messageId: 'randomMsgId',
    data: { value: text },
    node: value,
    facts: {
      call,
      api,
      options,
      optionsObject: options.type === 'ObjectExpression' ? options : undefined,
      optionsIndex,
      candidateId: undefined,
      candidateIdSeen: false,
      payloadId: undefined,
      randomId: text,
    },
  });
}

export const requireJetStreamMsgId = createRule<RequireJetStreamMsgIdMessageIds, readonly unknown[], RequireJetStreamMsgIdFacts>({
  name: 'require-jetstream-msg-id',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require `msgID` on JetStream publishes so a retried or relayed message is stored once',
      recommended: true,
    },
    hasSuggestions: true,
    messages: {
      missingMsgId:
        'JetStream publish without `msgID`: a retry, a restart or a second replica stores this message again. Set `msgID` to a stable id (the outbox row or event id) so the server drops the duplicate.',
      optionsWithoutMsgId:
        'These JetStream publish options have no `msgID`: a retry, a restart or a second replica stores this message again. Add `msgID` with a stable id (the outbox row or event id).',
      proxyEmitWithoutMsgId:
        'This `emit` publishes to JetStream through `{{proxy}}` without a message id: a retry, a restart or a second replica stores this event again. Send a record built with `{{builder}}` and `{{setter}}(<a stable id>)` (the outbox row or event id).',
      proxyEmitNeverMsgId:
        'This `emit` publishes to JetStream through `{{proxy}}`, which sets no message id on any event: a retry, a restart or a second replica stores this event again. Publish with the JetStream client and `msgID` (the outbox row or event id).',
      helperWithoutMsgId:
        '`{{helper}}` from `{{source}}` is handed a JetStream context and no message id: unless it makes a stable id itself, a retry, a restart or a second replica stores this event again. Hand it a stable id (the outbox row or event id) to publish as `msgID`, or publish with the JetStream client and `msgID`.',
      helperOnConnectionWithoutMsgId:
        '`{{helper}}` from `{{source}}` is handed the NATS connection of a file that works with JetStream, and no message id: its publish goes to a stream, so unless it makes a stable id itself, a retry, a redelivery or a second replica stores this event again. Hand it a stable id (the outbox row or event id) to publish as `msgID`, or publish with the JetStream client and `msgID`.',
      helperOnHeldConnectionWithoutMsgId:
        '`{{helper}}` from `{{source}}` is a publisher handed the NATS connection a project module holds, and no message id: when its publish goes to a JetStream stream (the usual case for such a publisher), a retry, a redelivery or a second replica stores this event again. Hand it a stable id (the outbox row or event id) to publish as `msgID`, or publish with the JetStream client and `msgID`.',
      forwardedWithoutMsgId:
        '`{{helper}}` publishes to JetStream with the message id its caller hands it ({{argument}}), and this call hands none: a retry, a restart or a second replica stores this message again. Hand it a stable id (the outbox row or event id) to publish as `msgID`.',
      randomMsgId:
        '`msgID: {{value}}` is a new id at every call: a retried publish gets another one, and the server stores the message again. Set `msgID` to a stable id made once for the message (the outbox row or event id).',
      addMsgId: 'Set `msgID` to `String({{id}})`.',
    },
    schema: [],
  },
  defaultOptions: [],
  detect(context, report) {
    const sourceCode = context.sourceCode;
    // A file that writes no publish method's name, or names neither NATS nor JetStream, cannot
    // publish to JetStream: the raw text's `includes` first, comments set aside only after it.
    // (A NestJS transport's client proxy emits instead: asked only of files that name its class.)
    const emits = mayEmitThroughJetStreamProxy(sourceCode.text);
    if ((!mayPublishInRawText(sourceCode.text) || !mayPublishToJetStream(codeTextOf(sourceCode))) && !emits) return {};

    return {
      'Program:exit'() {
        // A test publishes to a throw-away server from one process: no replica sends it twice.
        if (isLintedTestCode(context)) return;
        if (emits) reportProxyEmits(sourceCode, report);
        // The calls are found from where the method's name is written, not by a listener on every call.
        const publishes = writesPublishName(sourceCode.text) ? publishCallsIn(sourceCode) : [];
        // Calls named for a publish (`publishEvent(…)`) may go through a helper that forwards the id.
        const named = writesPublishName(sourceCode.text) ? publishNamedCallsIn(sourceCode, publishes) : [];
        if (publishes.length === 0 && named.length === 0) return;
        const contexts = createJetStreamContexts(sourceCode, crossFileContexts(context));
        const headersCarry = headersCarryMsgIdIn(context);
        const randomIds = randomMsgIdsIn(context);
        // A project helper that publishes with the id its caller hands it: judged at each call.
        const reportIfForwarded = (call: TSESTree.CallExpression, name: TSESTree.Node): void => {
          const found = forwardingHelperOf(call, context);
          if (!found) return;
          const { forwarded } = found;
          if (handsNoId(call, forwarded, headersCarry)) {
            const helper = found.helper.className ? `${found.helper.className}.${found.helper.name}` : found.helper.name;
            reportForwarded(call, name, helper, forwarded, report);
            return;
          }
          const fresh = handedFreshId(call, forwarded, randomIds.fresh);
          if (fresh) reportRandomId(call, forwarded.api, fresh, sourceCode.getText(fresh), forwarded.index, report);
        };
        for (const { call, name } of named) reportIfForwarded(call, name);
        for (const { call, method, name } of publishes) {
          const member = unwrapExpression(call.callee) as TSESTree.MemberExpression;
          const options = jetStreamPublishOptions(sourceCode, call, method.optionsIndex, headersCarry);
          const api = contexts.apiOf(member.object) ?? (hasJetStreamOnlyOption(options) ? 'nats-v2' : undefined);
          if (!api) {
            const helper = helperPublishWithoutMsgId(call, member.object, sourceCode, context, contexts);
            if (helper) reportHelperPublish(call, name, helper, report);
            else reportIfForwarded(call, name);
            continue;
          }
          if (options.kind === 'object' && options.hasMsgId) {
            const random = randomIds.property(options.object)?.value ?? randomIds.header(options.object, call);
            if (random) reportRandomId(call, api, random, sourceCode.getText(random), method.optionsIndex, report);
            continue;
          }
          if (options.kind === 'opaque') continue;

          const candidate = msgIdCandidate(sourceCode, call);
          const candidateId = candidate?.text;
          const msgId = candidateId === undefined ? undefined : `String(${candidateId})`;
          let fix: TSESLint.ReportFixFunction | undefined;
          if (msgId !== undefined && options.kind === 'absent') {
            const [subject, data] = call.arguments;
            if (options.node) fix = (fixer) => fixer.replaceText(options.node as TSESTree.Node, `{ ${MSG_ID_OPTION}: ${msgId} }`);
            else if (data) fix = (fixer) => fixer.insertTextAfter(data, `, { ${MSG_ID_OPTION}: ${msgId} }`);
            else if (subject) fix = (fixer) => fixer.insertTextAfter(subject, `, undefined, { ${MSG_ID_OPTION}: ${msgId} }`);
          }
          // Only a literal at the call: a shared `const opts` may be used where this id is not in scope.
          if (msgId !== undefined && options.kind === 'object' && options.node === options.object) {
            const last = options.object.properties.at(-1);
            fix = last
              ? (fixer) => fixer.insertTextAfter(last, `, ${MSG_ID_OPTION}: ${msgId}`)
              : (fixer) => fixer.replaceText(options.object, `{ ${MSG_ID_OPTION}: ${msgId} }`);
          }

          report({
            messageId: options.kind === 'absent' ? 'missingMsgId' : 'optionsWithoutMsgId',
            node: options.kind === 'object' ? options.node : name,
            facts: {
              call,
              api,
              options: options.kind === 'object' ? options.node : options.node,
              optionsObject: options.kind === 'object' ? options.object : undefined,
              optionsIndex: method.optionsIndex,
              candidateId,
              candidateIdSeen: candidate?.seen ?? false,
              payloadId: candidate?.seen ? undefined : payloadIdCandidate(sourceCode, call),
            },
            ...(fix && candidateId !== undefined ? { suggest: [{ messageId: 'addMsgId' as const, data: { id: candidateId }, fix }] } : {}),
          });
        }
      },
    };
  },
});

export default requireJetStreamMsgId;
