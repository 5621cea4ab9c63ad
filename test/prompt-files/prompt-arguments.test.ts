/** Arguments into a prompt file: $ARGUMENTS, $1..$9, ${input:…} from name=value, ${workspaceFolder}; appended when the prompt places none. */
import { describe, expect, it } from 'vitest';
import { expandPromptArguments, splitWords } from '../../src/engine/prompt-files/prompt-arguments.js';
import { slashCommandOf } from '../../src/engine/prompt-files/prompt-commands.js';
import { parsePromptFile } from '../../src/engine/prompt-files/prompt-file-definition.js';

const options = { name: 'fix', root: '/work/project' };

describe('expandPromptArguments', () => {
  it('puts in $ARGUMENTS and $1..$9 (quotes group words; an absent one is empty; $10 is not $1)', () => {
    expect(expandPromptArguments('All: $ARGUMENTS. First: $1. Second: $2. Ninth: [$9]. Cost: $10.', 'src/a.ts "two words"', options)).toBe(
      'All: src/a.ts "two words". First: src/a.ts. Second: two words. Ninth: []. Cost: $10.',
    );
  });

  it('fills ${input:name} and ${input:name:placeholder} from name=value, and refuses a missing one saying how to give it', () => {
    expect(expandPromptArguments('Form ${input:formName:MyForm} in ${input:folder}.', 'formName=Login folder="src/forms"', options)).toBe(
      'Form Login in src/forms.',
    );
    expect(() => expandPromptArguments('Form ${input:formName} in ${input:folder}.', 'folder=x', options)).toThrow(
      '/fix needs ${input:formName}: give it after the name, as formName=<value>',
    );
  });

  it('puts in the workspace folder, leaves editor variables as written, and appends arguments the prompt does not place', () => {
    expect(expandPromptArguments('In ${workspaceFolderBasename} (${workspaceFolder}), see ${file}.', 'now', options)).toBe(
      'In project (/work/project), see ${file}.\n\nARGUMENTS: now',
    );
    expect(expandPromptArguments('Just this.', '', options)).toBe('Just this.');
  });

  it('splits words as a shell would', () => {
    expect(splitWords(`a "b c" 'd e' f="g h"`)).toEqual(['a', 'b c', 'd e', 'f=g h']);
  });
});

describe('slashCommandOf and parsePromptFile', () => {
  it('takes /name and its arguments, and no path', () => {
    expect(slashCommandOf('/fix the parser')).toEqual({ name: 'fix', argumentsText: 'the parser' });
    expect(slashCommandOf('  /review\n')).toEqual({ name: 'review', argumentsText: '' });
    expect(slashCommandOf('/etc/hosts is wrong')).toBeUndefined();
    expect(slashCommandOf('fix /it')).toBeUndefined();
  });

  it('reads front matter when there is some (agent, or mode, its older name; tools or allowed-tools), the prompt alone otherwise', () => {
    const digest = 'sha256:0';
    const scope = 'workspace' as const;
    expect(
      parsePromptFile('---\ndescription: Fix\nmodel: m\nmode: ask\ntools: [Read]\n---\nDo it.', { name: 'fix', label: 'f', digest, scope }),
    ).toEqual({
      promptFile: { name: 'fix', label: 'f', scope, description: 'Fix', model: 'm', agent: 'ask', tools: ['Read'], body: 'Do it.', digest },
    });
    expect(parsePromptFile('Review $ARGUMENTS\ncarefully.', { name: 'review', label: 'r', digest, scope })).toEqual({
      promptFile: {
        name: 'review',
        label: 'r',
        scope,
        description: 'Review $ARGUMENTS carefully.',
        body: 'Review $ARGUMENTS\ncarefully.',
        digest,
      },
    });
    expect(parsePromptFile('---\nmodel: [1]\n---\nx', { name: 'x', label: 'x.md', digest, scope })).toEqual({
      problem: 'x.md was not used: its model is not text',
    });
    expect(parsePromptFile('---\ndescription: d\n---\n', { name: 'x', label: 'x.md', digest, scope })).toEqual({
      problem: 'x.md was not used: it has no prompt after its front matter',
    });
  });
});
