// The slash-command palette's state. A '/' typed first in the prompt opens the agent's commands,
// filtered by what follows; Up/Down move, Enter or Tab complete (through `complete`, which sets
// the prompt to "/name "), Esc closes it for the command being typed. Its keys come from the
// prompt box (listKeys(() => palette.keys)). Create it while a component initialises (it runs an
// effect: a new query selects the first match again).
import { filterCommands, paletteQuery, pendingHint, type SlashCommand } from '../../lib/controls';
import type { ListKeys } from '../../lib/listnav';

export interface PaletteSource {
  text: () => string;
  /** A live session is shown. */
  active: () => boolean;
  /** The commands the agent advertises. */
  commands: () => readonly SlashCommand[];
  /** Puts the command in the prompt. */
  complete: (cmd: SlashCommand) => void;
}

export class Palette {
  /** Esc closed the palette for the command being typed. */
  #dismissed = $state(false);
  readonly #src: PaletteSource;

  /** The highlighted match. */
  selected = $state(0);
  /** What follows the '/', or null when the prompt is no command (or there are none to offer). */
  readonly query = $derived.by(() => (this.#src.active() && this.#src.commands().length > 0 ? paletteQuery(this.#src.text()) : null));
  readonly matches = $derived.by(() => (this.query === null ? [] : filterCommands(this.#src.commands(), this.query)));
  readonly open = $derived(!this.#dismissed && this.matches.length > 0);
  /** The input hint of the command typed, shown after it as placeholder text. */
  readonly hint = $derived.by(() => (this.#src.active() ? pendingHint(this.#src.commands(), this.#src.text()) : ''));

  constructor(src: PaletteSource) {
    this.#src = src;
    $effect.pre(() => {
      const q = this.query;
      this.selected = 0;
      if (q === null) this.#dismissed = false;
    });
  }

  /** Completes the prompt to `cmd` (a click, Enter, Tab). */
  pick(cmd: SlashCommand): void {
    this.#dismissed = false;
    this.#src.complete(cmd);
  }

  /** The palette for listKeys, as it is now. */
  get keys(): ListKeys {
    const n = this.matches.length;
    return {
      open: this.open,
      count: n,
      index: this.selected,
      select: (i) => (this.selected = i),
      pick: () => {
        this.pick(this.matches[Math.min(this.selected, n - 1)]);
        return true;
      },
      close: () => (this.#dismissed = true),
    };
  }
}
