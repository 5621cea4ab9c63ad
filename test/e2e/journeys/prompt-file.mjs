// Journey: a prompt file as a chat command. The workspace has .github/prompts/fix.prompt.md ($ARGUMENTS
// in its body, `agent: ask` in its front matter). "@team /fix <args>" in the Chat view runs the file: the
// researcher (what `ask` means) gets the prompt with the arguments put in, and not VS Code's own
// attachment of the file; the answer appears in the chat, and the run is in the sidebar under the command
// the user typed. (No `model` here: VS Code, which reads .github/prompts itself, does not send a request
// whose prompt file names one, whatever the name; a prompt file's model is proved through the CLI and
// test/extension/chat-prompt-files.test.ts.)
import { agentOf } from '../lib/mock-provider.mjs';
import { assert, assertEqual } from '../lib/wait.mjs';
import { runCommand } from '../tooling/browser.mjs';
import { openSidebar, taskRow } from '../lib/workbench.mjs';

export const name = 'prompt-file';
export const title =
  '@team /fix runs .github/prompts/fix.prompt.md: its arguments put in, by the role its agent names, the run in the chat and the sidebar';

const fixPrompt = '---\ndescription: Fix a bug the user names\nagent: ask\n---\nFix this bug: $ARGUMENTS.\nPropose the smallest change.\n';
const typed = '/fix the parser accepts invalid dates';
const answer = 'Proposed a check for invalid dates in src/parser.ts.';

/** VS Code's API has no system role: through its model the instruction arrives as the first user message. */
function agentOfRequest(request) {
  const first = request.body?.messages?.[0];
  return agentOf({ system: request.system || (typeof first?.content === 'string' ? first.content : '') });
}

export async function run({ open, mock, log }) {
  const session = await open({
    files: { '.github/prompts/fix.prompt.md': fixPrompt },
    settings: (server) => ({ 'chat.disableAIFeatures': false, 'mockLanguageModel.baseUrl': server.openaiBaseUrl }),
  });
  const { page, server } = session;
  server.respondWith((request) => (agentOfRequest(request) === 'researcher' ? mock.textTurn(answer) : mock.textTurn('ok')));

  const frame = await openSidebar(page);
  await runCommand(page, 'Chat: Open Chat');
  await page.locator('.interactive-input-part').first().waitFor({ state: 'visible' });
  await page.locator('.interactive-input-part .monaco-editor.focused').first().waitFor();
  await page.keyboard.type(`@team ${typed}`);
  // The send button, not Enter: Enter could accept an entry of the slash-command list instead of sending.
  await page.keyboard.press('Escape');
  await page.locator('.interactive-input-part a.action-label[aria-label^="Send"]').first().click();
  const response = page.locator('.interactive-item-container.interactive-response').last();
  await response.filter({ hasText: answer }).waitFor({ timeout: 60_000 });
  log('@team /fix answered in the chat');

  const researcher = server.requests.filter((request) => agentOfRequest(request) === 'researcher');
  assertEqual(researcher.length, 1, 'one researcher request (agent: ask), no other agent');
  assertEqual(server.requests.length, 1, 'nothing else asked the model');
  assertEqual(researcher[0].model, 'mock-model', 'the settings\u2019 model');
  const sent = JSON.stringify(researcher[0].body.messages);
  assert(
    sent.includes('Fix this bug: the parser accepts invalid dates.\\nPropose the smallest change.'),
    `the prompt with its arguments: ${sent.slice(0, 600)}`,
  );
  assert(!sent.includes('$ARGUMENTS'), 'no placeholder left');
  assert(
    !sent.includes('fix.prompt.md'),
    `VS Code's attachment of the prompt file is not passed on as a file to read: ${sent.slice(0, 600)}`,
  );
  log('the researcher got the prompt file with its arguments');

  await taskRow(frame, 'researcher', typed, 'completed').waitFor();
  log('the run is in the sidebar under the command typed');
}
