// A value shown for a moment: "Copied", "Saved to …". show() sets it and, after `ms` on the
// clock, it is null again; a new show() restarts the wait. Create it while a component
// initialises: its timer is cancelled with the component.
import type { Clock } from './clock';

export class Flash<T> {
  value = $state<T | null>(null);

  readonly #clock: Clock;
  readonly #ms: number;
  #cancel: (() => void) | null = null;

  constructor(clock: Clock, ms: number) {
    this.#clock = clock;
    this.#ms = ms;
    $effect(() => () => this.#cancel?.());
  }

  show(value: T): void {
    this.#cancel?.();
    this.value = value;
    this.#cancel = this.#clock.setTimeout(() => {
      this.#cancel = null;
      this.value = null;
    }, this.#ms);
  }
}
