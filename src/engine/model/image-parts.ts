/**
 * Images the user attached, for models that do not see them: each becomes a note the model can act on
 * (ask the user what it shows), so a run never fails, or silently loses the image, because of the model.
 */
import type { ImageMediaType, ImagePart, ModelMessage } from './types.js';

/** "screenshot.png (image/png, 120 KB)". */
export function describeImage(part: ImagePart): string {
  const kilobytes = Math.max(1, Math.round((part.data.length * 3) / 4 / 1024));
  return `${part.name ?? 'an image'} (${part.mediaType}, ${kilobytes} KB)`;
}

/** The conversation with every image replaced by a note naming it and the model; the count replaced. */
export function withoutImages(messages: readonly ModelMessage[], model: string): { messages: ModelMessage[]; replaced: number } {
  let replaced = 0;
  const result = messages.map((message): ModelMessage => {
    if (message.role !== 'user' || !message.content.some((part) => part.type === 'image')) return message;
    return {
      role: 'user',
      content: message.content.map((part) => {
        if (part.type !== 'image') return part;
        replaced += 1;
        return {
          type: 'text',
          text: `[The user attached the image ${describeImage(part)}, but the model in use (${model}) does not accept images, so it was not sent. If it matters, ask the user what it shows.]`,
        };
      }),
    };
  });
  return { messages: result, replaced };
}

/** The largest image sent (Anthropic's limit per image; OpenAI's is larger). */
export const maxImageBytes = 5 * 1024 * 1024;
/** Images with one prompt at most. */
export const maxImagesPerPrompt = 8;
/** All of one prompt's images together: base64 makes them a third larger, and Anthropic takes requests up to 32 MB. */
export const maxImagesTotalBytes = 20 * 1024 * 1024;

/** An image part from a file's bytes, its type read from the bytes themselves; throws saying why for anything else. */
export function imageFromBytes(bytes: Uint8Array, name: string): ImagePart {
  if (bytes.length > maxImageBytes)
    throw new Error(`${name} is ${(bytes.length / 1024 / 1024).toFixed(1)} MB; images are sent up to ${maxImageBytes / 1024 / 1024} MB`);
  const mediaType = sniffImageType(bytes);
  if (!mediaType) throw new Error(`${name} is not a PNG, JPEG, GIF or WebP image`);
  return { type: 'image', mediaType, data: Buffer.from(bytes).toString('base64'), name };
}

function sniffImageType(bytes: Uint8Array): ImageMediaType | undefined {
  const starts = (...signature: number[]) => signature.every((byte, index) => bytes[index] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50)
    return 'image/webp';
  return undefined;
}

/**
 * The user's message with the images they attached: the text says how many there are and that subagents
 * do not see them (only the agent the user talks to gets them), so it passes on what matters in words.
 */
export function userMessageWithImages(text: string, images: readonly ImagePart[]): ModelMessage {
  if (images.length > maxImagesPerPrompt)
    throw new Error(`${images.length} images were attached; at most ${maxImagesPerPrompt} go with one prompt`);
  const total = images.reduce((sum, image) => sum + (image.data.length * 3) / 4, 0);
  if (total > maxImagesTotalBytes)
    throw new Error(
      `the attached images come to ${(total / 1024 / 1024).toFixed(1)} MB; at most ${maxImagesTotalBytes / 1024 / 1024} MB go with one prompt`,
    );
  if (images.length === 0) return { role: 'user', content: [{ type: 'text', text }] };
  const names = images.map(describeImage).join(', ');
  const note = `The user attached ${images.length === 1 ? 'an image' : `${images.length} images`} with this message: ${names}. Subagents do not see ${images.length === 1 ? 'it' : 'them'}; put what matters from ${images.length === 1 ? 'it' : 'them'} into their prompts in words.`;
  return { role: 'user', content: [{ type: 'text', text: `${text}\n\n${note}` }, ...images] };
}
