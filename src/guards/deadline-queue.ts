// The deadlines every claim, release, renewal and renewal timer waits on: no setTimeout per call.
// Each timeout value has a list of pending calls in call order (a doubly linked list, O(1)
// removal the moment a call settles) and one unref'd timer.
//
// Two kinds of list. A precise one notes each call's due time (one clock read per call) and fires
// at it: leases, renewals and releases, whose safety margins are counted from those times. A
// coarse one reads no clock per call — a clock read costs more than the rest of the bookkeeping on
// the claimPeriod/claimOnce hot path — and instead groups calls into generations: the timer, armed
// a tick (a sixteenth of the timeout) after the first call of a generation joins, closes it and
// notes the time. Every call of a generation joined before its close, so it times out once the
// timeout has passed since the close: never early, at most a tick (plus timer lag) late.

/** A pending call; subclasses say what happens when the deadline passes first (`timeOut`). */
export abstract class Deadline {
  prev: Deadline | null = null;
  next: Deadline | null = null;
  done = false;
  queue: DeadlineList | null = null;
  /** On a precise list: when it is due (performance.now()). */
  at = 0;
  /** On a coarse list: the generation it joined. */
  generation = 0;

  /** Arms the deadline precisely, `timeoutMs` from `now`, unless `timeoutMs` is undefined (see `arm`). */
  constructor(timeoutMs?: number, now?: number) {
    if (timeoutMs !== undefined) this.arm(timeoutMs, now);
  }

  /** (Re)arms: `timeOut()` runs `timeoutMs` from `now` (plus timer lag) unless `finish()` comes first. */
  arm(timeoutMs: number, now = performance.now()): void {
    this.done = false;
    this.at = now + timeoutMs;
    preciseLists.get(timeoutMs).add(this);
  }

  /** (Re)arms without reading the clock: `timeOut()` runs `timeoutMs` to `timeoutMs × 17/16` from now. */
  armCoarse(timeoutMs: number): void {
    this.done = false;
    coarseLists.get(timeoutMs).add(this);
  }

  /** Marks the call settled (false if the deadline got there first). */
  finish(): boolean {
    if (this.done) return false;
    this.done = true;
    this.queue?.remove(this);
    return true;
  }

  abstract timeOut(): void;
}

abstract class DeadlineList {
  protected head: Deadline | null = null;
  private tail: Deadline | null = null;
  protected timer: NodeJS.Timeout | undefined;

  constructor(readonly timeoutMs: number) {}

  add(entry: Deadline): void {
    entry.queue = this;
    entry.prev = this.tail;
    if (this.tail) this.tail.next = entry;
    else this.head = entry;
    this.tail = entry;
    this.added(entry);
  }

  remove(entry: Deadline): void {
    if (entry.queue !== this) return;
    entry.queue = null;
    if (entry.prev) entry.prev.next = entry.next;
    else this.head = entry.next;
    if (entry.next) entry.next.prev = entry.prev;
    else this.tail = entry.prev;
    entry.prev = entry.next = null;
    // The timer stays armed; when it fires it re-arms for whatever is still pending.
  }

  protected abstract added(entry: Deadline): void;

  /** The timer fired at `now`: time out what is due, re-arm for the rest. */
  protected abstract fired(now: number): void;

  protected arm(ms: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(this.fire, ms);
    // The operation's own socket keeps the process alive while it is pending; the deadline must not.
    this.timer.unref();
  }

  protected expire(entry: Deadline): void {
    this.remove(entry);
    entry.done = true;
    entry.timeOut();
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    this.fired(performance.now());
  };
}

/** Due times ascend along the list (one timeout, call order): the timer fires at the head's. */
class PreciseList extends DeadlineList {
  protected added(entry: Deadline): void {
    if (this.timer === undefined) this.arm(Math.max(0, Math.ceil(entry.at - performance.now())));
  }

  protected fired(now: number): void {
    while (this.head && this.head.at <= now) this.expire(this.head);
    if (this.head) this.arm(Math.max(0, Math.ceil(this.head.at - now)));
  }
}

const TICKS_PER_TIMEOUT = 16;

/** Generations ascend along the list: expiry stops at the first live one. */
class CoarseList extends DeadlineList {
  /** The timer is the tick that closes the open generation (not a wait for the head's expiry). */
  private ticking = false;
  private generation = 0;
  private openHasEntries = false;
  /** `closedAt[g - firstClosed]`: when generation g closed. */
  private firstClosed = 0;
  private readonly closedAt: number[] = [];
  private readonly tickMs: number;

  constructor(timeoutMs: number) {
    super(timeoutMs);
    this.tickMs = Math.max(1, Math.ceil(timeoutMs / TICKS_PER_TIMEOUT));
  }

  protected added(entry: Deadline): void {
    entry.generation = this.generation;
    if (this.openHasEntries) return;
    this.openHasEntries = true;
    // A wait for an older head may be longer than a tick: the new generation must close within one.
    if (!this.ticking) this.tick();
  }

  protected fired(now: number): void {
    this.ticking = false;
    if (this.openHasEntries) {
      this.closedAt.push(now);
      this.generation += 1;
      this.openHasEntries = false;
    }
    let head = this.head;
    while (head && head.generation < this.generation && this.closedAt[head.generation - this.firstClosed]! + this.timeoutMs <= now) {
      this.expire(head);
      head = this.head;
    }
    // Forget the closes no pending entry belongs to.
    const oldest = head && head.generation < this.generation ? head.generation : this.generation;
    if (oldest > this.firstClosed) {
      this.closedAt.splice(0, oldest - this.firstClosed);
      this.firstClosed = oldest;
    }
    // Entries that joined while expired ones timed out open a generation of their own.
    if (this.openHasEntries) this.tick();
    else if (head) this.arm(Math.max(1, Math.ceil(this.closedAt[head.generation - this.firstClosed]! + this.timeoutMs - now)));
  }

  private tick(): void {
    this.arm(this.tickMs);
    this.ticking = true;
  }
}

/** The lists of one kind by timeout. */
class Lists<L extends DeadlineList> {
  private readonly byTimeout = new Map<number, L>();
  /** Nearly every call uses the configured timeout: the last list asked for, without a map lookup. */
  private last: L | undefined;

  constructor(private readonly create: (timeoutMs: number) => L) {}

  get(timeoutMs: number): L {
    if (this.last?.timeoutMs === timeoutMs) return this.last;
    let list = this.byTimeout.get(timeoutMs);
    if (!list) {
      // Bounded: the timeouts in use are a handful of configured values and ttl-derived budgets. A
      // dropped list keeps working for its pending entries (its timer holds it).
      if (this.byTimeout.size >= 256) this.byTimeout.clear();
      list = this.create(timeoutMs);
      this.byTimeout.set(timeoutMs, list);
    }
    this.last = list;
    return list;
  }
}

const preciseLists = new Lists((timeoutMs) => new PreciseList(timeoutMs));
const coarseLists = new Lists((timeoutMs) => new CoarseList(timeoutMs));
