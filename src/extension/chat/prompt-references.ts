/**
 * What the user attached to a request (`#file`, a folder, the selection, a value a tool added, an image),
 * given to the coordinator with the prompt: files and folders as workspace paths it can read, the
 * selection as its text with where it is, an image as an image for the agent the user talks to (a model
 * that does not read images is told of it instead). Nothing outside the workspace is given (the agents
 * could not read it anyway, and it may be private).
 */
import * as vscode from 'vscode';
import { attachedPathLine, imageFromBytes, type ImagePart, maxImagesPerPrompt, withAttachments } from '../../engine/index.js';

/** The most text of one selection given inline; the agent can Read the rest. */
const maxSelectionCharacters = 20_000;

/** A reference as VS Code hands it: its value is a Uri, a Location, a string or binary data. */
export interface PromptReference {
  id: string;
  value: unknown;
  modelDescription?: string;
}

/** VS Code's binary reference (a pasted image): its type and a way to read its bytes. */
interface BinaryReference {
  mimeType: string;
  data(): Thenable<Uint8Array>;
}

export async function withReferences(
  prompt: string,
  references: readonly PromptReference[],
  folder: vscode.Uri | undefined,
): Promise<{ prompt: string; images: ImagePart[] }> {
  const lines: string[] = [];
  const images: ImagePart[] = [];
  for (const reference of references) {
    const { value } = reference;
    if (isBinary(value)) lines.push(await takeImage(reference, value, images));
    else lines.push(await describeReference(reference, folder));
  }
  return { prompt: withAttachments(prompt, lines), images };
}

async function describeReference(reference: PromptReference, folder: vscode.Uri | undefined): Promise<string> {
  const { value } = reference;
  if (value instanceof vscode.Uri) return describeUri(value, folder);
  if (value instanceof vscode.Location) return describeLocation(value, folder);
  if (typeof value === 'string') return `- ${reference.modelDescription ?? reference.id}:\n${fenced(cut(value))}`;
  return '';
}

/** An image goes with the prompt (no line needed: the message says it is there); anything else is named as not sent. */
async function takeImage(reference: PromptReference, value: BinaryReference, images: ImagePart[]): Promise<string> {
  const name = reference.modelDescription ?? reference.id;
  if (!value.mimeType.startsWith('image/'))
    return `- An attachment (${value.mimeType}) the agents cannot see: they read text and images only.`;
  if (images.length >= maxImagesPerPrompt)
    return `- An image (${value.mimeType}) not sent: at most ${maxImagesPerPrompt} go with one prompt.`;
  try {
    images.push(imageFromBytes(await value.data(), name));
    return '';
  } catch (error) {
    return `- An image not sent: ${error instanceof Error ? error.message : String(error)}.`;
  }
}

function isBinary(value: unknown): value is BinaryReference {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { mimeType?: unknown }).mimeType === 'string' &&
    typeof (value as { data?: unknown }).data === 'function'
  );
}

async function describeUri(uri: vscode.Uri, folder: vscode.Uri | undefined): Promise<string> {
  const path = workspacePath(uri, folder);
  if (path === undefined) return `- A file outside the workspace (not given: the agents read only the workspace).`;
  const info = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
  return attachedPathLine(path, info?.type === vscode.FileType.Directory ? 'folder' : 'file');
}

async function describeLocation(location: vscode.Location, folder: vscode.Uri | undefined): Promise<string> {
  const path = workspacePath(location.uri, folder);
  if (path === undefined) return `- A selection outside the workspace (not given).`;
  const document = await vscode.workspace.openTextDocument(location.uri);
  const text = document.getText(location.range);
  const where = `lines ${location.range.start.line + 1}-${location.range.end.line + 1}`;
  return `- The selection in \`${path}\`, ${where}:\n${fenced(cut(text), document.languageId)}`;
}

/** `uri` relative to the workspace folder, or undefined when it lies outside it. */
function workspacePath(uri: vscode.Uri, folder: vscode.Uri | undefined): string | undefined {
  if (!folder || uri.scheme !== folder.scheme) return undefined;
  const root = folder.path.endsWith('/') ? folder.path : `${folder.path}/`;
  if (uri.path !== folder.path && !uri.path.startsWith(root)) return undefined;
  return uri.path.slice(root.length) || '.';
}

function cut(text: string): string {
  return text.length <= maxSelectionCharacters
    ? text
    : `${text.slice(0, maxSelectionCharacters)}\n[cut: ${text.length} characters in all; Read the file for the rest]`;
}

function fenced(text: string, language = ''): string {
  // A fence longer than any run of backticks inside, so the text cannot close it early.
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language === 'plaintext' ? '' : language}\n${text}\n${fence}`;
}
