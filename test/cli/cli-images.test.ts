/**
 * `--image` through the real CLI bundle and both SDKs against the mock provider: the image reaches the
 * agent the user talks to as an image part in each provider's own form (its bytes intact), and not its
 * subagents; a model that reads no images gets a note instead; what is not an image, too large, or too
 * many is a usage error before any model is asked.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { maxImageBytes, maxImagesPerPrompt } from '../../src/engine/model/image-parts.js';
import { type MockProtocol, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'app.css': 'button { color: red; }\n' });
let pictures: string;
/** A PNG's signature and header chunk, then bytes that vary, so the test can see they arrive intact. */
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]),
  Buffer.from('pixels:0123456789'),
]);

beforeEach(async () => {
  pictures = await mkdtemp(path.join(tmpdir(), 'agent-team-pictures-'));
  await writeFile(path.join(pictures, 'screenshot.png'), png);
});

afterEach(async () => {
  await rm(pictures, { recursive: true, force: true });
});

function run(protocol: MockProtocol, args: string[]) {
  const provider = providerEnvironment(protocol, world.server.baseUrl);
  return startCli(
    world.cliPath,
    ['run', '--json', '--workspace', world.workspace, ...provider.args, ...args, 'Why is the button red?'],
    provider.env,
  ).exited;
}

describe.each<MockProtocol>(['anthropic', 'openai'])('--image (%s)', (protocol) => {
  it('sends the image to the coordinator in the provider\u2019s form, and not to its subagents', async () => {
    world.server.respondWith((request) => {
      if (agentOf(request) === 'researcher') return textTurn('app.css sets it.');
      return priorTurns(request) === 0
        ? toolCallTurn([
            {
              name: 'Agent',
              input: { subagent_type: 'researcher', description: 'Find the style', prompt: 'Which rule makes the button red?' },
            },
          ])
        : textTurn('app.css makes it red.');
    });
    const model = protocol === 'openai' ? ['--model', 'gpt-4.1'] : [];
    const { code, stderr, stdout } = await run(protocol, [...model, '--image', path.join(pictures, 'screenshot.png')]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(parseEvents(stdout).at(-1)?.output).toBe('app.css makes it red.');
    const coordinator = world.server.requests.filter((request) => agentOf(request) === 'coordinator');
    expect(coordinator[0]!.images).toEqual([{ mediaType: 'image/png', bytes: png }]);
    expect(coordinator[0]!.lastMessageText).toContain(
      'The user attached an image with this message: screenshot.png (image/png, 1 KB). Subagents do not see it',
    );
    // The whole conversation goes again with the next turn; the subagent gets words only.
    expect(coordinator[1]!.images).toHaveLength(1);
    expect(
      world.server.requests.filter((request) => agentOf(request) === 'researcher').every((request) => request.images.length === 0),
    ).toBe(true);
  });
});

describe('--image where it cannot be sent', () => {
  it('tells a model that reads no images of the image instead, and the user', async () => {
    world.server.respondWith(() => textTurn('I cannot see it.'));
    const trace = path.join(pictures, 'trace.json');
    const { code } = await run('openai', [
      '--model',
      'my-local-coder',
      '--agent',
      'researcher',
      '--trace',
      trace,
      '--image',
      path.join(pictures, 'screenshot.png'),
    ]);
    expect(code).toBe(0);
    expect(world.server.requests[0]!.images).toEqual([]);
    expect(world.server.requests[0]!.lastMessageText).toContain(
      '[The user attached the image screenshot.png (image/png, 1 KB), but the model in use (openai/my-local-coder) does not accept images',
    );
    // The user reads it in the trace (and the detail view); the task's prompt names the image.
    const traced = await readFile(trace, 'utf8');
    expect(traced).toContain(
      'The model openai/my-local-coder does not accept images: the image was not sent; the agent was told of it instead.',
    );
    expect(traced).toContain('[Images attached: screenshot.png (image/png, 1 KB)]');
  });

  it('refuses what is not an image, is too large, or too many, before any model is asked', async () => {
    await writeFile(path.join(pictures, 'notes.png'), 'just text\n');
    await writeFile(path.join(pictures, 'huge.png'), Buffer.concat([png, Buffer.alloc(maxImageBytes)]));
    const cases: Array<[string[], string]> = [
      [['--image', path.join(pictures, 'notes.png')], 'notes.png: it is not a PNG, JPEG, GIF or WebP image'],
      [['--image', path.join(pictures, 'huge.png')], 'huge.png: it is 5.0 MB; images are sent up to 5 MB'],
      [['--image', path.join(pictures, 'missing.png')], 'missing.png: no such file'],
      [['--image', pictures], ': not a regular file'],
      [
        Array.from({ length: maxImagesPerPrompt + 1 }, () => ['--image', path.join(pictures, 'screenshot.png')]).flat(),
        `at most ${maxImagesPerPrompt} images go with one prompt`,
      ],
      [['--plan', '--image', path.join(pictures, 'screenshot.png')], '--image goes to the agent you talk to'],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await run('anthropic', args);
      expect(code).toBe(2);
      expect(stderr).toContain(message);
    }
    expect(world.server.requests).toHaveLength(0);
  });
});
