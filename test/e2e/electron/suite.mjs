// Runs INSIDE the VS Code extension host that @vscode/test-electron starts (see README.md here); never
// in CI. run-electron.mjs bundles it to CommonJS with the mock provider, and VS Code calls `run()`.
// The same journeys as the browser suite, through the commands' arguments instead of the UI:
// delegate (coordinator → background researcher → TaskOutput → answer), stop, review (accept one file,
// reject the other, Undo), all against the mock provider started here, in the extension host.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { hangingStream, startMockProviderServer, textTurn, toolCallTurn } from '../../support/mock-provider/index.ts';

const agentOf = (request) =>
  request.system.includes('You are the coordinator')
    ? 'coordinator'
    : request.system.startsWith('You are a researcher')
      ? 'researcher'
      : request.system.startsWith('You are a refactorer')
        ? 'refactorer'
        : 'unknown';
const priorTurns = (request) => (request.body?.messages ?? []).filter((message) => message.role === 'assistant').length;

function check(condition, message) {
  if (!condition) throw new Error(`assertion failed: ${message}`);
}

function deferred() {
  let resolve;
  const promise = new Promise((settle) => (resolve = settle));
  return { promise, resolve };
}

async function within(promise, timeoutMs, what) {
  let timer;
  try {
    return await Promise.race([
      promise,
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function eventually(predicate, what, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function delegateJourney(server) {
  const answered = deferred();
  let researcherId = '';
  server.respondWith((request) => {
    const agent = agentOf(request);
    if (agent === 'researcher') return textTurn('Dates are parsed in src/parser.ts:7.');
    switch (priorTurns(request)) {
      case 0:
        return toolCallTurn([
          {
            name: 'Agent',
            input: {
              subagent_type: 'researcher',
              description: 'Find date parsing',
              prompt: 'Where are dates parsed?',
              run_in_background: true,
            },
          },
        ]);
      case 1:
        researcherId = /\btask (t\d+)/i.exec(request.lastMessageText)?.[1] ?? 'missing';
        return toolCallTurn([{ name: 'TaskOutput', input: { task_id: researcherId } }]);
      default:
        answered.resolve(request.lastMessageText);
        return textTurn('Dates are parsed in src/parser.ts:7.');
    }
  });
  const rootId = await vscode.commands.executeCommand('agentTeam.delegate', 'Review how we parse dates');
  check(typeof rootId === 'string' && /^t\d+$/.test(rootId), `delegate returned a task id (${rootId})`);
  const lastToolResult = await within(answered.promise, 30_000, 'the coordinator to get the researcher output');
  check(lastToolResult.includes('Dates are parsed in src/parser.ts:7'), 'TaskOutput carried the researcher result');
}

async function stopJourney(server) {
  server.respondWith((request) => {
    if (agentOf(request) === 'researcher') return hangingStream({ text: ['Reading…'] });
    if (priorTurns(request) === 0) {
      return toolCallTurn([
        {
          name: 'Agent',
          input: { subagent_type: 'researcher', description: 'Find date parsing', prompt: 'Where?', run_in_background: true },
        },
      ]);
    }
    return hangingStream({ text: ['Waiting…'] });
  });
  const first = server.requests.length;
  const rootId = await vscode.commands.executeCommand('agentTeam.delegate', 'Check the date handling');
  await within(server.waitForRequest(first + 2), 30_000, 'the researcher and the coordinator to be waiting on the model');
  const held = server.requests.slice(first + 1).map((request) => request.index);
  await vscode.commands.executeCommand('agentTeam.stopTask', rootId);
  await within(
    Promise.all(held.map((index) => server.waitForClientClose(index))),
    5000,
    'stopping the root to close its and its child requests',
  );
}

async function reviewJourney(server, folder) {
  const done = deferred();
  server.respondWith((request) => {
    if (priorTurns(request) === 0) {
      return toolCallTurn([
        {
          name: 'Edit',
          input: {
            file_path: 'src/parser.ts',
            old_string: '/** Parses an ISO 8601 date',
            new_string: '/** Returns the Date for an ISO 8601 date',
          },
        },
        {
          name: 'Edit',
          input: { file_path: 'src/format.ts', old_string: '/** Formats a date as', new_string: '/** Returns a date formatted as' },
        },
      ]);
    }
    done.resolve();
    return textTurn('Proposed two edits.');
  });
  const parser = join(folder, 'src', 'parser.ts');
  const format = join(folder, 'src', 'format.ts');
  const parserBefore = await readFile(parser, 'utf8');
  const formatBefore = await readFile(format, 'utf8');
  const taskId = await vscode.commands.executeCommand('agentTeam.delegate', 'Make the date functions say what they return', {
    role: 'refactorer',
  });
  await within(done.promise, 30_000, 'the refactorer to propose its edits');
  check((await readFile(parser, 'utf8')) === parserBefore, 'proposals change nothing on disk');
  await vscode.commands.executeCommand('agentTeam.acceptFile', taskId, 'src/parser.ts');
  await vscode.commands.executeCommand('agentTeam.rejectFile', taskId, 'src/format.ts');
  const accepted = parserBefore.replace('/** Parses an ISO 8601 date', '/** Returns the Date for an ISO 8601 date');
  await eventually(async () => (await readFile(parser, 'utf8')) === accepted, 'the accepted change on disk');
  check((await readFile(format, 'utf8')) === formatBefore, 'the rejected file is unchanged');
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(parser));
  await vscode.window.showTextDocument(document);
  await vscode.commands.executeCommand('undo');
  check(document.getText() === parserBefore, 'Undo reverts the accepted change');
}

export async function run() {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  check(folder, 'a workspace folder is open');
  const server = await startMockProviderServer();
  try {
    const configuration = vscode.workspace.getConfiguration('agentTeam');
    await configuration.update('provider', 'openai', vscode.ConfigurationTarget.Global);
    await configuration.update('baseUrl', server.openaiBaseUrl, vscode.ConfigurationTarget.Global);
    await configuration.update('model', 'mock-model', vscode.ConfigurationTarget.Global);
    const journeys = { delegate: delegateJourney, stop: stopJourney, review: reviewJourney };
    const failures = [];
    for (const [name, journey] of Object.entries(journeys)) {
      try {
        await journey(server, folder);
        console.log(`ok   ${name}`);
      } catch (error) {
        failures.push(name);
        console.log(`FAIL ${name}: ${error?.stack ?? error}`);
      }
    }
    if (failures.length > 0) throw new Error(`electron e2e: ${failures.length} failed (${failures.join(', ')})`);
  } finally {
    await server.close();
  }
}
