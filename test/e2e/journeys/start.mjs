// The README's "run the product" command: `npm start -- <folder>` (scripts/start.sh) builds, packages
// and installs the extension into a local code-server, prints the address, and runs until Ctrl-C.
// Here: the address answers, the folder opens trusted with Agent Team in the activity bar, and SIGINT
// (Ctrl-C) stops the server.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRestrictedMode, openVSCode } from '../tooling/browser.mjs';
import { fixtureWorkspace, repoRoot } from '../lib/paths.mjs';
import { assert, assertEqual, deferred, eventually, within } from '../lib/wait.mjs';
import { openSidebar } from '../lib/workbench.mjs';

export const name = 'start';
export const title = 'npm start -- <folder>: prints an address that answers, opens the folder trusted with Agent Team, stops on Ctrl-C';

export async function run({ scratchDir, attach, log }) {
  const runDir = mkdtempSync(join(scratchDir, 'run-'));
  const folder = join(runDir, 'my project');
  cpSync(fixtureWorkspace, folder, { recursive: true });
  const child = spawn('bash', [join(repoRoot, 'scripts', 'start.sh'), folder], {
    cwd: repoRoot,
    env: { ...process.env, AGENT_TEAM_RUN_DIR: runDir, AGENT_TEAM_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const address = deferred();
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  void exited.then(({ code, signal }) =>
    address.reject(new Error(`scripts/start.sh exited (${code ?? signal}) before printing an address`)),
  );
  const onOutput = (chunk) => {
    output += chunk;
    const match = /Agent Team is running at (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(output);
    if (match) address.resolve(match[1]);
  };
  child.stdout.setEncoding('utf8').on('data', onOutput);
  child.stderr.setEncoding('utf8').on('data', onOutput);
  attach('start-output.txt', () => output);
  attach('code-server.log', join(runDir, 'code-server.log'));
  let vscode;
  try {
    const url = await within(address.promise, 300_000, 'scripts/start.sh to print the address');
    log(`start.sh printed ${url}`);
    const base = new URL('/', url).href;
    assertEqual((await fetch(url)).status, 200, 'the printed address answers');
    assertEqual((await fetch(new URL('healthz', base))).status, 200, "code-server's /healthz answers");
    const extensions = readdirSync(join(runDir, 'extensions'));
    assert(
      extensions.some((entry) => entry.startsWith('agent-team.agent-team-')),
      `the extension is installed in ${runDir}/extensions (${extensions.join(', ')})`,
    );

    // What the user sees at that address: their folder, trusted, with Agent Team's view.
    vscode = await openVSCode(url, undefined, { timeoutMs: 120_000 });
    attach('screenshot.png', vscode.page);
    await vscode.page.locator('.part.titlebar, .part.sidebar', { hasText: 'my project' }).first().waitFor({ timeout: 60_000 });
    const frame = await openSidebar(vscode.page);
    await frame.locator('.empty-state').filter({ visible: true }).waitFor();
    assert(!(await isRestrictedMode(vscode.page)), 'the folder is trusted (no Restricted Mode)');
    await vscode.close();
    vscode = undefined;

    // Ctrl-C stops it, and the server with it.
    child.kill('SIGINT');
    const { code, signal } = await within(exited, 30_000, 'scripts/start.sh to exit after SIGINT');
    assert(code === 130 || signal === 'SIGINT', `start.sh exits as interrupted (code ${code}, signal ${signal})`);
    await eventually(
      async () =>
        !(await fetch(new URL('healthz', base)).then(
          () => true,
          () => false,
        )),
      {
        timeoutMs: 10_000,
        what: 'the server to stop answering',
      },
    );
    assert(existsSync(join(runDir, 'user-data', 'User', 'settings.json')), 'the user settings persist in the run folder');
  } finally {
    await vscode?.close();
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await within(exited, 30_000, 'scripts/start.sh to exit after SIGTERM').catch(() => child.kill('SIGKILL'));
    }
    // When start.sh failed to stop its server (the behaviour under test), do it here.
    killServersOf(runDir);
  }
}

/** SIGKILLs the process group of any code-server still using `runDir` (start.sh runs it under setsid). */
function killServersOf(runDir) {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let commandLine = '';
    try {
      commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!commandLine.includes(`${runDir}/user-data`)) continue;
    try {
      process.kill(-Number(entry), 'SIGKILL');
    } catch {
      try {
        process.kill(Number(entry), 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }
}
