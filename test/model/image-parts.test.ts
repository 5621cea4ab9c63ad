/**
 * Images: the type read from the bytes (never the name), the size limit, which Chat Completions models
 * read images, and the note a model that reads none gets in each image's place.
 */
import { describe, expect, it } from 'vitest';
import { imageFromBytes, maxImageBytes, userMessageWithImages, withoutImages } from '../../src/engine/model/image-parts.js';
import { acceptsImages } from '../../src/engine/model/openai-model.js';

const bytes = (...values: number[]) => new Uint8Array([...values, ...new Array(16).fill(0)]);

describe('imageFromBytes', () => {
  it('reads PNG, JPEG, GIF and WebP from their signatures, whatever the name says', () => {
    expect(imageFromBytes(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a), 'a.jpg').mediaType).toBe('image/png');
    expect(imageFromBytes(bytes(0xff, 0xd8, 0xff, 0xe0), 'photo').mediaType).toBe('image/jpeg');
    expect(imageFromBytes(bytes(0x47, 0x49, 0x46, 0x38, 0x39, 0x61), 'anim.gif').mediaType).toBe('image/gif');
    expect(imageFromBytes(bytes(0x52, 0x49, 0x46, 0x46, 1, 0, 0, 0, 0x57, 0x45, 0x42, 0x50), 'w.webp').mediaType).toBe('image/webp');
  });

  it('refuses anything else, and an image over the limit', () => {
    expect(() => imageFromBytes(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'logo.svg')).toThrow(
      'logo.svg is not a PNG, JPEG, GIF or WebP image',
    );
    expect(() => imageFromBytes(new Uint8Array(maxImageBytes + 1), 'big.png')).toThrow('big.png is 5.0 MB; images are sent up to 5 MB');
  });
});

describe('models and images', () => {
  it("knows OpenAI's vision models and the open ones compatible servers host; an unknown name is told in words", () => {
    for (const name of [
      'gpt-4o',
      'gpt-4o-mini',
      'gpt-4.1',
      'gpt-5',
      'o1',
      'o3',
      'o4-mini',
      'llava:13b',
      'qwen2.5-vl-7b',
      'meta-llama/llama-3.2-11b-vision',
      'pixtral-12b',
      'gemma3:27b',
    ])
      expect(acceptsImages(name), name).toBe(true);
    for (const name of ['gpt-3.5-turbo', 'o1-mini', 'o3-mini', 'deepseek-coder', 'my-local-coder'])
      expect(acceptsImages(name), name).toBe(false);
  });

  it('replaces each image with a note naming it and the model, and counts them', () => {
    const image = imageFromBytes(bytes(0xff, 0xd8, 0xff), 'shot.jpg');
    const message = userMessageWithImages('What is wrong here?', [image, image]);
    expect(message.content[0]).toEqual({
      type: 'text',
      text: 'What is wrong here?\n\nThe user attached 2 images with this message: shot.jpg (image/jpeg, 1 KB), shot.jpg (image/jpeg, 1 KB). Subagents do not see them; put what matters from them into their prompts in words.',
    });
    const { messages, replaced } = withoutImages([message], 'openai/my-local-coder');
    expect(replaced).toBe(2);
    expect(messages[0]!.content.every((part) => part.type === 'text')).toBe(true);
    expect(JSON.stringify(messages)).toContain('but the model in use (openai/my-local-coder) does not accept images');
    expect(() =>
      userMessageWithImages(
        'x',
        Array.from({ length: 9 }, () => image),
      ),
    ).toThrow('9 images were attached; at most 8 go with one prompt');
  });
});
