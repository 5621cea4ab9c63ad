/**
 * Command lines as bash parses them, with mvdan/sh's parser (the one `shfmt` uses) compiled to
 * JavaScript (`mvdan-sh`). A hand-written splitter misread bash's quoting ($'…' ANSI-C strings, `#`
 * comments, line continuations), so a `;` it believed quoted was not; a real grammar has no such gaps, and
 * what it cannot parse is refused, not guessed at. Chosen over `sh-syntax` (the same parser as WASM,
 * whose JSON tree drops the commands' words) and tree-sitter's bash grammar (it recovers from errors and
 * follows bash less exactly). 1.5 MB: loaded on first use, from a vendor bundle of its own.
 */
import type { ShellNode, ShellSyntax } from 'mvdan-sh';
import { AgentTeamError } from '../errors.js';

export type { ShellNode };

/** The syntax package and the operator numbers of this build, learned by parsing a sample of each. */
/** The shell that will run the line: bash, or a POSIX `sh` where there is no bash (it reads `&>` otherwise). */
export type ShellVariant = 'bash' | 'sh';

export interface BashSyntax {
  /** The statements of `line`; throws a `BashSyntaxError` when that shell would not parse it. */
  parse(line: string, variant?: ShellVariant): ShellNode;
  nodeType(node: ShellNode): string;
  /** An operator's text (`&&`, `|`, `>`, `2>&1`'s `>&`…) from its number in this build. */
  operator(number: unknown): string | undefined;
}

export class BashSyntaxError extends AgentTeamError {
  override readonly name: string = 'BashSyntaxError';
  readonly code = 'bash-syntax';
}

let loading: Promise<BashSyntax> | undefined;

export function loadBashSyntax(): Promise<BashSyntax> {
  loading ??= import('mvdan-sh').then((loaded) => {
    // Imported from the CommonJS vendor bundle, the exports may sit under `default`.
    const module = loaded as { syntax?: ShellSyntax; default?: { syntax: ShellSyntax } };
    return bashSyntax(module.syntax ?? module.default!.syntax);
  });
  return loading;
}

function bashSyntax(syntax: ShellSyntax): BashSyntax {
  const newParser = (variant: ShellVariant) =>
    syntax.NewParser(syntax.KeepComments(true), syntax.Variant(variant === 'bash' ? syntax.LangBash : syntax.LangPOSIX));
  const parse = (line: string, variant: ShellVariant = 'bash'): ShellNode => {
    try {
      return newParser(variant).Parse(line, '');
    } catch (error) {
      throw new BashSyntaxError(parseErrorText(error));
    }
  };
  const operators = new Map<unknown, string>();
  const statement = (line: string) => (parse(line).Stmts as ShellNode[])[0];
  for (const operator of ['&&', '||', '|', '|&'])
    operators.set(statement(`a ${operator} b`).Cmd && (statement(`a ${operator} b`).Cmd as ShellNode).Op, operator);
  for (const operator of ['>', '>>', '<', '>&', '<&', '&>', '&>>', '<<<', '<>', '>|'])
    operators.set((statement(`a ${operator}b`).Redirs as ShellNode[])[0].Op, operator);
  for (const operator of ['<<', '<<-']) operators.set((statement(`a ${operator}E\nE\n`).Redirs as ShellNode[])[0].Op, operator);
  return { parse, nodeType: (node) => syntax.NodeType(node), operator: (number) => operators.get(number) };
}

/** GopherJS errors are Go values: their text comes from `Error()`. */
function parseErrorText(error: unknown): string {
  const value = error as { Error?: () => string; message?: string } | undefined;
  if (typeof value?.Error === 'function') return value.Error();
  return value?.message ?? String(error);
}
