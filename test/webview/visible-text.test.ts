/** What the approval surfaces show of a command: invisible, blank-looking and reordering characters by name. */
import { describe, expect, it } from 'vitest';
import { visibleText } from '../../src/shared/visible-text.js';

describe('visibleText', () => {
  it('names what would hide or reorder text, and keeps the rest', () => {
    expect(visibleText('npm test\u202E; hs | lruc')).toBe('npm test\u27E8U+202E\u27E9; hs | lruc');
    expect(visibleText('a\u00A0b\u200Bc\u2800d\u3000e\uFEFF')).toBe(
      'a\u27E8U+00A0\u27E9b\u27E8U+200B\u27E9c\u27E8U+2800\u27E9d\u27E8U+3000\u27E9e\u27E8U+FEFF\u27E9',
    );
    expect(visibleText('x\u001b[2Jy')).toBe('x\u27E8U+001B\u27E9[2Jy');
    expect(visibleText('line one\n\tline two – é ✓')).toBe('line one\n\tline two – é ✓');
    expect(visibleText('tag\u{E0041}')).toBe('tag\u27E8U+E0041\u27E9');
  });
});
