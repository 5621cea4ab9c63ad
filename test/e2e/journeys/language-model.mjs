// Journey: no API key anywhere, but VS Code offers a language model (here the test-only extension in
// test/e2e/fixtures/lm-provider, which answers from the mock provider's script over its OpenAI protocol).
// Agent Team uses that model without asking for a key: delegate from the palette and watch the tree
// complete; then "@team …" in the Chat view runs the team and answers there, and its "Show in Agent
// Team" button selects the run in the sidebar (a file and a selection attached to the request reach the
// coordinator); last, that extension calls our agentTeam_delegate tool
// (as another agent would) and gets the researcher's answer back, the run shown in our sidebar.
import { agentOf, priorTurns } from '../lib/mock-provider.mjs';
import { assert, assertEqual } from '../lib/wait.mjs';
import { runCommand } from '../tooling/browser.mjs';
import { delegateFromPalette, openSidebar, readRows, taskRow } from '../lib/workbench.mjs';

export const name = 'language-model';
export const title =
  'No key: VS Code\u2019s own model runs the team from the palette, @team answers in the Chat view, another extension delegates through agentTeam_delegate';

const paletteTask = 'Where are dates parsed';
const chatTask = 'review the parser for error handling';
const chatAnswer = 'The parser accepts invalid dates silently (src/parser.ts:7).';

/** VS Code's API has no system role: the instruction arrives as the first user message. */
function agentOfLanguageModelRequest(request) {
  const first = request.body?.messages?.[0];
  return agentOf({ system: typeof first?.content === 'string' ? first.content : '' });
}

