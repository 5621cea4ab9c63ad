/** The tools every role may have without a capability: reading files and proposing edits (`file-tools/`). */
import { defineCapability } from './capability-descriptor.js';

export const fileToolsDescriptor = defineCapability({
  name: 'files',
  tools: [
    { name: 'Read', purpose: 'read files' },
    { name: 'Glob', purpose: 'find files by name' },
    { name: 'Grep', purpose: 'search file contents' },
    { name: 'Edit', purpose: 'propose edits to files' },
    { name: 'Write', purpose: 'propose new or rewritten files' },
  ],
  settings: {},
});
