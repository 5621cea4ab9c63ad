// Start and stop a real VS Code (code-server) for end-to-end tests.
//
//   import { startCodeServer, installExtension } from './code-server.mjs';
//   const cs = await startCodeServer({ workspaceDir, trusted: true });
//   ... open cs.url in a browser (see browser.mjs) ...
//   await cs.stop();
//
// code-server runs on the Node 24 that setup.sh installed, listens on
// 127.0.0.1 with an OS-chosen port (bind-addr 127.0.0.1:0), without auth,
// telemetry or update checks, in its own process group that stop() (and the
// exit of this process) kills.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { assertInstalled, paths } from './paths.mjs';

/** User settings written for every instance: quiet, offline, deterministic. */
export const DEFAULT_SETTINGS = Object.freeze({
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'workbench.enableExperiments': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'chat.disableAIFeatures': true,
  'git.openRepositoryInParentFolders': 'never',
  'window.restoreWindows': 'none',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
});

/** Settings for the untrusted case: Restricted Mode, no modal, a banner. */
const UNTRUSTED_SETTINGS = Object.freeze({
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.banner': 'always',
});

// Variables that code-server (or the VS Code CLI inside it) reads and that
// would change where it binds, how it authenticates, or make it forward to
// another instance instead of starting one.
const SCRUBBED_ENV = [
  'PORT',
  'CODE_SERVER_HOST',
  'CODE_SERVER_CONFIG',
  'PASSWORD',
  'HASHED_PASSWORD',
  'GITHUB_TOKEN',
  'VSCODE_OPTIONS',
  'VSCODE_PROXY_URI',
  'VSCODE_IPC_HOOK_CLI',
  'VSCODE_DEV',
  'ELECTRON_RUN_AS_NODE',
  'NODE_OPTIONS',
  'CODE_SERVER_PARENT_PID',
  'CS_DISABLE_PROXY',
  'CS_DISABLE_FILE_DOWNLOADS',
];

const live = new Set();
let hooksInstalled = false;

function installExitHooks() {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', () => {
    for (const s of live) killTree(s.pid, 'SIGKILL');
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    const handler = () => {
      for (const s of live) killTree(s.pid, 'SIGKILL');
      live.clear();
      process.removeListener(sig, handler);
      process.kill(process.pid, sig); // re-raise with the default action
    };
    process.on(sig, handler);
  }
}

/** pids of every live descendant of `root` (Linux /proc walk). */
function descendants(root) {
  const children = new Map();
  let entries = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(e));
    } catch {
      /* process went away */
    }
  }
  const out = [];
  const stack = [root];
  while (stack.length) {
    for (const c of children.get(stack.pop()) ?? []) {
      out.push(c);
      stack.push(c);
    }
  }
  return out;
}

/**
 * Signal the process group of `pid` plus any descendant that left it (terminals
 * call setsid). Returns the descendants it saw, since they are reparented (and so
 * lost to a later /proc walk) once `pid` dies.
 */
function killTree(pid, signal, extra = []) {
  const stray = [...new Set([...descendants(pid), ...extra])];
  try {
    process.kill(-pid, signal);
  } catch {
    /* group already gone */
  }
  for (const p of stray) {
    try {
      process.kill(p, signal);
    } catch {
      /* gone */
    }
  }
  return stray;
}

/** Running (signalable and not a zombie waiting to be reaped). */
function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

const delay = (ms) => new Promise((r) => setTimeout(r, ms));

function tail(file, lines = 40) {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

function cleanEnv(extra) {
  const env = { ...process.env };
  for (const k of SCRUBBED_ENV) delete env[k];
  for (const [k, v] of Object.entries(extra ?? {})) {
    if (v === undefined || v === null) delete env[k];
    else env[k] = String(v);
  }
  return env;
}

function writeSettings(userDataDir, settings) {
  // code-server is a remote window: settings with `machine` scope (agentTeam.baseUrl) are read from the
  // server's Machine settings, not the User ones. The test user has set everything on both.
  writeSettingsFile(join(userDataDir, 'Machine'), settings);
  return writeSettingsFile(join(userDataDir, 'User'), settings);
}

function writeSettingsFile(dir, settings) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'settings.json');
  let existing = {};
  if (existsSync(file)) {
    try {
      existing = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      throw new Error(`${file} exists but is not plain JSON; cannot merge test settings into it`);
    }
  }
  writeFileSync(file, JSON.stringify({ ...existing, ...settings }, null, 2) + '\n');
  return file;
}

