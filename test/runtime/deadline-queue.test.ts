// The shared deadline lists every claim, release and renewal timer sits in. A precise list notes
// each call's due time; a coarse one (claimPeriod/claimOnce) reads no clock per call and groups
// calls into generations closed by a tick. For both: a deadline never passes early, and at most a
// tick (a sixteenth of the timeout on a coarse list, none on a precise one) plus timer lag late;
// settled calls never time out; a call armed while the timer waits for an older one still gets its
// own deadline; a call re-armed from its own timeOut fires again.
import { describe, expect, test } from 'vitest';
import { Deadline } from '../../src/guards/deadline-queue.js';
import { sleep } from '../harness/timing.js';

/** Records when it was armed and when it timed out (performance.now()). */
class Probe extends Deadline {
  armedAt = 0;
  timedOutAt: number | undefined;

  constructor(
    private readonly kind: Kind,
    private readonly timeoutMs: number,
    private readonly onTimeOut?: (probe: Probe) => void,
  ) {
    super();
  }

  start(): this {
    this.armedAt = performance.now();
    if (this.kind.name === 'coarse') this.armCoarse(this.timeoutMs);
    else this.arm(this.timeoutMs);
    return this;
  }

  timeOut(): void {
    this.timedOutAt = performance.now();
    this.onTimeOut?.(this);
  }

  /** How long after arming it timed out. */
  get waitedMs(): number {
    if (this.timedOutAt === undefined) throw new Error('did not time out');
    return this.timedOutAt - this.armedAt;
  }
}

interface Kind {
  name: 'precise' | 'coarse';
  /** How late past its timeout a deadline may pass, timer lag aside. */
  tick(timeoutMs: number): number;
}

const kinds: Kind[] = [
  { name: 'precise', tick: () => 0 },
  { name: 'coarse', tick: (timeoutMs) => Math.ceil(timeoutMs / 16) },
];

// Distinct timeouts per test, so no test shares a list (and its generations) with another.
// Late bounds allow a tick plus generous timer lag: the machine running the tests may be busy.
const LAG_MS = 250;

describe.each(kinds)('$name deadline list', (kind) => {
  const tick = (timeoutMs: number) => kind.tick(timeoutMs);

  test('a deadline passes no earlier than its timeout and at most a tick (plus timer lag) later', async () => {
    const timeoutMs = 401;
    const probe = new Probe(kind, timeoutMs).start();
    await sleep(timeoutMs + tick(timeoutMs) + LAG_MS);
    expect(probe.waitedMs).toBeGreaterThanOrEqual(timeoutMs);
    expect(probe.waitedMs).toBeLessThan(timeoutMs + tick(timeoutMs) + LAG_MS);
  });

  test('a call that settles before its deadline never times out, and finish() says who came first', async () => {
    const timeoutMs = 203;
    const settled = new Probe(kind, timeoutMs).start();
    const late = new Probe(kind, timeoutMs).start();
    await sleep(20);
    expect(settled.finish()).toBe(true);
    await sleep(timeoutMs + tick(timeoutMs) + LAG_MS);
    expect(settled.timedOutAt).toBeUndefined();
    expect(late.timedOutAt).toBeDefined();
    // The deadline got there first: the call's own answer no longer counts.
    expect(late.finish()).toBe(false);
  });

  test('calls armed at different times each wait their own timeout, in order', async () => {
    const timeoutMs = 307;
    const first = new Probe(kind, timeoutMs).start();
    await sleep(120);
    const second = new Probe(kind, timeoutMs).start();
    await sleep(90);
    const third = new Probe(kind, timeoutMs).start();
    await sleep(timeoutMs + tick(timeoutMs) + LAG_MS);
    for (const probe of [first, second, third]) {
      expect(probe.waitedMs).toBeGreaterThanOrEqual(timeoutMs);
      expect(probe.waitedMs).toBeLessThan(timeoutMs + tick(timeoutMs) + LAG_MS);
    }
    expect(first.timedOutAt!).toBeLessThan(second.timedOutAt!);
    expect(second.timedOutAt!).toBeLessThan(third.timedOutAt!);
  });

  test('a call armed while the timer waits for an older call, long after its tick, is not held to that wait', async () => {
    const timeoutMs = 1009;
    const old = new Probe(kind, timeoutMs).start();
    // The old call's generation is closed by now; the queue waits for its deadline.
    await sleep(3 * tick(timeoutMs) + 30);
    const young = new Probe(kind, timeoutMs).start();
    await sleep(timeoutMs + tick(timeoutMs) + LAG_MS);
    expect(old.waitedMs).toBeGreaterThanOrEqual(timeoutMs);
    expect(young.waitedMs).toBeGreaterThanOrEqual(timeoutMs);
    expect(young.waitedMs).toBeLessThan(timeoutMs + tick(timeoutMs) + LAG_MS);
  });

  test('a call re-armed from its own timeOut (a renewal timer) fires again a timeout later', async () => {
    const timeoutMs = 151;
    const times: number[] = [];
    const renewal = new Probe(kind, timeoutMs, (probe) => {
      times.push(probe.waitedMs);
      if (times.length < 3) probe.start();
    }).start();
    await sleep(3 * (timeoutMs + tick(timeoutMs)) + LAG_MS);
    expect(times).toHaveLength(3);
    for (const waited of times) {
      expect(waited).toBeGreaterThanOrEqual(timeoutMs);
      expect(waited).toBeLessThan(timeoutMs + tick(timeoutMs) + LAG_MS);
    }
    expect(renewal.finish()).toBe(false);
  });
});
