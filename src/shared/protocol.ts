/**
 * The typed message protocol between the extension host and the Agent Team sidebar webview.
 *
 * Lifecycle
 * 1. The webview loads and posts `ready`. It posts it again every time it is created: the view does not
 *    retain its context while hidden, so showing the sidebar again starts a fresh webview.
 * 2. The host answers `ready` with a full snapshot (tasks, change-set summaries, setup state), in parts
 *    so that a long history shows at once: a `snapshot` with the newest delegations (whole trees, enough
 *    to fill the view), then, unless it says `complete`, `snapshot-part`s with the older ones, the last
 *    one `complete` (see protocol-snapshot.ts). The parts follow each other with nothing in between.
 *    Before `ready`, the host sends nothing; whatever happened meanwhile is in the snapshot. The host may
 *    send another snapshot at any time to resynchronise; it replaces everything the webview holds.
 * 3. Then incremental messages: `task-upsert`, `task-removed`, `history-cleared`, `change-summary`,
 *    `checks` (right after the snapshot: every run's),
 *    `setup-state`, and, for the task the webview has selected, `task-detail`, `transcript` and
 *    `text-delta`.
 * 4. The webview posts `select-task` when the user selects a task (and after a snapshot, for a selection
 *    it restored). The host replies with the task's `task-detail` (its prompt and output, which the tree's
 *    tasks leave out), the stored transcript as one `transcript` message from index 0, then, if it keeps
 *    it, the current turn's streamed text as one `text-delta`; then live appends, and a new `task-detail`
 *    whenever the output changes. `select-task` with `taskId: null` means nothing is selected: the host
 *    stops sending details and transcripts.
 *
 * Rules
 * - Both sides validate every message on receipt (`parseHostMessage`, `parseWebviewMessage`) and drop,
 *   with a log line, anything malformed or unknown. Nothing acts on an unvalidated message.
 * - Every object is strict: unknown keys are rejected. There is no field for an API key or any other
 *   secret anywhere in this protocol, and the strict schemas make sure one cannot be added by accident
 *   (the webview never learns more than `setup.modelConfigured`).
 * - No request/reply pairs: every action the webview asks for comes back, if at all, as a state update
 *   (`task-upsert`, `change-summary`, …). So no promise can wait forever on a lost reply.
 * - The webview never sends a URL, a command argument or a path the host acts on blindly: `open-link`
 *   is confirmed by the user, `run-command` names one of `allowedCommands` and carries no arguments (the
 *   host supplies them, e.g. its own walkthrough id), `use-local-server` carries no URL (the host uses the
 *   one it detected), and `accept-file`/`reject-file` paths must be files of that task's change set.
 */
// A namespace import lets the bundler drop zod's unused locales (the webview bundle shrinks by ~370 KB).
import * as z from 'zod';
import { protocolDataSchemas } from './protocol-data.js';
import { protocolChecksSchemas } from './protocol-checks.js';

export * from './protocol-data.js';
export * from './protocol-checks.js';

// The message schemas are built on their first use, not when this module loads: the host only ever parses
// webview messages and the webview host messages, and neither side pays at its start for the other's (B5).
const identifier = () => z.string().min(1).max(200);
/** Milliseconds since the epoch on the host's clock; lets the webview correct for a remote host's clock. */
const hostNow = () => z.number().nonnegative();

// ---------------------------------------------------------------------------------------------------
// Host → webview

