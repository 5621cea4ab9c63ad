/**
 * `--image <path>` (repeatable): images sent with the prompt to the agent the user talks to, read as the
 * user named them (relative to the current directory: a screenshot is rarely in the workspace). Each must
 * be a regular file, a PNG, JPEG, GIF or WebP by its bytes, and no larger than the providers take; anything
 * else is a usage error before any model is asked.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigurationError, imageFromBytes, type ImagePart, maxImageBytes, maxImagesPerPrompt } from '../engine/index.js';

export async function readImageFiles(files: readonly string[], cwd: string): Promise<ImagePart[]> {
  if (files.length > maxImagesPerPrompt)
    throw new ConfigurationError(`--image was given ${files.length} times; at most ${maxImagesPerPrompt} images go with one prompt`);
  const images: ImagePart[] = [];
  for (const file of files) {
    const absolute = path.resolve(cwd, file);
    const info = await stat(absolute).catch(() => undefined);
    if (!info) throw new ConfigurationError(`--image ${file}: no such file`);
    if (!info.isFile()) throw new ConfigurationError(`--image ${file}: not a regular file`);
    // Checked before reading, so a huge file is never read into memory.
    if (info.size > maxImageBytes)
      throw new ConfigurationError(
        `--image ${file}: it is ${(info.size / 1024 / 1024).toFixed(1)} MB; images are sent up to ${maxImageBytes / 1024 / 1024} MB`,
      );
    try {
      images.push(imageFromBytes(await readFile(absolute), path.basename(file)));
    } catch (error) {
      throw new ConfigurationError(
        `--image ${file}: ${error instanceof Error ? error.message.replace(`${path.basename(file)} `, 'it ') : String(error)}`,
      );
    }
  }
  return images;
}
