/**
 * Two background refactorers started in one coordinator turn, each making one edit to shapes.ts (the
 * first and the second given as the keys of `edits`), through the mock provider. Shared by the CLI tests
 * of parallel edits to one file.
 */
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, priorTurns } from './cli-harness.js';
import type { CliWorld } from './cli-world.js';

const spacer = ['', '// ---', '// spacer', '// ---', ''];
export const original = [
  'export function alpha() {',
  '  return 1;',
  '}',
  ...spacer,
  'export function middle() {',
  '  return 2;',
  '}',
  ...spacer,
  'export function omega() {',
  '  return 3;',
  '}',
  '',
].join('\n');
/** Both fitting edits (alpha's and omega's) applied. */
export const both = original.replace('return 1;', 'return 10;').replace('return 3;', 'return 30;');

export const edits = {
  alpha: { old_string: '  return 1;', new_string: '  return 10;' },
  omega: { old_string: '  return 3;', new_string: '  return 30;' },
  alphaToo: { old_string: '  return 1;', new_string: '  return 100;' },
};

/** Scripts the run; `coordinatorTexts` collects the coordinator's later requests (what it was told). */
export function scriptRefactorers(world: CliWorld, first: keyof typeof edits, second: keyof typeof edits): { coordinatorTexts: string[] } {
  const coordinatorTexts: string[] = [];
  world.server.respondWith((request) => {
    if (agentOf(request) === 'refactorer') {
      if (priorTurns(request) > 0) return textTurn('Edited.');
      const edit = JSON.stringify(request.body).includes('Change the first') ? edits[first] : edits[second];
      return toolCallTurn([{ name: 'Edit', input: { file_path: 'shapes.ts', ...edit } }]);
    }
    if (priorTurns(request) === 0) {
      return toolCallTurn([
        {
          name: 'Agent',
          input: { subagent_type: 'refactorer', description: 'First', prompt: 'Change the first function.', run_in_background: true },
        },
        {
          name: 'Agent',
          input: { subagent_type: 'refactorer', description: 'Second', prompt: 'Change the other function.', run_in_background: true },
        },
      ]);
    }
    coordinatorTexts.push(JSON.stringify(request.body));
    return textTurn('Both refactorers are done.');
  });
  return { coordinatorTexts };
}