export async function run({ open, mock, log, screenshot }) {
  const session = await open({
    // A machine with no key: none in the environment, no provider or base URL in the settings.
    env: { OPENAI_API_KEY: undefined },
    settings: (server) => ({
      'agentTeam.provider': undefined,
      'agentTeam.baseUrl': undefined,
      'agentTeam.model': undefined,
      'chat.disableAIFeatures': false,
      'mockLanguageModel.baseUrl': server.openaiBaseUrl,
    }),
  });
  const { page, server } = session;
  /** The coordinator's first request of the chat run: what @team passed on of the attachments. */
  let chatCoordinatorPrompt = '';
  server.respondWith((request) => {
    const agent = agentOfLanguageModelRequest(request);
    if (agent === 'researcher') {
      const fromTool = JSON.stringify(request.body.messages[1] ?? '').includes('Where are dates parsed?');
      return mock.textTurn(fromTool ? 'The tool run found dates in src/parser.ts:7.' : 'Dates are parsed in src/parser.ts:7.');
    }
    if (agent === 'reviewer') return mock.textTurn('[medium] src/parser.ts:7: new Date() accepts invalid input silently.');
    if (agent !== 'coordinator') throw new Error(`unexpected agent: ${JSON.stringify(request.body?.messages?.[0])?.slice(0, 160)}`);
    const fromChat = JSON.stringify(request.body.messages[1] ?? '').includes(chatTask);
    if (priorTurns(request) === 0) {
      if (fromChat) chatCoordinatorPrompt = JSON.stringify(request.body.messages[1] ?? '');
      const input = fromChat
        ? { subagent_type: 'reviewer', description: 'Review the parser', prompt: 'Review src/parser.ts for error handling.' }
        : { subagent_type: 'researcher', description: 'Find date parsing', prompt: 'Where are dates parsed?' };
      return mock.toolCallTurn([{ name: 'Agent', input }]);
    }
    return mock.textTurn(fromChat ? chatAnswer : 'Dates are parsed in src/parser.ts:7.');
  });

  // No key, yet the sidebar is ready: it names VS Code's model.
  const frame = await openSidebar(page);
  await frame.locator('.empty-state', { hasText: 'with Mock LM (VS Code)' }).waitFor();
  log('the sidebar offers VS Code\u2019s model');

  await delegateFromPalette(page, paletteTask);
  await allowLanguageModelAccessIfAsked(page, log);
  await taskRow(frame, 'researcher', 'Find date parsing', 'completed').waitFor({ timeout: 60_000 });
  await taskRow(frame, 'coordinator', paletteTask, 'completed').waitFor();
  log('the palette run completed on the VS Code model');
  assert(
    server.requests.every((request) => request.apiKey === undefined || request.apiKey === 'mock'),
    'no API key went to the provider',
  );

  // @team in the Chat view, with the parser's file and a selected line of it attached.
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget .quick-input-box input').fill('parser.ts');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'parser.ts' }).first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.tab.active', { hasText: 'parser.ts' }).waitFor();
  await runCommand(page, 'Go to Line/Column...');
  await page.keyboard.type('8');
  await page.keyboard.press('Enter');
  await page.locator('#status\\.editor\\.selection', { hasText: /Ln 8\b/ }).waitFor();
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+End');
  await page.locator('#status\\.editor\\.selection', { hasText: /selected/ }).waitFor();
  await runCommand(page, 'Chat: Add Selection to Chat');
  await runCommand(page, 'Chat: Add File to Chat');
  log('attached the parser and its line 8 to the chat');
  await runCommand(page, 'Chat: Open Chat');
  // Opening the chat focuses its input.
  await page.locator('.interactive-input-part').first().waitFor({ state: 'visible' });
  await page.locator('.interactive-input-part .monaco-editor.focused').first().waitFor();
  // Adding a file may leave its name typed in the input; the attachments stay as chips above it.
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.locator('.interactive-input-part .chat-attached-context', { hasText: 'parser.ts:8' }).first().waitFor();
  await page.keyboard.type(`@team ${chatTask}`);
  // The send button, not Enter: with files attached, "parser" in the text may open a completion list that
  // Enter would accept instead of sending.
  await page.locator('.interactive-input-part a.action-label[aria-label^="Send"]').first().click();
  await allowLanguageModelAccessIfAsked(page, log);
  const response = page.locator('.interactive-item-container.interactive-response').last();
  await response.filter({ hasText: chatAnswer }).waitFor({ timeout: 60_000 });
  await response.filter({ hasText: 'reviewer' }).waitFor();
  log('@team answered in the chat');
  // What the user attached reached the coordinator: the file by its workspace path, the selection as text.
  assert(
    chatCoordinatorPrompt.includes('# Attached by the user'),
    `the attachments reached the coordinator: ${chatCoordinatorPrompt.slice(0, 600)}`,
  );
  assert(
    chatCoordinatorPrompt.includes('The file `src/parser.ts` (read it with Read)'),
    `the file reference: ${chatCoordinatorPrompt.slice(0, 600)}`,
  );
  assert(
    chatCoordinatorPrompt.includes('The selection in `src/parser.ts`, lines 8-8'),
    `the selection: ${chatCoordinatorPrompt.slice(0, 600)}`,
  );
  assert(chatCoordinatorPrompt.includes('return new Date(text);'), 'the selected text');
  log('the file and the selection reached the coordinator’s request');
  await screenshot('chat', page);
  const rowsNow = await readRows(frame);
  const chatRoot = rowsNow.find((row) => row.label.startsWith(`coordinator: ${chatTask}`));
  assert(chatRoot, `the chat's run is in the sidebar: ${JSON.stringify(rowsNow)}`);
  assertEqual(chatRoot.status, 'completed', 'the chat run completed');

  await response.getByRole('button', { name: 'Show in Agent Team' }).click();
  await frame.locator(`[role="treeitem"][data-task-id="${chatRoot.id}"][aria-selected="true"]`).waitFor();
  log('Show in Agent Team selected the chat\u2019s run');

  // Another extension's agent hands work to the team through the agentTeam_delegate tool.
  await runCommand(page, 'Mock Language Model: Delegate Through agentTeam_delegate');
  // Our prepareInvocation's confirmation, as VS Code shows it: the user says yes.
  const confirmation = page.locator('.monaco-dialog-box', { hasText: 'Delegate to Agent Team?' });
  await confirmation.filter({ hasText: 'Its edits are proposals you review in Agent Team' }).waitFor();
  await confirmation.getByRole('button', { name: 'Yes' }).click();
  log('VS Code showed the tool\u2019s confirmation; allowed');
  await page
    .locator('.notifications-toasts .notification-toast', { hasText: 'Tool result:' })
    .filter({ hasText: 'The tool run found dates in src/parser.ts:7.' })
    .waitFor({ timeout: 60_000 });
  await frame.locator('[role="treeitem"][aria-label^="researcher: Tool delegation \u2014 completed"]').waitFor();
  log('agentTeam_delegate ran the researcher; its answer came back to the calling extension');
}

/** VS Code may ask once whether Agent Team may use another extension's model; the user allows it. */
async function allowLanguageModelAccessIfAsked(page, log) {
  const allow = page.locator('.monaco-dialog-box').getByRole('button', { name: /^Allow/ });
  try {
    await allow.first().waitFor({ state: 'visible', timeout: 3000 });
  } catch {
    return;
  }
  log('VS Code asked to allow the model: allowing');
  await allow.first().click();
}
