// The scopes of the taint engine: one frame per function, holding the taint of each local name.
// Every taint starts at a read, and `taintOf` never looks into a nested function: a name is
// tainted only in the function that holds the read, or in one a tainted value is assigned to.
// While no function on the stack is live, nothing can be tainted and the engine's exit handlers
// have nothing to check; most code of a file with reads sits in functions without one.
import type { TSESTree } from '@typescript-eslint/utils';
import type { Computation, Taint } from './model.js';
import { unionOf } from './taint.js';
import { settled } from './pending-reads.js';

interface Frame {
  parent: Frame | null;
  /** Taint of each local name; `null` shadows a tainted name of an outer function. Made on first use: most functions bind none. */
  names: Map<string, Taint | null> | undefined;
  /** Holds a read or a tainted name: code in it (and in functions nested in it) can carry a taint. */
  live: boolean;
}

export class TaintFrames {
  private frame: Frame = { parent: null, names: undefined, live: false };
  private liveFrames = 0;

  /** `taintOf` for default values of destructuring patterns. */
  constructor(private readonly taintOf: (node: TSESTree.Node) => Taint | null) {}

  /** Whether some function on the stack is live (holds a read or a tainted name). */
  get anyLive(): boolean {
    return this.liveFrames > 0;
  }

  enter(): void {
    this.frame = { parent: this.frame, names: undefined, live: false };
  }

  exit(): void {
    const frame = this.frame;
    if (!frame.parent) return;
    if (frame.live) this.liveFrames--;
    this.frame = frame.parent;
  }

  markCurrentLive(): void {
    this.markLive(this.frame);
  }

  private markLive(frame: Frame): void {
    if (frame.live) return;
    frame.live = true;
    this.liveFrames++;
  }

  lookup(name: string): Taint | null | undefined {
    for (let f: Frame | null = this.frame; f; f = f.parent) {
      if (f.names?.has(name)) return f.names.get(name);
    }
    return undefined;
  }

  /** Assigns to the frame that declared `name` (or declares it in the current one). */
  assign(name: string, taint: Taint | null): void {
    for (let f: Frame | null = this.frame; f; f = f.parent) {
      if (f.names?.has(name)) {
        f.names.set(name, taint);
        if (taint) this.markLive(f);
        return;
      }
    }
    // A name no frame holds is declared here: not for a pending read that is none (it would not be).
    if (settled(taint)) this.declare(name, taint);
  }

  declare(name: string, taint: Taint | null): void {
    (this.frame.names ??= new Map()).set(name, taint);
    if (taint) this.markLive(this.frame);
  }

  /** `name += n`, `name++`: the name now holds a value computed from what it held (or from `right`). */
  compound(name: string, right: Taint | null, computation: Omit<Computation, 'field'>): void {
    const base = unionOf(this.lookup(name) ?? null, right);
    if (!base) return;
    this.assign(name, { read: base.read, field: base.field, computed: { ...computation, field: base.computed?.field ?? base.field } });
  }

  /** Binds the names of a pattern to `value` (a destructured field narrows the taint to that field). */
  bind(pattern: TSESTree.Node | null, value: Taint | null, declare: boolean): void {
    if (!pattern) return;
    switch (pattern.type) {
      case 'Identifier':
        if (declare) this.declare(pattern.name, value);
        else this.assign(pattern.name, value);
        return;
      case 'ObjectPattern':
        for (const property of pattern.properties) {
          if (property.type === 'RestElement') {
            this.bind(property.argument, value, declare);
            continue;
          }
          const key = !property.computed && property.key.type === 'Identifier' ? property.key.name : null;
          this.bind(property.value, value && { ...value, field: value.computed ? value.field : (key ?? value.field) }, declare);
        }
        return;
      case 'ArrayPattern':
        for (const element of pattern.elements) this.bind(element, value, declare);
        return;
      case 'RestElement':
        this.bind(pattern.argument, value, declare);
        return;
      case 'AssignmentPattern':
        this.bind(pattern.left, unionOf(value, this.taintOf(pattern.right)), declare);
        return;
      default:
        return;
    }
  }
}