/**
 * Start code-server.
 *
 * @param {object} opts
 * @param {string} [opts.workspaceDir]   folder to open (positional arg; also the server's cwd). Omit for an empty window.
 * @param {string} [opts.extensionsDir]  --extensions-dir (default: <runDir>/extensions)
 * @param {string} [opts.userDataDir]    --user-data-dir (default: <runDir>/user-data); User/settings.json is merged with DEFAULT_SETTINGS
 * @param {boolean} [opts.trusted=true]  true: pass --disable-workspace-trust (everything trusted, no prompt).
 *                                       false: trust enabled, no startup modal, the folder opens in Restricted Mode.
 * @param {boolean} [opts.trustPrompt=false] with trusted:false, show VS Code's "Do you trust the authors" modal instead.
 * @param {Record<string,string|undefined>} [opts.env] extra env for code-server and everything it starts (undefined deletes a var)
 * @param {Record<string,unknown>} [opts.settings] extra user settings (win over the defaults)
 * @param {string[]} [opts.args]         extra code-server CLI args
 * @param {string} [opts.logPath]        where code-server's stdout+stderr go (default <runDir>/code-server.log)
 * @param {number} [opts.timeoutMs=60000] how long to wait for /healthz
 * @returns {Promise<{url: string, port: number, pid: number, logPath: string, runDir: string,
 *   userDataDir: string, extensionsDir: string, settingsPath: string, args: string[],
 *   stop: (o?: {cleanup?: boolean, timeoutMs?: number}) => Promise<void>}>}
 *   url ends with '/'. stop() kills the process group (SIGTERM, then SIGKILL after timeoutMs=5000);
 *   stop({cleanup: true}) also deletes runDir (the default dirs and log live there).
 */
