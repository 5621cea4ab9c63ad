/**
 * The parts of `mvdan-sh` (mvdan/sh's bash parser compiled to JavaScript) that bash-syntax.ts uses; the
 * package ships no types. Nodes are the Go structs' fields, as mvdan/sh's `syntax` package documents them.
 */
declare module 'mvdan-sh' {
  export interface ShellNode {
    [field: string]: unknown;
  }
  export interface ShellParser {
    Parse(text: string, name: string): ShellNode;
  }
  export interface ShellSyntax {
    NewParser(...options: unknown[]): ShellParser;
    KeepComments(keep: boolean): unknown;
    Variant(variant: unknown): unknown;
    LangBash: unknown;
    LangPOSIX: unknown;
    NodeType(node: ShellNode): string;
  }
  export const syntax: ShellSyntax;
}
