// What a subagent card may do (components/entries/SubagentEntry.svelte): open the child's saved
// transcript, and cancel its work in a live session. Given through a Svelte context
// (provideSubagents / useSubagents), as the branching store is, so the transcript's components
// between the app and the card need no new props.
import { getContext, setContext } from 'svelte';

export interface SubagentActions {
  /** Opens the child's transcript (its saved copy, which the Go side writes as it goes). */
  open(id: string): void;
  /** Cancels the child's work in the shown live session; absent for a saved session. */
  cancel?: (id: string) => Promise<void>;
}

const KEY = Symbol('subagents');

/** Gives the subagent cards below the caller what they may do. */
export function provideSubagents(a: SubagentActions): void {
  setContext(KEY, a);
}

/** The actions provided above, or undefined (the card then only shows). */
export function useSubagents(): SubagentActions | undefined {
  return getContext<SubagentActions | undefined>(KEY);
}
