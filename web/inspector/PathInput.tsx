import { usePathCompletions } from './usePathCompletions.ts';

export const PATH_LIST_ID = 'hw-field-paths';

/** The shared <datalist> of known field paths; path inputs point at it with `list`. */
export function PathDatalist() {
  const paths = usePathCompletions();
  return (
    <datalist id={PATH_LIST_ID} data-testid="path-completions">
      {paths.map((p) => <option key={p} value={p} />)}
    </datalist>
  );
}

/** A dotted path input with completion from stored traces and the canonical payload shapes. */
export function PathInput({ value, onChange, testId, placeholder, ariaLabel }: { value: string; onChange: (v: string) => void; testId?: string; placeholder?: string; ariaLabel?: string }) {
  return (
    <input className="input mono" list={PATH_LIST_ID} value={value} placeholder={placeholder ?? 'payload.tool_name'} data-testid={testId}
      aria-label={ariaLabel ?? 'Path'} spellCheck={false} onChange={(e) => onChange(e.target.value)} />
  );
}
