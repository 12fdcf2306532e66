// Opening a tool call's location in the person's editor: the window provides one opener for the
// session it shows (live or saved) through a Svelte context, so a tool card deep in the
// transcript reaches it without every component between passing it down.
import { getContext, setContext } from 'svelte';

/** Opens path (absolute, or relative to the session folder) at line (0: none); failures are reported by the opener. */
export type LocationOpener = (path: string, line: number) => void;

const KEY = Symbol('location-opener');

/** Gives the tool cards below the caller an Open button on their locations. */
export function provideLocationOpener(open: LocationOpener): void {
  setContext(KEY, open);
}

/** The opener provided above, or undefined (locations are then plain text). */
export function useLocationOpener(): LocationOpener | undefined {
  return getContext<LocationOpener | undefined>(KEY);
}
