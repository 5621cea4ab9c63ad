import type * as z from 'zod';

/** A zod issue in the words of a workflow file's author. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
    case 'invalid_type':
      // `reportInput` gives the value, so a field of the wrong type is told apart from a missing one.
      if (issue.input === undefined) return 'is missing';
      return issue.message.startsWith('Invalid input') ? `must be ${article(issue.expected)}` : issue.message;
    case 'invalid_key':
      return `has a key that ${issue.issues[0]?.message ?? 'is not a name'}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((value) => String(value)).join(', ')}`;
    default:
      return issue.message;
  }
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}
