/** A tool that ends the run (`Tool.endsRun`): the loop hands back the call, no holder kept anywhere. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/engine/agent/tool.js';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { echoTool, run } from './support.js';

const { text, toolCall } = ScriptedModel;

function finishTool() {
  return defineTool({
    name: 'Finish',
    description: 'Ends the run with its result.',
    inputSchema: z.object({ result: z.string().min(1) }),
    readOnly: true,
    execute: async () => 'Finished.',
    endsRun: (input) => `the result: ${input.result}`,
  });
}

describe('a tool that ends the run', () => {
  it('ends it once its turn is done: completed, with the output it gives and the call as endedBy', async () => {
    const model = new ScriptedModel([[toolCall('Echo', { text: 'a' }, 'c1'), toolCall('Finish', { result: 'done' }, 'c2')], 'never asked']);
    const result = await run(model, { tools: [echoTool(), finishTool()] });
    expect(result).toMatchObject({
      status: 'completed',
      output: 'the result: done',
      turns: 1,
      endedBy: { toolName: 'Finish', input: { result: 'done' } },
    });
    expect(model.calls).toHaveLength(1);
    // Every call of the turn still has its result in the conversation, so it can be continued.
    expect(result.messages.at(-1)?.content.map((part) => (part.type === 'tool-result' ? part.output : ''))).toEqual([
      'echo: a',
      'Finished.',
    ]);
    // The transcript carries what the sidebar's schema knows, nothing of the ending.
    expect(result.transcript.filter((entry) => entry.type === 'tool-result').every((entry) => !('ending' in entry))).toBe(true);
  });

  it('does not end it when the call fails its schema: the model hears why and goes on', async () => {
    const model = new ScriptedModel([
      [toolCall('Finish', { result: '' }, 'c1')],
      [text('Sorry.'), toolCall('Finish', { result: 'ok' }, 'c2')],
    ]);
    const result = await run(model, { tools: [finishTool()] });
    expect(result).toMatchObject({
      status: 'completed',
      output: 'the result: ok',
      turns: 2,
      endedBy: { toolName: 'Finish', input: { result: 'ok' } },
    });
  });

  it('leaves endedBy unset for a run that ends with an answer', async () => {
    const result = await run(new ScriptedModel(['Just an answer.']), { tools: [finishTool()] });
    expect(result.status).toBe('completed');
    expect(result.endedBy).toBeUndefined();
  });
});
