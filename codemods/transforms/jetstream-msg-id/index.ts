// `jetstream-msg-id`: for each finding of `require-jetstream-msg-id`, give the publish a `msgID`
// from the id in scope the rule found (`{ msgID: String(row.id) }`), or else from the id of the
// published value (`publishOrder(order)` → `String(order.id)`), so a retried or relayed
// message is stored once inside the stream's duplicate window. Without an unambiguous id in
// scope the publish is marked manual: an invented id (a random UUID) would dedupe nothing.
import requireJetStreamMsgId, {
  mayReportJetStreamPublish,
  type RequireJetStreamMsgIdFacts,
} from '../../../rules/require-jetstream-msg-id.js';
import { MSG_ID_OPTION } from '../../../src/knowledge/jetstream.js';
import { indentationAt } from '../../engine/file-style.js';
import { lineAt } from '../../engine/text-edits.js';
import type { ManualNote, SourceFileInfo, TextEdit, Transform, TransformOutput } from '../../engine/transform.js';

/** The edit that adds `msgID: <value>` to the publish, or the reason it cannot. */
function msgIdEdit(facts: RequireJetStreamMsgIdFacts, value: string, file: SourceFileInfo): TextEdit | string {
  const { call, options, optionsObject, optionsIndex } = facts;
  const property = `${MSG_ID_OPTION}: ${value}`;
  const args = call.arguments;
  if (args.slice(0, optionsIndex + 1).some((arg) => arg.type === 'SpreadElement'))
    return 'the publish arguments are spread; add msgID where the options are built';
  if (options && optionsObject && options !== optionsObject) {
    // A shared `const opts` may be used where this id is not in scope: extend it at this call only.
    return {
      start: options.range[0],
      end: options.range[1],
      text: `{ ...${file.text.slice(options.range[0], options.range[1])}, ${property} }`,
    };
  }
  if (optionsObject) {
    const last = optionsObject.properties.at(-1);
    if (!last) return { start: optionsObject.range[0], end: optionsObject.range[1], text: `{ ${property} }` };
    const after = file.sourceCode.getTokenAfter(last);
    const trailingComma = after?.value === ',' ? after : undefined;
    // One property per line: the new one goes on its own line in the same style.
    if (lineAt(file.text, last.range[0]) !== lineAt(file.text, optionsObject.range[0])) {
      const indent = indentationAt(file.text, last.range[0]);
      if (trailingComma)
        return { start: trailingComma.range[1], end: trailingComma.range[1], text: `${file.style.eol}${indent}${property},` };
      return { start: last.range[1], end: last.range[1], text: `,${file.style.eol}${indent}${property}` };
    }
    return { start: last.range[1], end: last.range[1], text: `, ${property}` };
  }
  const literal = `{ ${property} }`;
  if (options) return { start: options.range[0], end: options.range[1], text: literal };
  const previous = args[optionsIndex - 1];
  if (previous) return { start: previous.range[1], end: previous.range[1], text: `, ${literal}` };
  const subject = args[0];
  // `publish(subject)`: the payload is empty; `undefined` keeps it so.
  if (subject && optionsIndex === 2 && args.length === 1)
    return { start: subject.range[1], end: subject.range[1], text: `, undefined, ${literal}` };
  return 'the publish has no subject argument to add options after';
}

export const jetstreamMsgId: Transform<RequireJetStreamMsgIdFacts> = {
  name: 'jetstream-msg-id',
  rule: requireJetStreamMsgId,
  description:
    'Give each JetStream publish a `msgID` from the id in scope (`{ msgID: String(row.id) }`) so retries and relays are stored once.',
  // The casings of the words the rule's pre-check looks for (`nats`, `jetstream`, `.publish`), case-sensitively.
  prefilter: [
    'publish',
    'nats',
    'Nats',
    'NATS',
    'jetstream',
    'jetStream',
    'JetStream',
    'Jetstream',
    'JETSTREAM',
    'jet_stream',
    'JET_STREAM',
  ],
  mayMatch: mayReportJetStreamPublish,

  apply(file, findings): TransformOutput {
    const edits: TextEdit[] = [];
    const manual: ManualNote[] = [];
    const done = new Set<unknown>();
    for (const finding of findings) {
      const facts = finding.facts;
      const offset = finding.node.range[0];
      if (done.has(facts.call)) continue;
      done.add(facts.call);
      if (facts.proxyBuilder !== undefined) {
        // A transport's `emit`: the id goes on the record the payload is built into, not on the call.
        manual.push({ offset, reason: `build the payload with ${facts.proxyBuilder} and set a stable message id on it before emitting` });
        continue;
      }
      if (facts.proxyWithoutIds !== undefined) {
        manual.push({
          offset,
          reason: `${facts.proxyWithoutIds} sets no message id on any event; publish through the JetStream client with msgID: String(<a stable id>)`,
        });
        continue;
      }
      if (facts.helperWithoutIds !== undefined) {
        manual.push({
          offset,
          reason: `${facts.helperWithoutIds} publishes with no message id handed in; give it a stable id to publish as msgID, or publish through the JetStream client with msgID: String(<a stable id>)`,
        });
        continue;
      }
      if (facts.randomId !== undefined) {
        // The id is there but new at every call: the stable one it should be is the author's to name.
        manual.push({
          offset,
          reason: `msgID ${facts.randomId} is new at every call; set it to a stable id made once for the message (the outbox row or event id)`,
        });
        continue;
      }
      if (facts.forwardedTo !== undefined) {
        // The helper publishes with what it is handed: the id goes into this call's arguments.
        manual.push({
          offset,
          reason: `${facts.forwardedTo}: the helper publishes with the id this call hands it, and it hands none; hand it a stable id (the outbox row or event id)`,
        });
        continue;
      }
      const id = (facts.candidateIdSeen ? facts.candidateId : undefined) ?? facts.payloadId;
      if (id === undefined && facts.candidateId !== undefined) {
        // Named like a row or an event, but no `.id` is read or typed: a value without one would give every message the id "undefined".
        manual.push({
          offset,
          reason: `${facts.candidateId} is only a guess from the name: nothing here reads or types an id on it; pass msgID: String(<its stable id>) once you know it has one`,
        });
        continue;
      }
      if (id === undefined) {
        manual.push({
          offset,
          reason:
            'no single stable id (row, event or outbox id) is in scope (none, or more than one); pass msgID: String(<that id>) so a retry is dropped as a duplicate',
        });
        continue;
      }
      const edit = msgIdEdit(facts, `String(${id})`, file);
      if (typeof edit === 'string') manual.push({ offset, reason: edit });
      else edits.push(edit);
    }
    return { edits, imports: [], manual };
  },
};
