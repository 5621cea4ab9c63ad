/** The errors brought into the AgentTeamError family keep the names and messages users saw before. */
import { describe, expect, it } from 'vitest';
import { ApplyRefusedError } from '../../src/cli/apply-checks-gate.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { GitError } from '../../src/engine/commands/git-runner.js';
import { AgentTeamError } from '../../src/engine/errors.js';
import { UnneutralisableGitConfigError } from '../../src/engine/git/neutral-git-config.js';
import { RedirectRefused } from '../../src/engine/model/redirect-refused.js';
import { ResponseTimeout } from '../../src/engine/model/response-timeout.js';
import { UnsafeFileError } from '../../src/engine/runs/json-lines-file.js';

describe('errors of the family', () => {
  it('keep their names and messages, and each has a code', () => {
    const errors: [AgentTeamError, string, string][] = [
      [new ResponseTimeout('idle', 500), 'ResponseTimeout', 'no data within 500 ms'],
      [
        new RedirectRefused(new URL('https://api.example.com/v1'), 301, undefined),
        'RedirectRefused',
        'https://api.example.com answered 301, a redirect, which is not followed',
      ],
      [
        new GitError(['status'], 128, 'fatal: not a git repository\n'),
        'GitError',
        'git status failed (exit 128): fatal: not a git repository',
      ],
      [
        new UnneutralisableGitConfigError('core.fsmonitor', ''),
        'UnneutralisableGitConfigError',
        expect.stringContaining('"core.fsmonitor"') as unknown as string,
      ],
      [new ApplyRefusedError('checks failed'), 'ApplyRefusedError', 'checks failed'],
      [new UsageError('unknown flag --x'), 'UsageError', 'unknown flag --x'],
    ];
    for (const [error, name, message] of errors) {
      expect(error).toBeInstanceOf(AgentTeamError);
      expect(error).toMatchObject({ name, message });
      expect(error.code).toMatch(/^[a-z-]+$/);
    }
  });

  it("an unsafe file's code still says which kind it is", () => {
    expect(new UnsafeFileError('/tmp/log', 'link')).toMatchObject({
      code: 'link',
      message: '/tmp/log is a symbolic link; it is neither read nor written through',
    });
  });
});
