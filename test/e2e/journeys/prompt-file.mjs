// Journey: a prompt file as a chat command. The workspace has .github/prompts/fix.prompt.md (a model
// of its own in its front matter, $ARGUMENTS in its body); "@team /fix <args>" in the Chat view runs it:
// the coordinator's request carries the prompt with the arguments put in, on the prompt file's model, the
// answer appears in the chat, and the run is in the sidebar under the command the user typed.
import { agentOf } from '../lib/mock-provider.mjs';
import { assert, assertEqual } from '../lib/wait.mjs';
import { runCommand } from '../tooling/browser.mjs';
import { openSidebar, taskRow } from '../lib/workbench.mjs';

export const name = 'prompt-file';
export const title = '@team /fix runs .github/prompts/fix.prompt.md: its arguments put in, its model used, the run in the chat and the sidebar';

const fixPrompt = '---\ndescription: Fix a bug the user names\nmodel: mock-fix-model\n---\nFix this bug: $ARGUMENTS.\nPropose the smallest change.\n';
const typed = '/fix the parser accepts invalid dates';
const answer = 'Proposed a check for invalid dates in src/parser.ts.';

export async function run({ open, mock, log }) {
  const session = await open({
    files: { '.github/prompts/fix.prompt.md': fixPrompt },
    // The Chat view needs a model of VS Code's to open its input (the test-only one); the team itself runs
    // on the mock provider of the settings.
    settings: (server) => ({ 'chat.disableAIFeatures': false, 'mockLanguageModel.baseUrl': server.openaiBaseUrl }),
  });
  const { page, server } = session;
  server.respondWith((request) => (agentOf(request) === 'coordinator' ? mock.textTurn(answer) : mock.textTurn('ok')));

  const frame = await openSidebar(page);
  await runCommand(page, 'Chat: Open Chat');
  await page.locator('.interactive-input-part').first().waitFor({ state: 'visible' });
  await page.locator('.interactive-input-part .monaco-editor.focused').first().waitFor();
  await page.keyboard.type(`@team ${typed}`);
  // The send button, not Enter: Enter could accept an entry of the slash-command list instead of sending.
  await page.locator('.interactive-input-part a.action-label[aria-label^="Send"]').first().click();
  const response = page.locator('.interactive-item-container.interactive-response').last();
  await response.filter({ hasText: answer }).waitFor({ timeout: 60_000 });
  log('@team /fix answered in the chat');

  const coordinator = server.requests.filter((request) => agentOf(request) === 'coordinator');
  assertEqual(coordinator.length, 1, 'one coordinator request');
  assertEqual(coordinator[0].model, 'mock-fix-model', 'the prompt file\u2019s model');
  assert(coordinator[0].lastMessageText.includes('Fix this bug: the parser accepts invalid dates.\nPropose the smallest change.'), `the prompt with its arguments: ${coordinator[0].lastMessageText.slice(0, 300)}`);
  assert(!coordinator[0].lastMessageText.includes('$ARGUMENTS'), 'no placeholder left');
  log('the coordinator got the prompt file with its arguments, on its model');

  await taskRow(frame, 'coordinator', typed, 'completed').waitFor();
  log('the run is in the sidebar under the command typed');
}
