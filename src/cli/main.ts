/**
 * `agent-team`: the headless CLI over the same engine as the extension (contract in docs/architecture.md).
 * Exit codes: 0 completed, 1 failed, 2 usage or configuration error, 130 interrupted.
 */
import { AgentTeamError, ConfigurationError, distrustProgramsUnder } from '../engine/index.js';
import { agentsCommand } from './agents-command.js';
import { mcpServersCommand } from './mcp-servers-command.js';
import { applyCommand } from './apply-command.js';
import { undoCommand } from './undo-command.js';
import { modelsCommand } from './models-command.js';
import { commandUsage } from './command-usage.js';
import { UsageError, parseArguments, usageText } from './arguments.js';
import { exitCodes } from './exit-codes.js';
import { runCommand } from './run-command.js';
import { runsCommand } from './runs-command.js';
import { workflowsCommand } from './workflows-command.js';
import { checksCommand } from './checks-command.js';
import { mcpCommand } from './mcp-command.js';
import { serveCommand } from './serve-command.js';
import { terminalSafe } from './terminal-text.js';
import { trustCommand } from './trust-command.js';
import { canAsk, terminalTrustQuestion } from './trust-question.js';

declare const AGENT_TEAM_VERSION: string | undefined;

async function main(): Promise<number> {
  const output = { stdout: process.stdout, stderr: process.stderr };
  try {
    const args = parseArguments(process.argv.slice(2), process.cwd());
    // The folder is the repository's: git, gh and rg are never taken from a PATH entry inside it.
    if ('workspace' in args && typeof args.workspace === 'string') distrustProgramsUnder(args.workspace);
    switch (args.command) {
      case 'help':
        output.stdout.write(args.topic === undefined ? usageText : commandUsage(args.topic));
        return exitCodes.completed;
      case 'version':
        output.stdout.write(`${typeof AGENT_TEAM_VERSION === 'string' ? AGENT_TEAM_VERSION : 'dev'}\n`);
        return exitCodes.completed;
      case 'agents':
        return await agentsCommand(args, output);
      case 'mcp-servers':
        return await mcpServersCommand(args, { ...output, environment: process.env });
      case 'models':
        return await modelsCommand(args, output);
      case 'workflows':
        return await workflowsCommand(args, output);
      case 'runs':
        return await runsCommand(args, output);
      case 'checks':
        return await checksCommand(args, output);
      case 'apply':
        return await applyCommand(args, { ...output, environment: process.env, signal: stopSignal() });
      case 'undo':
        return await undoCommand(args, output);
      case 'mcp':
        return await mcpCommand(args, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, environment: process.env });
      case 'serve':
        return await serveCommand(args, { stderr: process.stderr, environment: process.env, stop: stopSignal() });
      case 'trust':
        return await trustCommand(args, {
          ...output,
          environment: process.env,
          ...(canAsk(process.stdin, process.stderr) ? { ask: terminalTrustQuestion(process.stdin, process.stderr) } : {}),
        });
      case 'run':
        // `-` as the task: the task is all of stdin (then no stdin is left for agents' questions).
        if (args.task === '-')
          return await runCommand({ ...args, task: await taskFromStdin() }, { ...output, environment: process.env, process });
        return await runCommand(args, { ...output, stdin: process.stdin, environment: process.env, process });
    }
  } catch (error) {
    if (error instanceof UsageError) {
      output.stderr.write(`agent-team: ${terminalSafe(error.message)}\n\n${usageText}`);
      return exitCodes.usage;
    }
    if (error instanceof ConfigurationError) {
      output.stderr.write(`agent-team: ${terminalSafe(error.message)}\n`);
      return exitCodes.usage;
    }
    const message = error instanceof AgentTeamError || error instanceof Error ? error.message : String(error);
    output.stderr.write(`agent-team: ${terminalSafe(message)}\n`);
    return exitCodes.failed;
  }
}

/** Aborted by Ctrl-C (reason 130, "interrupted") or SIGTERM (reason 0: a service manager's normal stop). */
function stopSignal(): AbortSignal {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort(exitCodes.interrupted));
  process.once('SIGTERM', () => controller.abort(exitCodes.completed));
  return controller.signal;
}

async function taskFromStdin(): Promise<string> {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.length > 1_000_000) throw new UsageError('the task on stdin is over 1,000,000 characters; pass a shorter task');
  }
  if (text.trim() === '') throw new UsageError('the task on stdin is empty: pipe the task in, e.g. cat task.md | agent-team run -');
  return text.trim();
}

/**
 * A reader that went away (`agent-team agents | head -1`) ends the CLI quietly, as a closed pipe ends any
 * Unix tool: no EPIPE stack trace. A run in progress is stopped as Ctrl-C stops it, so its commands end
 * and its scratch copies go; anything else exits at once.
 */
function endQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    // Writes after the first failure fail too: the stop is under way.
    if (closed) return;
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    closed = true;
    if (process.listenerCount('SIGINT') > 0) process.emit('SIGINT');
    else process.exit(exitCodes.completed);
  });
}

endQuietlyOnClosedPipe(process.stdout);
endQuietlyOnClosedPipe(process.stderr);

void main().then((code) => {
  process.exitCode = code;
});