function buildHostMessageSchema() {
  const { changeSummarySchema, setupStateSchema, taskDetailSchema, taskSchema, transcriptEntrySchema } = protocolDataSchemas();
  const { runChecksSchema } = protocolChecksSchemas();
  return z.discriminatedUnion('type', [
    /**
     * Everything, replacing what the webview holds; the answer to `ready`. `complete: false`: more tasks of
     * this snapshot follow in `snapshot-part`s. Until the last part, a restored selection, collapsed rows
     * and scroll position may refer to tasks still to come, so the webview keeps them.
     */
    z.strictObject({
      type: z.literal('snapshot'),
      now: hostNow(),
      tasks: z.array(taskSchema),
      changes: z.array(changeSummarySchema),
      setup: setupStateSchema,
      complete: z.boolean(),
    }),
    /** More tasks of the last `snapshot`, added to it; `complete: true` on the last part. */
    z.strictObject({ type: z.literal('snapshot-part'), now: hostNow(), tasks: z.array(taskSchema), complete: z.boolean() }),
    /** New or changed tasks, batched: send the latest snapshot of each task that changed since the last. */
    z.strictObject({ type: z.literal('task-upsert'), now: hostNow(), tasks: z.array(taskSchema) }),
    /** Tasks deleted from the history. Their descendants should be listed too. */
    z.strictObject({ type: z.literal('task-removed'), taskIds: z.array(identifier()) }),
    /** The history was cleared: every task except `keptTaskIds` (those still running, say) is gone. */
    z.strictObject({ type: z.literal('history-cleared'), keptTaskIds: z.array(identifier()) }),
    /** The selected task's prompt and output, which the tasks in the tree leave out. */
    taskDetailSchema.extend({ type: z.literal('task-detail') }),
    /** Streamed text of the selected task's current model turn; cleared by its next `transcript` entry. */
    z.strictObject({ type: z.literal('text-delta'), taskId: identifier(), text: z.string() }),
    /**
     * Transcript entries of the selected task: `entries[i]` is the entry at position `index + i`. Index 0
     * replaces the whole transcript. An index past what the webview holds is a gap: the webview re-sends
     * `select-task` to get the stored transcript again.
     */
    z.strictObject({
      type: z.literal('transcript'),
      taskId: identifier(),
      index: z.number().int().nonnegative(),
      entries: z.array(transcriptEntrySchema),
    }),
    /** Changed change-set summaries; a summary with no files removes the task's change set. */
    z.strictObject({ type: z.literal('change-summary'), summaries: z.array(changeSummarySchema) }),
    z.strictObject({ type: z.literal('setup-state'), setup: setupStateSchema }),
    /**
     * Select a task, expand its ancestors and scroll it into view (e.g. for `agentTeam.showTask`). The
     * webview then posts `select-task` as if the user had selected it.
     */
    z.strictObject({ type: z.literal('reveal-task'), taskId: identifier() }),
    /**
     * What the user wrote in a task's composer reached it: as the answer to its question, as a message for
     * its next turn, or (a finished run) as a follow-up started under it.
     */
    z.strictObject({ type: z.literal('message-sent'), taskId: identifier(), outcome: z.enum(['answered', 'delivered', 'follow-up']) }),
    /** The checks of runs (running, or their verdict), replacing what the webview holds for each; after a snapshot, all of them. */
    z.strictObject({ type: z.literal('checks'), runs: z.array(runChecksSchema) }),
  ]);
}

export type HostMessage = z.infer<ReturnType<typeof buildHostMessageSchema>>;
export type HostMessageType = HostMessage['type'];
export type HostMessageOf<Type extends HostMessageType> = Extract<HostMessage, { type: Type }>;

// ---------------------------------------------------------------------------------------------------
// Webview → host

/**
 * The only commands the webview may ask the host to run, always without arguments.
 * - `workbench.action.openWalkthrough`: the host opens the extension's own setup walkthrough.
 * - `workbench.trust.manage`: the Workspace Trust editor, to leave Restricted Mode.
 */
export const allowedCommands = [
  'agentTeam.setApiKey',
  'agentTeam.selectModel',
  'agentTeam.delegate',
  'agentTeam.stopAll',
  'agentTeam.clearHistory',
  'workbench.action.openWalkthrough',
  'workbench.trust.manage',
] as const;

export type AllowedCommand = (typeof allowedCommands)[number];

/** Links the webview may offer to open; anything else in model output is shown as plain text. */
export const linkProtocols: readonly string[] = ['http:', 'https:'];