export async function startCodeServer(opts = {}) {
  assertInstalled();
  const {
    workspaceDir,
    trusted = true,
    trustPrompt = false,
    env: extraEnv,
    settings = {},
    args: extraArgs = [],
    timeoutMs = 60_000,
  } = opts;
  const runDir = mkdtempSync(join(tmpdir(), 'agent-team-code-server-'));
  const userDataDir = resolve(opts.userDataDir ?? join(runDir, 'user-data'));
  const extensionsDir = resolve(opts.extensionsDir ?? join(runDir, 'extensions'));
  const logPath = resolve(opts.logPath ?? join(runDir, 'code-server.log'));
  mkdirSync(userDataDir, { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });

  const trustSettings = trusted
    ? {}
    : { ...UNTRUSTED_SETTINGS, ...(trustPrompt ? { 'security.workspace.trust.startupPrompt': 'always' } : {}) };
  const settingsPath = writeSettings(userDataDir, { ...DEFAULT_SETTINGS, ...trustSettings, ...settings });

  // Our own config file, so code-server never creates ~/.config/code-server/config.yaml with a password.
  const configPath = join(runDir, 'config.yaml');
  writeFileSync(configPath, 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n');

  const args = [
    paths.codeServerEntry,
    '--config', configPath,
    '--bind-addr', '127.0.0.1:0',
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    ...(trusted ? ['--disable-workspace-trust'] : []),
    ...extraArgs,
    ...(workspaceDir ? [resolve(workspaceDir)] : []),
  ];

  const log = createWriteStream(logPath, { flags: 'a' });
  log.write(`# ${paths.node} ${args.join(' ')}\n`);
  const child = spawn(paths.node, args, {
    cwd: workspaceDir ? resolve(workspaceDir) : runDir,
    env: cleanEnv(extraEnv),
    detached: true, // own process group, so stop() can kill the whole tree
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  const entry = { pid };
  live.add(entry);
  installExitHooks();

  let exited = null;
  const exitPromise = new Promise((r) =>
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      r(exited);
    }),
  );
  let spawnError = null;
  child.on('error', (e) => (spawnError = e));

  // code-server prints "HTTP server listening on http://127.0.0.1:<port>/" once bound.
  let url = null;
  let buf = '';
  const onData = (chunk) => {
    log.write(chunk);
    if (url) return;
    buf += chunk.toString();
    const m = /server listening on (https?:\/\/\S+)/.exec(buf);
    if (m) url = m[1].endsWith('/') ? m[1] : `${m[1]}/`;
    if (buf.length > 65536) buf = buf.slice(-4096);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  // Do not keep this process alive just for the server: a test that ends (or throws)
  // without stop() exits normally and the 'exit' hook kills the server.
  child.unref();
  child.stdout.unref?.();
  child.stderr.unref?.();

  let stopped = false;
  const stop = async ({ cleanup = false, timeoutMs: killTimeoutMs = 5000 } = {}) => {
    if (!stopped) {
      stopped = true;
      if (exited === null || groupAlive(pid)) {
        const seen = killTree(pid, 'SIGTERM');
        const running = () => alive(pid) || groupAlive(pid) || seen.some(alive);
        const deadline = Date.now() + killTimeoutMs;
        while (running() && Date.now() < deadline) await delay(50);
        if (running()) killTree(pid, 'SIGKILL', seen);
        await Promise.race([exitPromise, delay(1000)]);
      }
      live.delete(entry);
      await new Promise((r) => log.end(r));
    }
    if (cleanup) rmSync(runDir, { recursive: true, force: true });
  };

  const fail = async (message) => {
    await stop();
    throw new Error(`${message}\n--- last lines of ${logPath} ---\n${tail(logPath)}`);
  };

  // Bounded wait: first for the address line, then for /healthz to answer 200.
  const deadline = Date.now() + timeoutMs;
  while (!url) {
    if (spawnError) await fail(`could not spawn ${paths.node}: ${spawnError.message}`);
    if (exited) await fail(`code-server exited early (${JSON.stringify(exited)})`);
    if (Date.now() > deadline) await fail(`code-server did not report its address within ${timeoutMs} ms`);
    await delay(50);
  }
  for (;;) {
    if (exited) await fail(`code-server exited early (${JSON.stringify(exited)})`);
    try {
      const res = await fetch(new URL('healthz', url), { signal: AbortSignal.timeout(2000) });
      if (res.ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) await fail(`code-server at ${url} did not answer /healthz within ${timeoutMs} ms`);
    await delay(100);
  }

  return {
    url,
    port: Number(new URL(url).port),
    pid,
    logPath,
    runDir,
    userDataDir,
    extensionsDir,
    settingsPath,
    args,
    stop,
  };
}

/**
 * Install a .vsix (or a marketplace id, which needs a network this machine lacks) with
 * `code-server --install-extension <vsix> --force`.
 *
 * @param {string} vsixPath
 * @param {string} extensionsDir   the same dir later passed to startCodeServer({ extensionsDir })
 * @param {{ userDataDir?: string, env?: Record<string,string>, timeoutMs?: number }} [opts]
 * @returns {Promise<{ output: string }>} rejects with code-server's output when it fails
 */
export async function installExtension(vsixPath, extensionsDir, opts = {}) {
  assertInstalled();
  const { timeoutMs = 120_000 } = opts;
  const scratch = mkdtempSync(join(tmpdir(), 'agent-team-code-server-install-'));
  const userDataDir = opts.userDataDir ?? join(scratch, 'user-data');
  const configPath = join(scratch, 'config.yaml');
  writeFileSync(configPath, 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n');
  mkdirSync(extensionsDir, { recursive: true });
  const target = existsSync(vsixPath) ? resolve(vsixPath) : vsixPath;
  const args = [
    paths.codeServerEntry,
    '--config', configPath,
    '--user-data-dir', userDataDir,
    '--extensions-dir', resolve(extensionsDir),
    '--install-extension', target,
    '--force',
  ];
  try {
    const child = spawn(paths.node, args, { env: cleanEnv(opts.env), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => killTree(child.pid, 'SIGKILL'), timeoutMs);
    const [code, signal] = await new Promise((r, j) => {
      child.on('error', j);
      child.on('exit', (c, s) => r([c, s]));
    });
    clearTimeout(timer);
    // The CLI exits 0 even for some failures, so also look at what it said.
    if (code !== 0 || signal || /Failed Installing|not found|Error:/i.test(output) || !/successfully installed/i.test(output)) {
      throw new Error(`code-server --install-extension ${target} failed (code ${code}, signal ${signal}):\n${output}`);
    }
    return { output };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
