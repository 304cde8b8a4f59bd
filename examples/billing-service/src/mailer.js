import { recordSideEffect } from './side-effects.js';

export async function sendEmail(template, to) {
  // A real service calls its mail provider here.
  recordSideEffect('email', { template, to });
}
