import { describe, expect, it, vi } from 'vitest';
import type { AuthPrompt } from '../lib/agents';
import { AuthStore } from './auth.svelte';

const methods = [{ id: 'browser', name: 'Log in with a browser', type: 'agent' }];

function prompt(sessionId: string, withMethods: boolean): AuthPrompt {
  return { sessionId, agentId: 'acme', agentName: 'Acme', message: 'log in', methods: withMethods ? methods : [], canRunTerminal: false };
}

describe('AuthStore.check', () => {
  it('asks once per occasion: a failed start, then each failed turn of the same session', async () => {
    let needsLogin = false;
    const sessionAuth = vi.fn(async (id: string) => prompt(id, needsLogin));
    const store = new AuthStore({ sessionAuth });

    await store.check('s1'); // the start: it started
    await store.check('s1');
    expect(sessionAuth).toHaveBeenCalledTimes(1);
    expect(store.prompt).toBeNull();

    needsLogin = true; // the agent answered the first prompt "authentication required"
    await store.check('s1', 's1 turn 1');
    expect(sessionAuth).toHaveBeenCalledTimes(2);
    expect(store.prompt?.methods.map((m) => m.id)).toEqual(['browser']);
    expect(store.chosen).toBe('browser');

    store.clear(); // dismissed: the same turn does not bring it back
    await store.check('s1', 's1 turn 1');
    expect(sessionAuth).toHaveBeenCalledTimes(2);
    expect(store.prompt).toBeNull();

    await store.check('s1', 's1 turn 2');
    expect(sessionAuth).toHaveBeenCalledTimes(3);
    expect(store.prompt?.sessionId).toBe('s1');
  });

  it('an answer for an occasion that has passed is dropped', async () => {
    let answer: (p: AuthPrompt) => void = () => {};
    const store = new AuthStore({ sessionAuth: () => new Promise<AuthPrompt>((resolve) => (answer = resolve)) });
    const first = store.check('s1', 's1 turn 1');
    const late = answer;
    void store.check('s2');
    late(prompt('s1', true));
    await first;
    expect(store.prompt).toBeNull();
  });
});
