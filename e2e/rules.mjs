// Permission rules in the window (issue 18): a scripted agent's turn asks twice to read a file of
// the session's folder, the second only once the first is answered. On the first card the person
// picks "Always allow" reads; that answers it, and the second request is answered by the rule
// without a card (its tool card says "Allowed by rule: …"). The Rules view lists the rule, fired
// once, and pauses every rule; the Audit view shows one decision by the person, one by the rule.
// Registered by run.mjs.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test, openApp, waitFor } from './lib/harness.mjs';
import { project, scriptedAgent, send, startSession, turnEnds } from './lib/ui.mjs';

const OPTIONS = [
  { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
];

/** An agent whose one turn reads a.txt then b.txt of `dir`, each after asking. */
function steps(dir) {
  const read = (id, file) => [
    { update: { sessionUpdate: 'tool_call', toolCallId: id, title: `Read ${file}`, kind: 'read', status: 'pending', locations: [{ path: path.join(dir, file) }] } },
    { call: 'session/request_permission', params: { toolCall: { toolCallId: id }, options: OPTIONS }, want: '"optionId":"yes"' },
    { update: { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed' } },
  ];
  return [
    { expect: 'initialize' }, { reply: { protocolVersion: 1, agentCapabilities: {} } },
    { expect: 'session/new' }, { reply: { sessionId: 'rules-e2e' } },
    { expect: 'session/prompt' },
    ...read('read-a', 'a.txt'),
    ...read('read-b', 'b.txt'),
    { reply: { stopReason: 'end_turn' } },
    { expect: 'never' },
  ];
}

test('a rule made on a permission card answers the next request; the Rules and Audit views show it', async () => {
  const dir = await project();
  await writeFile(path.join(dir, 'a.txt'), 'a\n');
  await writeFile(path.join(dir, 'b.txt'), 'b\n');
  const { app, page } = await openApp({ env: await scriptedAgent(steps(dir)) });
  await startSession(page, dir);
  await send(page, 'read both files');

  const tool = (file) => page.locator('[data-testid=entry][data-kind=tool]').filter({ hasText: `Read ${file}` });
  const card = tool('a.txt').getByTestId('permission');
  await waitFor(async () => (await card.count()) === 1, { message: 'the first permission card' });
  await card.getByTestId('permission-rules-toggle').click();
  const allow = card.locator('[data-testid=permission-rule-option][data-scope=kind][data-decision=allow]');
  await waitFor(async () => (await allow.count()) === 1, { message: 'the "Always allow" reads choice' });
  const words = await allow.textContent();
  if (!words.startsWith('Always allow reads')) throw new Error(`the choice reads ${words}`);
  await allow.click();

  // The second request is answered by the rule: no card, its tool card says so.
  await turnEnds(page, 'end_turn');
  const second = tool('b.txt').getByTestId('permission-decision');
  await waitFor(async () => (await second.count()) === 1, { message: "the second tool card's decision" });
  const decided = await second.textContent();
  if (!decided.includes('Allowed by rule: reads')) throw new Error(`the second decision reads ${decided}`);
  if ((await page.getByTestId('permission').count()) !== 0) throw new Error('a permission card is still shown');
  const first = await tool('a.txt').getByTestId('permission-decision').textContent();
  if (!first.includes('Allowed once')) throw new Error(`the first decision reads ${first}`);

  // The Rules view: one allow rule, fired once; the pause switch says so and shows its banner.
  await page.getByTestId('rules-open').click();
  const rule = page.locator('[data-testid=rules-view] [data-testid=rule-item][data-decision=allow]');
  await waitFor(async () => (await rule.count()) === 1, { message: 'the rule in the Rules view' });
  if ((await page.getByTestId('rule-item').count()) !== 1) throw new Error('more than one rule is listed');
  const fired = await rule.getByTestId('rule-fired').getAttribute('data-fired');
  if (fired !== '1') throw new Error(`the rule fired ${fired} times`);
  const pause = page.getByTestId('rules-pause');
  if ((await pause.getAttribute('aria-checked')) !== 'false') throw new Error('the rules start paused');
  await pause.click();
  await waitFor(async () => (await pause.getAttribute('aria-checked')) === 'true' && (await page.getByTestId('rules-paused-banner').count()) === 1,
    { message: 'the rules paused' });
  await pause.click();
  await waitFor(async () => (await pause.getAttribute('aria-checked')) === 'false' && (await page.getByTestId('rules-paused-banner').count()) === 0,
    { message: 'the rules answering again' });

  // The Audit view: the person's decision and the rule's.
  await page.getByTestId('audit-open').click();
  const items = page.locator('[data-testid=audit-view] [data-testid=audit-item]');
  await waitFor(async () => (await items.count()) === 2, { message: 'two decisions in the audit log' });
  const by = (await items.evaluateAll((els) => els.map((e) => e.dataset.decidedBy))).sort();
  if (by.join(',') !== 'person,rule') throw new Error(`the audit log's deciders are ${by}`);
  const ruled = await page.locator('[data-testid=audit-item][data-decided-by=rule]').textContent();
  if (!ruled.includes('by rule: reads')) throw new Error(`the rule's audit row reads ${ruled}`);
  await page.getByTestId('audit-filter-decided-by').selectOption('rule');
  await waitFor(async () => (await items.count()) === 1, { message: 'the audit log filtered to the rule' });
  await page.getByTestId('audit-back').click();
  await waitFor(async () => (await page.getByTestId('audit-view').count()) === 0 && (await page.getByTestId('transcript').count()) === 1,
    { message: 'back to the transcript' });
});