export function isAllowedLink(url: string): boolean {
  try {
    return linkProtocols.includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

const taskAction = <Type extends string>(type: Type) => z.strictObject({ type: z.literal(type), taskId: identifier() });

const buildWebviewMessageSchema = () =>
  z.discriminatedUnion('type', [
    /** The webview has loaded and wants a `snapshot`. */
    z.strictObject({ type: z.literal('ready') }),
    /** The user selected a task (null: nothing selected). The host answers with its detail and transcript. */
    z.strictObject({ type: z.literal('select-task'), taskId: identifier().nullable() }),
    /** Stop a task; the host stops its whole subtree. */
    taskAction('stop-task'),
    /** Resume an interrupted run (`taskId`: its root); the host runs `agentTeam.resumeRun`. */
    taskAction('resume-run'),
    /** Open the task's change set for review (diff editors). */
    taskAction('review-changes'),
    /** Run the checks on the run's proposals again (`taskId`: its root); the host runs `agentTeam.runChecks`. */
    taskAction('run-checks'),
    z.strictObject({ type: z.literal('accept-file'), taskId: identifier(), path: z.string().min(1) }),
    z.strictObject({ type: z.literal('reject-file'), taskId: identifier(), path: z.string().min(1) }),
    /** Undo Accepted Changes of one accepted file (or, `undone`, undo that undo). */
    z.strictObject({ type: z.literal('undo-file'), taskId: identifier(), path: z.string().min(1) }),
    /** Open the diff of one proposed file (a file of that task's change set, or the host says there is none). */
    z.strictObject({ type: z.literal('open-diff'), taskId: identifier(), path: z.string().min(1).max(4096) }),
    /** Start a delegation: the host runs `agentTeam.delegate` (its input box). */
    z.strictObject({ type: z.literal('delegate') }),
    /** Use the OpenAI-compatible server the host detected (`setup.localServerUrl`). */
    z.strictObject({ type: z.literal('use-local-server') }),
    /** Use the model VS Code offers (`setup.languageModel`): provider `vscode-lm`. */
    z.strictObject({ type: z.literal('use-language-model') }),
    /** A link the user clicked in model output. The host asks the user before opening it. */
    z.strictObject({
      type: z.literal('open-link'),
      url: z.string().max(8192).refine(isAllowedLink, { message: 'only http and https links' }),
    }),
    z.strictObject({ type: z.literal('run-command'), command: z.enum(allowedCommands) }),
    /**
     * What the user wrote in a task's composer: the answer to the question the task waits on, a message it
     * reads at its next turn, or, for a finished run's root, a follow-up.
     */
    z.strictObject({ type: z.literal('send-message'), taskId: identifier(), text: z.string().trim().min(1).max(20_000) }),
    /** The user ends the chat a chat-mode task waits in: the task ends with the agent's last answer. */
    taskAction('end-chat'),
    /**
     * The user's decision on the command a task waits to run (`Bash`): once, always for this workspace
     * (the exact command), or not at all.
     */
    z.strictObject({ type: z.literal('approve-command'), taskId: identifier(), decision: z.enum(['once', 'always', 'deny']) }),
    /** Clear the finished tasks from the history (the host may ask for confirmation). */
    z.strictObject({ type: z.literal('clear-history') }),
    /** Something went wrong in the webview; for the host's output channel. */
    z.strictObject({ type: z.literal('log'), level: z.enum(['warn', 'error']), message: z.string().max(4000) }),
  ]);

export type WebviewMessage = z.infer<ReturnType<typeof buildWebviewMessageSchema>>;
export type WebviewMessageType = WebviewMessage['type'];
export type WebviewMessageOf<Type extends WebviewMessageType> = Extract<WebviewMessage, { type: Type }>;

// ---------------------------------------------------------------------------------------------------
// Validation on receipt

/** Either a valid message, or `undefined` with a reason for the log (never the message's content). */
export type ParseResult<Message> = { message: Message; reason?: undefined } | { message: undefined; reason: string };

let hostMessageSchema: z.ZodType<HostMessage> | undefined;
let webviewMessageSchema: z.ZodType<WebviewMessage> | undefined;

export function parseHostMessage(value: unknown): ParseResult<HostMessage> {
  return parseWith((hostMessageSchema ??= buildHostMessageSchema()), value);
}

/**
 * Builds the schema `parseHostMessage` checks with, ahead of the first message. The webview calls it right
 * after posting `ready`, so the build overlaps the host's making of the first snapshot instead of delaying
 * its first render.
 */
export function prepareHostMessageParsing(): void {
  hostMessageSchema ??= buildHostMessageSchema();
}

export function parseWebviewMessage(value: unknown): ParseResult<WebviewMessage> {
  return parseWith((webviewMessageSchema ??= buildWebviewMessageSchema()), value);
}

const maxIssuesInReason = 3;

function parseWith<Message>(schema: z.ZodType<Message>, value: unknown): ParseResult<Message> {
  const result = schema.safeParse(value);
  if (result.success) return { message: result.data };
  const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
  const label = typeof type === 'string' ? `message "${type.slice(0, 60)}"` : 'message without a type';
  const issues = result.error.issues
    .slice(0, maxIssuesInReason)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`);
  const more = result.error.issues.length > maxIssuesInReason ? ` (+${result.error.issues.length - maxIssuesInReason} more)` : '';
  return { message: undefined, reason: `dropped ${label}: ${issues.join('; ')}${more}` };
}

// ---------------------------------------------------------------------------------------------------
// Posting from the webview

/**
 * What the webview posts through and keeps its UI state in. In the browser this wraps
 * `acquireVsCodeApi()` (src/webview/vscode-api.ts); tests inject a recorder.
 */
export interface WebviewApi {
  postMessage(message: WebviewMessage): void;
  /** The state last saved with `setState` in this webview's lifetime or a previous one, if any. */
  getState(): unknown;
  setState(state: unknown): void;
}
