/**
 * UI state kept with `vscode.setState`, so the sidebar comes back as the user left it when the webview is
 * recreated (the view does not retain its context while hidden). Task data is not kept here: it comes
 * from the host's snapshot.
 */
// A namespace import lets the bundler drop zod's unused locales (the webview bundle shrinks by ~370 KB).
import * as z from 'zod';

const uiStateSchema = z.object({
  selectedTaskId: z.string().nullable().catch(null),
  collapsedIds: z.array(z.string()).catch([]),
  scrollTop: z.number().nonnegative().catch(0),
});

export type UiState = z.infer<typeof uiStateSchema>;

export const initialUiState: UiState = { selectedTaskId: null, collapsedIds: [], scrollTop: 0 };

/** Reads saved state; anything missing or malformed falls back to the initial value, field by field. */
export function readUiState(saved: unknown): UiState {
  if (typeof saved !== 'object' || saved === null) return { ...initialUiState };
  const result = uiStateSchema.safeParse(saved);
  return result.success ? result.data : { ...initialUiState };
}
