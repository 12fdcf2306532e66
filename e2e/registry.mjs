// The ACP registry in the window (issue 19): a fixture registry served from a temp folder lists
// "demo-acp", whose archive's command starts this binary's Demo agent. The person opens the
// registry from the Agents dialog, installs it (the row then says "Installed 1.0.0"), picks
// "registry:demo-acp" in the agent picker and starts a session: the header shows its version.
// With no registry reachable, the view says so and lists the snapshot shipped in the binary.
// Registered by run.mjs.
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { test, openApp, waitFor, tempDir, APP_BIN } from './lib/harness.mjs';
import { project, stateIs } from './lib/ui.mjs';

const PLATFORM = `${process.platform}-${{ x64: 'x86_64', arm64: 'aarch64' }[process.arch] ?? process.arch}`;

/** Serves dir over HTTP on a free port; resolves with its base address and a closer. */
async function serve(dir) {
  const server = createServer(async (req, res) => {
    try {
      res.end(await readFile(path.join(dir, path.basename(new URL(req.url, 'http://x').pathname))));
    } catch {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

/** A registry listing demo-acp 1.0.0: a tar.gz whose ./agent runs `agentdesk demo-agent`. */
export async function demoRegistry() {
  const dir = await tempDir('agentdesk-registry-');
  const pkg = path.join(dir, 'pkg');
  await mkdir(pkg);
  await writeFile(path.join(pkg, 'agent'), `#!/bin/sh\nexec '${APP_BIN}' demo-agent --pace 15ms "$@"\n`);
  await chmod(path.join(pkg, 'agent'), 0o755);
  await promisify(execFile)('tar', ['-czf', path.join(dir, 'demo.tar.gz'), '-C', pkg, 'agent']);
  const srv = await serve(dir);
  const index = { version: '1.0.0', agents: [{ id: 'demo-acp', name: 'Demo ACP', version: '1.0.0', description: 'The Demo agent, from a fixture registry',
    distribution: { binary: { [PLATFORM]: { archive: `${srv.base}/demo.tar.gz`, cmd: './agent' } } } }] };
  await writeFile(path.join(dir, 'registry.json'), JSON.stringify(index));
  return { url: `${srv.base}/registry.json`, close: srv.close };
}

/** Opens the Registry view from the Agents dialog. */
export async function openRegistry(page) {
  await page.getByTestId('agents-manage').click();
  await page.getByTestId('agent-registry').click();
  await waitFor(async () => (await page.getByTestId('registry-view').count()) === 1, { message: 'the registry view' });
}

test('an agent installed from the registry starts from the picker with its version in the header', async () => {
  const reg = await demoRegistry();
  try {
    const { app, page } = await openApp({ env: { AGENTDESK_REGISTRY_URL: reg.url } });
    await openRegistry(page);
    const row = page.locator('[data-testid=registry-item][data-id=demo-acp]');
    await waitFor(async () => (await row.count()) === 1, { message: 'demo-acp in the registry view' });
    if ((await page.getByTestId('registry-offline').count()) !== 0) throw new Error('the view says offline with the registry reachable');
    await row.getByTestId('registry-install').click();
    await waitFor(async () => (await row.getAttribute('data-installed')) === '1.0.0', { timeout: 20_000, message: 'demo-acp installed' });
    if ((await row.getByTestId('registry-error').count()) !== 0) throw new Error(await row.getByTestId('registry-error').textContent());

    await page.getByTestId('registry-back').click();
    const option = page.locator('[data-testid=agent-option][data-agent-id="registry:demo-acp"]');
    await waitFor(async () => (await option.count()) === 1, { message: 'the installed agent in the picker' });
    await page.getByTestId('agent-picker').selectOption('registry:demo-acp');
    await page.getByTestId('cwd-input').fill(await project());
    await page.getByTestId('start-session').click();
    await waitFor(() => stateIs(page, 'idle'), { timeout: 20_000, message: 'the registry agent idle' });
    const version = (await page.getByTestId('session-agent-version').textContent())?.trim();
    if (version !== '1.0.0') throw new Error(`the header shows version ${version}`);
  } finally {
    await reg.close();
  }
});

test('with no registry reachable the view says so and lists the snapshot', async () => {
  const reg = await demoRegistry();
  await reg.close(); // nothing listens there any more
  const { app, page } = await openApp({ env: { AGENTDESK_REGISTRY_URL: reg.url } });
  await openRegistry(page);
  const banner = page.getByTestId('registry-offline');
  await waitFor(async () => (await banner.count()) === 1, { timeout: 40_000, message: 'the offline banner' });
  if ((await banner.getAttribute('data-origin')) !== 'snapshot') throw new Error(`offline origin ${await banner.getAttribute('data-origin')}`);
  if (!(await banner.textContent()).includes('snapshot of')) throw new Error(`banner: ${await banner.textContent()}`);
  if ((await page.getByTestId('registry-item').count()) < 4) throw new Error('the snapshot lists too few agents');
});
