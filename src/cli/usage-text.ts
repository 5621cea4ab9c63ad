/**
 * `agent-team --help`: the contract of docs/architecture.md, with the defaults of the limits table and the
 * options capabilities declare (capability-options.ts).
 */
import { limitRanges } from '../engine/index.js';
import { capabilityOptionsHelp, capabilityOptionsSynopsis } from './capability-options.js';

export const usageText = `Usage:
  agent-team run [options] <task...>      (the task '-': read it from stdin)
  agent-team run [options] /<name> [args] run a prompt file of a trusted folder (.github/prompts/<name>.prompt.md
                        or .claude/commands/<name>.md, or your ~/.claude/commands/<name>.md) with
                        $ARGUMENTS, $1..$9 and \${input:x} (x=value); its tools narrow the agent's
    --workspace <dir>   workspace root (default: current directory)
    --provider <name>   anthropic | openai
    --model <id>        model id
    --fallback-model <id>  a model to go on with when the model is down (5xx, overloaded, rate
                        limited, unreachable, after retries; never on an error to fix, such as a bad
                        key); repeatable, tried in order; same provider
    --base-url <url>    API base URL (OpenAI-compatible servers, proxies)
    --agent <role>      run one role directly instead of the coordinator
    --workflow <name>   run a workflow of .agent-team/workflows with the task as its input
    --plan              plan the task (parallel or sequential sub-tasks, planned again up to --max-depth)
    --continue <taskId> continue a finished run (from .agent-team/runs) with the task as the next message
    --resume <runId>    go on with a run that was interrupted (the process was killed, the terminal
                        closed): each unfinished task from its last completed step; no task words
    --force             with --resume or --continue: go on with a foreign run (its run log does not
                        verify as written by your agent-team in this folder: planted, edited, old)
    --json              JSON Lines events on stdout
    --apply             apply proposed changes at the end, if the run completed
                        (default: show them, change nothing)
    --max-concurrent <n>            tasks doing work at once (default ${limitRanges.maxConcurrentTasks.default})
    --max-depth <n>                 how deep delegation may nest (default ${limitRanges.maxDepth.default}; 0: no delegation)
    --auto-background-seconds <s>   a foreground subagent moves to the background after this (default ${limitRanges.autoBackgroundSeconds.default})
    --max-subtasks <n>              sub-tasks per plan at most, with --plan (default ${limitRanges.maxSubtasks.default})
    --budget-tokens <n>             tokens the whole run may spend (input + output); spent: it stops
    --budget-usd <dollars>          US dollars the whole run may spend, at the models' prices; spent: it
                                    stops. A model with no price (agent-team models) refuses to start:
                                    give its price with --model-prices
    --model-prices <file>           prices over the built-in list: JSON of "provider/model": { "input",
                                    "output", "cachedInput" } in US dollars per million tokens
    --context-window <tokens>       the models' context window (default: the built-in list's, or what the
                                    provider says); past 80 % of it a conversation is compacted
    --delegation-reach <reach>      own-tools (default: an agent starts only roles whose tools it has
                                    itself; the coordinator starts any) | any
    --yes                           let one turn start more than ${limitRanges.confirmFanOutAbove.default} subagents (else refused: it would
                                    need your confirmation)
    --file <path>                   a file or folder of the workspace the task is about (repeatable): the
                                    agents are told of it
    --image <path>                  an image sent with the task to the agent you talk to (repeatable, at
                                    most 8; PNG, JPEG, GIF or WebP up to 5 MB); a model that does not
                                    read images is told of it instead
    --keep-runs <n>                 the run history (.agent-team/runs) keeps the newest n runs; it also
                                    drops runs older than 30 days
    --trace <file>                  write the run's trace when it ends (tree, prompts, tool calls, models,
                                    tokens, diffs): Markdown for a .md file, else JSON
${capabilityOptionsHelp().join('\n')}
    --trust                         let this folder's own hooks and role files' MCP servers and remote
                                    agents run, this once (not remembered; see agent-team trust)
    --checks                        when the run ends, run the workspace's own checks (agent-team checks)
                                    on its pending proposals in the sandbox, and on the workspace as it is;
                                    say what newly fails or got fixed (JSON event "checks"); the coordinator
                                    hears the verdict after it delegates. Each check's command must be
                                    allowed (--allow-command) and the folder trusted. --no-checks: don't
    --fix-until-green <n>           with the checks, let the coordinator send work back to the subagent
                                    whose proposal newly fails, at most n rounds (implies --checks)
  agent-team checks [--workspace <dir>] [--json]
                                             the workspace's own checks (package.json scripts, Makefile,
                                             pytest, cargo, go, plain workflow steps, or
                                             .agent-team/checks.yaml) and where each was found
  agent-team runs [--workspace <dir>] [--json]
                                             the run history (.agent-team/runs), newest first, with each
                                             run's pending proposals (files and +/- per task)
  agent-team apply <runId> [--workspace <dir>] [--file <path>...] [--branch <name>] [--show]
                   [--take <taskId> | --conflict-markers] [--hunk <file>:<n>[,<n>...]]...
                   [--reject-hunk <file>:<n>[,<n>...]]... [--force] [--json]
                                             a finished run's proposals, with --apply's checks (completed
                                             run, completed tasks, conflicts): written to the working tree,
                                             or with --branch committed on a new branch made from HEAD in
                                             a temporary git worktree (your checkout is not touched); then,
                                             if gh is signed in, pushed to origin and opened as a pull
                                             request with the run's trace; else the commands are printed;
                                             a foreign run only with --force, and proposals in which
                                             run --checks found new failures only with --force (the
                                             verdict opens the pull request's body). A file several tasks changed
                                             is merged, each task's change onto the earlier ones (exact:
                                             a line both changed is a conflict); a conflicted file is not
                                             written until you pick: --take <taskId> (that task's side of
                                             each conflict) or --conflict-markers (both sides, to edit).
                                             --show prints the changes as they would be applied, rebased,
                                             with each hunk's number (@@ ... @@ hunk 2), and writes nothing.
                                             --hunk <file>:<n>[,<n>...] (repeatable; a range 2-4 too)
                                             writes only those hunks; the rest of the file stays proposed,
                                             renumbered on top of what was written (--show again), for a
                                             later apply. --reject-hunk <file>:<n>... rejects hunks: later
                                             applies leave them out. A file changed on disk since, a bad
                                             number or a file several tasks changed is refused, named,
                                             and nothing is written; undo takes hunks back like files
  agent-team undo <runId> [--workspace <dir>] [--file <path>...] [--force] [--json]
                                             put back what the run's accepts wrote (--apply, apply, VS
                                             Code): each file's content before, byte for byte; files they
                                             created are deleted, files deleted come back. A file changed
                                             on disk since is refused, named, and nothing is written,
                                             unless --force. Run it again to undo the undo
  agent-team trust [--workspace <dir>]       show exactly what the folder's own configuration runs (its
                                             .claude/settings*.json hooks, its role files' MCP servers
                                             and remote agents) and trust it: asks y/N on a terminal;
                                             without one, typing the command is the yes. Remembered per
                                             folder until what it runs changes (in
                                             $XDG_CONFIG_HOME/agent-team/trusted-folders.json, default
                                             ~/.config/agent-team/…). Untrusted, run asks on a terminal;
                                             elsewhere (and for mcp, serve) it does not run without --trust.
                                             Without an OS sandbox no hook or program server runs at all
                                             unless --no-sandbox.
  agent-team models [--model-prices <file>]  the default models and the prices cost is counted at (the
                                             built-in list with its date, your --model-prices over it)
  agent-team agents [--workspace <dir>]      list roles and where each is defined
  agent-team workflows [--workspace <dir>]   list workflows and their problems (exit 2 if any)
  agent-team mcp-servers [--workspace <dir>] [--json]
                                             list the MCP servers of .mcp.json, .vscode/mcp.json and
                                             ~/.config/agent-team/mcp.json, the roles that name them
                                             (tools: [mcp__<server>__*]) and why any would not start
  agent-team mcp [--workspace <dir>] [--provider <name>] [--model <id>] [--base-url <url>] [--trust]
${capabilityOptionsSynopsis(17).join('\n')}
                                             the team as an MCP server over stdio (tools delegate,
                                             task_output, task_stop; edits returned as diffs); each
                                             option as for run; agents' questions and plans
                                             (--approve-plan) go to the client as elicitations
  agent-team serve --a2a --port <n> (--auth-token-env <NAME> | --no-auth) [--host <address>]
                   [--workspace <dir>] [--provider <name>] [--model <id>] [--base-url <url>] [--trust]
${capabilityOptionsSynopsis(19).join('\n')}
                                             the team as an A2A agent on 127.0.0.1 (port 0: any free
                                             port; the address is printed on stderr; Ctrl-C stops it);
                                             --auth-token-env: clients must send the token that variable
                                             holds (several, comma-separated: one per client; each sees
                                             only its own tasks); --no-auth: no token, any program on
                                             this machine may use the team (loopback only); other
                                             options as for run; --approve-plan: a run's plan waits for
                                             its client (the task is input-required; the next message on
                                             it answers)

Keys come from ANTHROPIC_API_KEY / OPENAI_API_KEY.
Exit codes: 0 completed, 1 failed (or stopped by its budget), 2 usage or configuration error,
130 interrupted (a second Ctrl-C exits at once).
`;
