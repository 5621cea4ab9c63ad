import type { Clock } from '../clock.js';
import type { StopReason } from '../errors.js';
import type { Model, ModelMessage, Usage } from '../model/types.js';
import type { StopCondition } from './stop-conditions.js';
import type { Tool } from './tool.js';
import type { AgentContextOptions, CompactionTrigger } from './compaction/context-options.js';
import type { TranscriptEntry } from './transcript-entry.js';

export type { TranscriptEntry } from './transcript-entry.js';

/** Live events of one run, in order. `text-delta`s stream; the others mark finished steps. */
export type AgentEvent =
  | { type: 'turn-start'; turn: number }
  | { type: 'text-delta'; text: string }
  | { type: 'transcript'; entry: TranscriptEntry }
  | { type: 'usage'; usage: Usage; total: Usage }
  /** The run goes on with another model (`provider/modelId`) after an outage; a notice says so. */
  | { type: 'model-switch'; model: string }
  /**
   * The conversation so far, at each boundary where it is whole: before a model request, after the
   * model's answer is added, and at the end. For keeping (the run log); the list is the run's own, so
   * a listener that keeps it must copy what it needs before the run goes on.
   */
  | { type: 'conversation'; messages: readonly ModelMessage[] }
  /** How full the context window is: the last request's input tokens as the provider counted them (or estimated after a compaction). */
  | { type: 'context'; usedTokens: number; windowTokens?: number }
  /** The conversation was compacted; a `conversation` event with the new one follows. */
  | CompactionEvent;

/** A compaction: the estimated size of the next request before and after, the summary, and why it happened. */
export interface CompactionEvent {
  type: 'compaction';
  beforeTokens: number;
  afterTokens: number;
  summary: string;
  trigger: CompactionTrigger;
}

export interface AgentRunOptions {
  model: Model;
  system: string;
  /** The task, or a whole conversation to continue. */
  prompt: string | ModelMessage[];
  tools: Tool[];
  /** Model turns at most; then the run ends with what it has and says so. Default 50. */
  maxTurns?: number;
  /** Passed to the model each turn. Default: the model adapter's. */
  maxOutputTokens?: number;
  /**
   * A tool call past this becomes an error result. Default 120,000 ms; a tool's own `timeoutMs` wins.
   * 0 or Infinity: no timeout.
   */
  toolTimeoutMs?: number;
  /**
   * Tool calls run per turn; the calls past it each get an error result naming the limit (every call still
   * gets exactly one result). Default 16. 0 or Infinity: no limit.
   */
  maxToolCallsPerTurn?: number;
  /**
   * A tool result longer than this many UTF-8 bytes is cut to it, ending in a note that says so. Default
   * 65,536 (64 KiB). 0 or Infinity: no limit.
   */
  maxToolResultBytes?: number;
  /**
   * All tool results in the conversation together: past this many bytes, the oldest are replaced by a note
   * until they fit again. Default 1,048,576 (1 MiB). 0 or Infinity: no limit.
   */
  maxConversationToolResultBytes?: number;
  /** Measures tool timeouts. Default: `systemClock`; tests pass a `ManualClock`. */
  clock?: Clock;
  /** Aborting stops the run: no further turn starts and the in-flight request is closed. */
  signal: AbortSignal;
  /**
   * The secrets to keep out of every tool result, read at each result (a key set later counts): replaced
   * where the result enters, before the transcript, the events, the history and the next request see it.
   * Default: none.
   */
  secrets?: () => readonly string[];
  onEvent?: (event: AgentEvent) => void;
  /**
   * Called before every model turn after the first; each string returned is given to the model as a
   * notice (for example "background task t3 completed"). Default: none.
   */
  takeNotices?: () => string[];
  /**
   * Called when the model answers without tool calls, with that answer: a string is the user's next
   * message and the run goes on with it (a chat); undefined ends the run with the answer. Default: none.
   */
  nextUserMessage?: (answer: string) => Promise<string | undefined>;
  /**
   * Looks at a turn's tool calls before any runs: the calls it returns (by id, with the text the model
   * gets instead) are refused, not run (a fan-out the user declined). Default: none.
   */
  reviewToolCalls?: (calls: readonly ToolCallRequest[], signal: AbortSignal) => Promise<ReadonlyMap<string, string>>;
  /**
   * Called once a turn's tool calls have all been answered, with their results: the strings it returns
   * are notices for the model's next turn (a hook's word on an edit). Default: none.
   */
  afterToolCalls?: (calls: readonly FinishedToolCall[], signal: AbortSignal) => Promise<readonly string[]>;
  /**
   * Called when the model answers without tool calls, before `nextUserMessage`: a string sends the agent
   * back to work with it as a notice (a Stop hook that did not let it finish); undefined lets the answer
   * stand. Default: none.
   */
  reviewFinish?: (answer: string, signal: AbortSignal) => Promise<string | undefined>;
  /** The context window, when the conversation is compacted, and who hears of it (compaction/). Default: no window known. */
  context?: AgentContextOptions;
  /**
   * Asked after each turn's tool calls: a string ends the run now, completed with what it has, the string
   * told to the user (a hook that said `continue: false`). Default: none.
   */
  endRequested?: () => string | undefined;
  /**
   * How the run ends or goes on: conditions asked after each step, in order, the first that holds deciding (stop-conditions.ts);
   * `reviewFinish`, `endRequested`, `nextUserMessage` are one condition each, asked after these; the turn limit last. Default: none.
   */
  stopWhen?: readonly StopCondition[];
}

/** A tool call as a turn's review sees it. */
export interface ToolCallRequest {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** A tool call and the result it got, as `afterToolCalls` sees it. */
export interface FinishedToolCall extends ToolCallRequest {
  output: string;
  isError: boolean;
}

export type AgentRunStatus = 'completed' | 'stopped' | 'failed' | 'max-turns';

export interface AgentRunResult {
  status: AgentRunStatus;
  /** The final answer; for a stopped, failed or cut-short run, the text it had produced so far. */
  output: string;
  usage: Usage;
  turns: number;
  /** The conversation including this run's turns, to continue it later. */
  messages: ModelMessage[];
  transcript: TranscriptEntry[];
  /** Why it failed, for `failed` and `max-turns`. */
  error?: string;
  /** Who stopped it, for `stopped`. */
  stopReason?: StopReason;
  /** The call of a tool that ends the run (`Tool.endsRun`), when one did: its name and parsed input. */
  endedBy?: { toolName: string; input: unknown };
}
