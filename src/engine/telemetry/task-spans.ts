/**
 * Spans from the task manager's events, as OpenTelemetry's GenAI conventions name them: `invoke_agent
 * {role}` for each task, nested as the tree is; `execute_tool {tool}` for each tool call, from its call to
 * its result. Usage, cost and how the task ended are set when it ends.
 */
import { type Context, context, type Span, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { redactKnownSecrets, secretValues } from '../secrets.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { TaskEvent, TaskSnapshot } from '../tasks/types.js';

/** Captured content longer than this is cut (a span is not a log). */
export const maxCapturedCharacters = 16_384;

export class TaskSpans {
  private readonly agents = new Map<string, Span>();
  private readonly tools = new Map<string, Span>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly tracer: Tracer,
    taskManager: TaskManager,
    private readonly options: { captureContent: boolean; secrets(): readonly string[] },
  ) {
    this.unsubscribe = taskManager.onEvent((event) => this.accept(event));
  }

  /** The context a task's own spans (its model requests) start in: under its `invoke_agent` span. */
  contextOf(taskId: string): () => Context {
    return () => {
      const span = this.agents.get(taskId);
      return span ? trace.setSpan(context.active(), span) : context.active();
    };
  }

  redact(text: string): string {
    const clean = redactKnownSecrets(text, secretValues(this.options.secrets()));
    return clean.length > maxCapturedCharacters ? `${clean.slice(0, maxCapturedCharacters)}[cut]` : clean;
  }

  /** Ends every span still open (the process is going away): they say they were cut short. */
  endAll(): void {
    this.unsubscribe();
    for (const span of [...this.tools.values(), ...this.agents.values()]) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'ended before its task: the process shut down' });
      span.end();
    }
    this.tools.clear();
    this.agents.clear();
  }

  private accept(event: TaskEvent): void {
    if (event.type === 'task-start') this.startAgent(event.task);
    else if (event.type === 'task-end') this.endAgent(event.task);
    else if (event.type === 'task-transcript') {
      const entry = event.entry;
      if (entry.type === 'tool-call') this.startTool(event.taskId, entry.toolCallId, entry.toolName, entry.input);
      else if (entry.type === 'tool-result') this.endTool(event.taskId, entry.toolCallId, entry.output, entry.isError);
    }
  }

  private startAgent(task: TaskSnapshot): void {
    const parent = task.parentId === null ? undefined : this.agents.get(task.parentId);
    const parentContext = parent ? trace.setSpan(context.active(), parent) : context.active();
    const span = this.tracer.startSpan(
      `invoke_agent ${task.role}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.agent.name': task.role,
          'gen_ai.agent.id': task.id,
          'gen_ai.conversation.id': task.rootId,
          // A run's title is the start of the user's prompt: content, so only when the user opted in.
          ...(this.options.captureContent ? { 'gen_ai.agent.description': this.redact(task.description) } : {}),
        },
      },
      parentContext,
    );
    this.agents.set(task.id, span);
  }

  private endAgent(task: TaskSnapshot): void {
    const span = this.agents.get(task.id);
    if (!span) return;
    this.agents.delete(task.id);
    span.setAttributes({
      'gen_ai.usage.input_tokens': task.usage.inputTokens,
      'gen_ai.usage.output_tokens': task.usage.outputTokens,
      'agent_team.task.status': task.status,
      ...(task.model
        ? {
            'gen_ai.request.model': task.model.slice(task.model.indexOf('/') + 1),
            'gen_ai.provider.name': task.model.slice(0, task.model.indexOf('/')),
          }
        : {}),
      ...(task.cost && task.cost.unpricedTokens === 0 ? { 'agent_team.cost.usd': task.cost.usd } : {}),
      ...(task.stopReason ? { 'agent_team.stop_reason': task.stopReason.kind } : {}),
    });
    if (task.status === 'failed') span.setStatus({ code: SpanStatusCode.ERROR, message: this.redact(task.error ?? 'failed') });
    if (task.status === 'failed') span.setAttribute('error.type', 'task_failed');
    span.end();
  }

  private startTool(taskId: string, toolCallId: string, toolName: string, input: unknown): void {
    const parent = this.agents.get(taskId);
    if (!parent) return;
    const span = this.tracer.startSpan(
      `execute_tool ${toolName}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': toolName,
          'gen_ai.tool.call.id': toolCallId,
          'gen_ai.tool.type': 'function',
          ...(this.options.captureContent ? { 'gen_ai.tool.call.arguments': this.redact(JSON.stringify(input ?? {})) } : {}),
        },
      },
      trace.setSpan(context.active(), parent),
    );
    this.tools.set(`${taskId} ${toolCallId}`, span);
  }

  private endTool(taskId: string, toolCallId: string, output: string, isError: boolean): void {
    const key = `${taskId} ${toolCallId}`;
    const span = this.tools.get(key);
    if (!span) return;
    this.tools.delete(key);
    if (this.options.captureContent) span.setAttribute('gen_ai.tool.call.result', this.redact(output));
    if (isError) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.setAttribute('error.type', 'tool_error');
    }
    span.end();
  }
}
