// One journey's world: a copy of the fixture workspace, a mock provider server, a code-server with the
// extension installed and user settings pointing at the mock, and Chromium showing VS Code.
// On failure, `saveArtifacts` keeps a screenshot, code-server's log and VS Code's logs.
import { cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openVSCode } from '../tooling/browser.mjs';
import { startCodeServer } from '../tooling/code-server.mjs';
import { describeRequest } from './mock-provider.mjs';
import { fixtureWorkspace } from './paths.mjs';

/** The API key code-server's environment carries; the mock accepts any key. */
export const testApiKey = 'sk-e2e-not-a-real-key';

/**
 * Starts everything for one journey. Each call gets its own workspace copy, user data and mock server,
 * so journeys never see each other's history.
 *
 * @param {object} context   from run.mjs: { mock, extensionsDir, scratchDir }
 * @param {object} [options]
 * @param {boolean} [options.trusted=true]   false: the folder opens in Restricted Mode
 * @param {Record<string, unknown> | ((server) => Record<string, unknown>)} [options.settings]  extra user
 *   settings, or a function of the session's mock provider server giving them
 * @param {Record<string, string>} [options.files]      extra workspace files (relative path → text)
 * @param {Record<string, string|undefined>} [options.env]  code-server's environment over the default
 *   (undefined removes a variable, e.g. `{ OPENAI_API_KEY: undefined }` for a machine with no key)
 * A setting given as undefined is left out of the user settings (JSON drops it).
 */
export async function openSession(context, options = {}) {
  const { trusted = true, settings = {}, files = {}, env = {} } = options;
  const root = mkdtempSync(join(context.scratchDir, 'session-'));
  const workspaceDir = join(root, 'workspace');
  cpSync(fixtureWorkspace, workspaceDir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(workspaceDir, path, '..'), { recursive: true });
    writeFileSync(join(workspaceDir, path), text);
  }
  // `extraFolders` ({ name: files }): a multi-root workspace of the workspace folder and these, opened
  // from a .code-workspace file; `session.folders[name]` is each one's directory.
  const folders = {};
  let workspaceFile;
  if (options.extraFolders) {
    for (const [name, folderFiles] of Object.entries(options.extraFolders)) {
      folders[name] = join(root, name);
      for (const [path, text] of Object.entries(folderFiles)) {
        mkdirSync(join(folders[name], path, '..'), { recursive: true });
        writeFileSync(join(folders[name], path), text);
      }
    }
    workspaceFile = join(root, 'agent-team.code-workspace');
    writeFileSync(
      workspaceFile,
      JSON.stringify({ folders: [{ path: workspaceDir }, ...Object.values(folders).map((path) => ({ path }))] }),
    );
  }
  const session = { root, workspaceDir, folders, server: undefined, codeServer: undefined, vscode: undefined, page: undefined };
  session.close = () => closeSession(session);
  const log = context.log ?? (() => {});
  let at = Date.now();
  try {
    session.server = await context.mock.startMockProviderServer();
    session.codeServer = await startCodeServer({
      workspaceDir,
      extensionsDir: context.extensionsDir,
      userDataDir: join(root, 'user-data'),
      logPath: join(root, 'code-server.log'),
      trusted,
      // The key comes from the environment, as a user's would; nothing else of the caller's leaks in.
      env: {
        OPENAI_API_KEY: testApiKey,
        ANTHROPIC_API_KEY: undefined,
        OPENAI_BASE_URL: undefined,
        ANTHROPIC_BASE_URL: undefined,
        ...env,
      },
      settings: {
        'agentTeam.provider': 'openai',
        'agentTeam.baseUrl': session.server.openaiBaseUrl,
        'agentTeam.model': 'mock-model',
        'agentTeam.maxConcurrentTasks': 8,
        // Quiet UI: nothing opens on its own over the sidebar or the editors.
        'workbench.welcomePage.walkthroughs.openOnInstall': false,
        'files.restoreUndoStack': true,
        ...(typeof settings === 'function' ? settings(session.server) : settings),
      },
    });
    log(`code-server up in ${Date.now() - at} ms (${session.codeServer.url})`);
    at = Date.now();
    session.vscode = await openVSCode(session.codeServer.url, workspaceDir, {
      timeoutMs: 120_000,
      ...(workspaceFile ? { workspaceFile } : {}),
    });
    log(`workbench ready in ${Date.now() - at} ms`);
    session.page = session.vscode.page;
    session.page.setDefaultTimeout(30_000);
    return session;
  } catch (error) {
    session.startError = error;
    error.session = session;
    throw error;
  }
}

async function closeSession(session) {
  await session.vscode?.close().catch(() => {});
  await session.codeServer?.stop().catch(() => {});
  await session.server?.close().catch(() => {});
}

