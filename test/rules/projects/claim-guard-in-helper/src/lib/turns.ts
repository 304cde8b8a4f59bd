import { claimOnce } from 'replica-guard';

/** Hands a named turn to one replica per window. */
export class Turns {
  async enter(name: string): Promise<boolean> {
    if (!(await claimOnce(`turn:${name}`, 30_000))) return false;
    return true;
  }
}
