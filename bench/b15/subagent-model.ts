/**
 * B15's subagents: a model that streams each turn in chunks about `gapMs` apart, as a provider does, and decides
 * what to do from the request alone (the turn is the number of assistant messages so far; the subagent's
 * number is in its prompt), so one instance serves 50 tasks at once. Researchers stream, `Read` a small
 * file, stream again and answer. Refactorers stream, propose two `Edit`s to the big file (each edit
 * diffs the whole file), then answer.
 */
import type { Model, ModelRequest, ModelStreamEvent } from '../../src/engine/model/types.js';
import { bigFileLine } from './history-fixture.js';

export const bigFilePath = 'src/generated.ts';

/** The prompt of subagent `index`; the model reads the number back. */
export function subagentPrompt(index: number, role: 'researcher' | 'refactorer'): string {
  return role === 'researcher'
    ? `Read notes.txt and report what it says (subagent ${index}).`
    : `Rename two values in ${bigFilePath} (subagent ${index}).`;
}

function subagentIndexOf(request: ModelRequest): number {
  const first = request.messages[0];
  const prompt = first?.role === 'user' ? first.content.map((part) => (part.type === 'text' ? part.text : '')).join('') : '';
  const match = /\(subagent (\d+)\)/.exec(prompt);
  if (!match) throw new Error(`B15's subagent model got a prompt it did not write: ${prompt.slice(0, 80)}`);
  return Number(match[1]);
}

/**
 * 0.5-1.5, the same for the same arguments: providers' chunks do not arrive in step, so neither do these
 * (in step, 50 subagents' chunks would all come due in the same timer pass, a pattern no network gives).
 */
function spread(index: number, turn: number, chunk: number): number {
  let hash = (index * 73856093) ^ (turn * 19349663) ^ (chunk * 83492791);
  hash = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b);
  hash ^= hash >>> 16;
  return 0.5 + (hash >>> 0) / 0x1_0000_0000;
}

export interface StreamShape {
  /** Chunks per turn. */
  chunks: number;
  gapMs: number;
  /** Lines of the big file (edits name lines inside it). */
  bigFileLines: number;
}

export class SubagentModel implements Model {
  readonly provider = 'scripted';
  readonly modelId = 'b15-subagent';
  /** Chunks streamed so far, all subagents together. */
  chunksStreamed = 0;

  constructor(
    private readonly role: 'researcher' | 'refactorer',
    private readonly shape: StreamShape,
  ) {}

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    const index = subagentIndexOf(request);
    const turn = request.messages.filter((message) => message.role === 'assistant').length;
    for (let chunk = 0; chunk < this.shape.chunks; chunk++) {
      await new Promise((resolve) => setTimeout(resolve, this.shape.gapMs * spread(index, turn, chunk)));
      if (request.signal.aborted) throw new Error('stopped');
      this.chunksStreamed++;
      yield { type: 'text-delta', text: `Subagent ${index}, turn ${turn}: a few more words of the answer (${chunk}). ` };
    }
    const call = this.toolCallOf(index, turn);
    yield { type: 'usage', usage: { inputTokens: 1000, outputTokens: this.shape.chunks * 12 } };
    if (call) {
      yield {
        type: 'tool-call',
        toolCallId: `s${index}-t${turn}`,
        toolName: call.toolName,
        input: call.input,
        rawInput: JSON.stringify(call.input),
      };
      yield { type: 'finish', stopReason: 'tool-use' };
    } else {
      yield { type: 'finish', stopReason: 'end-turn' };
    }
  }

  private toolCallOf(index: number, turn: number): { toolName: string; input: unknown } | undefined {
    if (this.role === 'researcher') return turn === 0 ? { toolName: 'Read', input: { file_path: 'notes.txt' } } : undefined;
    if (turn > 1) return undefined;
    // Lines spread over the file, a different one per subagent and turn: every edit diffs the whole file.
    const line = Math.floor(((index * 2 + turn + 1) * this.shape.bigFileLines) / 211) % this.shape.bigFileLines;
    const old = bigFileLine(line);
    return {
      toolName: 'Edit',
      input: { file_path: bigFilePath, old_string: old, new_string: old.replace(`value${line} `, `renamedValue${line} `) },
    };
  }
}