/**
 * Keeps what explains a failure in `dir`: a screenshot of the window, code-server's log, VS Code's
 * server-side logs (extension host, the extension's output channel), the browser console's errors and
 * the requests the mock server received.
 */
export async function saveArtifacts(session, dir, error) {
  mkdirSync(dir, { recursive: true });
  const saved = [];
  writeFileSync(join(dir, 'error.txt'), `${error?.stack ?? error}\n`);
  saved.push('error.txt');
  if (session?.page && !session.page.isClosed()) {
    try {
      await session.page.screenshot({ path: join(dir, 'screenshot.png'), timeout: 10_000 });
      saved.push('screenshot.png');
    } catch (screenshotError) {
      writeFileSync(join(dir, 'screenshot-failed.txt'), String(screenshotError));
    }
  }
  if (session?.page && !session.page.isClosed()) {
    // Which webviews existed, for failures inside the sidebar's nested iframes.
    try {
      const frames = session.page.frames().map((frame) => `frame ${frame.name() || '-'} ${frame.url()}`);
      const iframes = await session.page
        .locator('iframe')
        .evaluateAll((elements) =>
          elements.map(
            (element) => `iframe class="${element.className}" visible=${element.getBoundingClientRect().width > 0} src=${element.src}`,
          ),
        );
      const nested = [];
      for (const frame of session.page.frames()) {
        const inner = await frame
          .evaluate(() =>
            [...document.querySelectorAll('iframe')].map(
              (element) => `#${element.id} name=${element.name} style=${element.getAttribute('style') ?? ''}`,
            ),
          )
          .catch((error) => [`(${error.message.split('\n')[0]})`]);
        if (inner.length > 0) nested.push(`in ${frame.url().slice(0, 120)}: ${inner.join(' | ')}`);
        const tree = await frame
          .evaluate(() => document.querySelectorAll('[role="tree"], [role="treeitem"]').length)
          .catch((error) => error.message.split('\n')[0]);
        nested.push(
          `frame ${frame.name() || '-'} detached=${frame.isDetached()} tree+rows=${tree} parent=${frame.parentFrame()?.name() ?? 'none'}`,
        );
      }
      const { sidebar } = await import('./workbench.mjs');
      const seen = await sidebar(session.page)
        .locator('[role="tree"], [role="treeitem"]')
        .count()
        .catch((error) => error.message.split('\n')[0]);
      nested.push(`playwright sidebar(page) sees ${seen} tree/rows`);
      writeFileSync(join(dir, 'frames.txt'), `${[...iframes, ...frames, ...nested].join('\n')}\n`);
      saved.push('frames.txt');
    } catch (framesError) {
      writeFileSync(join(dir, 'frames-failed.txt'), String(framesError));
    }
  }
  if (session?.codeServer?.logPath && existsSync(session.codeServer.logPath)) {
    cpSync(session.codeServer.logPath, join(dir, 'code-server.log'));
    saved.push('code-server.log');
  }
  const logs = session?.codeServer ? join(session.codeServer.userDataDir, 'logs') : undefined;
  if (logs && existsSync(logs)) {
    // <timestamp>/remoteagent.log, <timestamp>/exthost1/remoteexthost.log, exthost1/agent-team.agent-team/Agent Team.log
    cpSync(logs, join(dir, 'vscode-logs'), { recursive: true });
    saved.push('vscode-logs/');
  }
  if (session?.vscode?.consoleErrors?.length) {
    writeFileSync(join(dir, 'browser-console-errors.txt'), `${session.vscode.consoleErrors.join('\n')}\n`);
    saved.push('browser-console-errors.txt');
  }
  if (session?.server) {
    writeFileSync(join(dir, 'mock-requests.txt'), `${session.server.requests.map(describeRequest).join('\n')}\n`);
    saved.push('mock-requests.txt');
  }
  return saved;
}

/** Writes a journey's own attachments (see run.mjs `attach`): copies files, screenshots pages, writes text. */
export async function saveAttachments(attachments, dir) {
  mkdirSync(dir, { recursive: true });
  const saved = [];
  for (const { fileName, source } of attachments) {
    const target = join(dir, fileName);
    try {
      if (typeof source === 'string') {
        if (!existsSync(source)) continue;
        cpSync(source, target, { recursive: true });
      } else if (typeof source === 'function') {
        writeFileSync(target, String(source()));
      } else if (source && typeof source.screenshot === 'function') {
        if (source.isClosed()) continue;
        await source.screenshot({ path: target, timeout: 10_000 });
      }
      saved.push(fileName);
    } catch (error) {
      writeFileSync(`${target}.failed.txt`, String(error));
    }
  }
  return saved;
}
