import { describe, expect, it } from 'vitest';
import {
  allChoices,
  booleanValue,
  filterCommands,
  paletteQuery,
  pendingHint,
  renderableOptions,
  selectGroups,
  selectValue,
  slashCommands,
  legacyModels,
  legacyModes,
} from './controls';

describe('config options', () => {
  it('reads a flat select as one unlabelled group', () => {
    const groups = selectGroups({
      options: [
        { value: 'ask', name: 'Ask before edits', description: 'Every edit waits' },
        { value: 'auto', name: 'Edit automatically' },
      ],
    });
    expect(groups).toEqual([
      {
        label: '',
        choices: [
          { value: 'ask', name: 'Ask before edits', description: 'Every edit waits' },
          { value: 'auto', name: 'Edit automatically' },
        ],
      },
    ]);
  });

  it('reads grouped options, keeps loose items in order and drops malformed ones', () => {
    const groups = selectGroups({
      options: [
        { value: 'default', name: 'Default' },
        { group: 'anthropic', name: 'Anthropic', options: [{ value: 'opus', name: 'Opus' }, { value: 7 }, null] },
        { group: 'openai', options: [{ value: 'gpt', name: '' }] },
        'junk',
        { value: 'last', name: 'Last' },
      ],
    });
    expect(groups.map((g) => g.label)).toEqual(['', 'Anthropic', 'openai', '']);
    expect(groups[1].choices).toEqual([{ value: 'opus', name: 'Opus' }]);
    expect(groups[2].choices).toEqual([{ value: 'gpt', name: 'gpt' }]);
    expect(allChoices({ options: [{ group: 'g', name: 'G', options: [{ value: 'a', name: 'A' }] }] }).map((c) => c.value)).toEqual(['a']);
    expect(selectGroups({ options: null })).toEqual([]);
    expect(selectGroups({ options: { value: 'x' } })).toEqual([]);
  });

  it('reads current values', () => {
    expect(selectValue({ currentValue: 'auto' })).toBe('auto');
    expect(selectValue({})).toBe('');
    expect(selectValue({ currentValue: 3 })).toBe('3');
    expect(booleanValue({ currentValue: true })).toBe(true);
    expect(booleanValue({ currentValue: 'true' })).toBe(true);
    expect(booleanValue({ currentValue: false })).toBe(false);
    expect(booleanValue({})).toBe(false);
  });

  it('renders select and boolean options only, and prefers them over legacy pickers', () => {
    const controls = {
      configOptions: [
        { id: 'mode', name: 'Mode', type: 'select' },
        { id: 'x', name: 'X', type: 'number' },
        { id: 'thinking', name: 'Think', type: 'boolean' },
      ],
      modes: { currentModeId: 'a', availableModes: [{ id: 'a', name: 'A' }] },
    };
    expect(renderableOptions(controls).map((o) => o.id)).toEqual(['mode', 'thinking']);
    expect(legacyModes(controls)).toEqual([]); // the "mode" option is the picker
    expect(legacyModes({ modes: controls.modes }).map((m) => m.id)).toEqual(['a']);
    expect(legacyModes(null)).toEqual([]);
    expect(renderableOptions(undefined)).toEqual([]);
  });

  it('keeps the legacy Mode and Model pickers beside config options that are neither', () => {
    const controls = {
      configOptions: [{ id: 'effort', name: 'Thinking', category: 'thought_level', type: 'select' }],
      modes: { currentModeId: 'a', availableModes: [{ id: 'a', name: 'A' }] },
      models: { currentModelId: 'm', availableModels: [{ modelId: 'm', name: 'M' }] },
    };
    expect(legacyModes(controls).map((m) => m.id)).toEqual(['a']);
    expect(legacyModels(controls).map((m) => m.modelId)).toEqual(['m']);
    const withModel = { ...controls, configOptions: [...controls.configOptions, { id: 'pick', name: 'Model', category: 'model', type: 'select' }] };
    expect(legacyModels(withModel)).toEqual([]);
    expect(legacyModes(withModel).map((m) => m.id)).toEqual(['a']);
  });
});

describe('slash commands', () => {
  const commands = slashCommands({
    commands: [
      { name: 'review', description: 'Review the project folder', input: { hint: 'what to focus on' } },
      { name: '/plan', description: 'Only make a plan' },
      { name: '' },
      { name: 'preview' },
    ],
  });

  it('normalises the advertised commands', () => {
    expect(commands).toEqual([
      { name: 'review', description: 'Review the project folder', hint: 'what to focus on' },
      { name: 'plan', description: 'Only make a plan', hint: '' },
      { name: 'preview', description: '', hint: '' },
    ]);
    expect(slashCommands({ commands: null })).toEqual([]);
  });

  it('opens the palette only for a leading slash with no space yet', () => {
    expect(paletteQuery('/')).toBe('');
    expect(paletteQuery('/rev')).toBe('rev');
    expect(paletteQuery('/review ')).toBeNull();
    expect(paletteQuery(' /review')).toBeNull();
    expect(paletteQuery('hello /x')).toBeNull();
    expect(paletteQuery('')).toBeNull();
  });

  it('filters by prefix first, then by substring, ignoring case', () => {
    expect(filterCommands(commands, '').map((c) => c.name)).toEqual(['review', 'plan', 'preview']);
    expect(filterCommands(commands, 'P').map((c) => c.name)).toEqual(['plan', 'preview']);
    expect(filterCommands(commands, 'view').map((c) => c.name)).toEqual(['review', 'preview']);
    expect(filterCommands(commands, 'zzz')).toEqual([]);
  });

  it('shows the input hint only right after a completed command', () => {
    expect(pendingHint(commands, '/review ')).toBe('what to focus on');
    expect(pendingHint(commands, '/review x')).toBe('');
    expect(pendingHint(commands, '/review')).toBe('');
    expect(pendingHint(commands, '/plan ')).toBe('');
  });
});
