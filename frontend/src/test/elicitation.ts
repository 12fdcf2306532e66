// Elicitation entries for the page's tests (fixtures/elicitation.json), typed as the event
// contract's entries. A fresh copy per call: tests may change what they get.
import type { Entry } from '../lib/protocol';
import data from './fixtures/elicitation.json';

export type ElicitationFixture = 'form' | 'formAccepted' | 'url' | 'urlCompleted' | 'cancelled' | 'invalid';

/** A deep copy of fixture `name`. */
export function elicitationEntry(name: ElicitationFixture): Entry {
  return structuredClone((data as unknown as Record<ElicitationFixture, Entry>)[name]);
}
