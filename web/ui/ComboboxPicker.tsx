import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Dialog } from './Dialog.tsx';

/** How far PageUp / PageDown move the pick: about a screenful of the list. */
const PAGE = 8;

export type ComboboxPickerProps<T> = {
  title: string;
  /** Names the parts for tests: `<testId>`, `-input`, `-list`, `-option`, `-status`. */
  testId: string;
  /** An extra class on the picker, beside `quick-add` (which styles it). */
  className?: string;
  placeholder: string;
  /** The field's and the list's accessible names. */
  fieldLabel: string;
  listLabel: string;
  /** Everything that matches the text, best first. */
  search: (text: string) => readonly T[];
  /** At most this many options are drawn (the status line says how many match). */
  limit?: number;
  optionKey: (option: T) => string;
  /** The option's own data attributes (e.g. `data-id`), for tests and tools. */
  optionData: (option: T) => Record<`data-${string}`, string>;
  renderOption: (option: T) => ReactNode;
  /** The line under the list, for some matches (0: nothing matches). */
  status: (text: string, matches: number) => string;
  onPick: (option: T) => void;
  onClose: () => void;
};

/**
 * A modal search-and-pick list (the ARIA combobox pattern with a listbox, focus kept on the field): typing filters
 * it, ↑ ↓ (wrapping) and PageUp / PageDown move the pick, which stays in view, Enter or a click takes it, Escape
 * closes. Quick-add (Ctrl/⌘ K) and Find node (Ctrl/⌘ F) are this one picker over different lists.
 */
export function ComboboxPicker<T>(p: ComboboxPickerProps<T>) {
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const { search } = p;
  const found = useMemo(() => search(text), [search, text]);
  const shown = p.limit === undefined ? found : found.slice(0, p.limit);
  const listId = useId();
  const list = useRef<HTMLUListElement>(null);
  const at = Math.min(active, shown.length - 1);
  const optionId = (i: number) => `${listId}-${i}`;

  useEffect(() => {
    list.current?.querySelector(`[id="${CSS.escape(optionId(at))}"]`)?.scrollIntoView({ block: 'nearest' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [at]);

  const pick = (option: T | undefined) => {
    if (option !== undefined) p.onPick(option);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const last = shown.length - 1;
    if (e.key === 'ArrowDown') setActive(at >= last ? 0 : at + 1);
    else if (e.key === 'ArrowUp') setActive(at <= 0 ? last : at - 1);
    else if (e.key === 'PageDown') setActive(Math.min(last, at + PAGE));
    else if (e.key === 'PageUp') setActive(Math.max(0, at - PAGE));
    else if (e.key === 'Enter') pick(shown[at]);
    else return;
    e.preventDefault();
  };

  return (
    <Dialog title={p.title} onClose={p.onClose} testId={p.testId}>
      <div className={p.className ? `quick-add ${p.className}` : 'quick-add'}>
        {/* data-autofocus: the Dialog focuses the field once open (showModal would focus its × button). */}
        <input className="input" value={text} data-testid={`${p.testId}-input`} placeholder={p.placeholder} data-autofocus
          role="combobox" aria-expanded="true" aria-controls={listId} aria-autocomplete="list" aria-label={p.fieldLabel}
          aria-activedescendant={shown.length > 0 ? optionId(at) : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown} />
        <ul className="quick-add-list" id={listId} role="listbox" aria-label={p.listLabel} ref={list} data-testid={`${p.testId}-list`}>
          {shown.map((option, i) => (
            <li key={p.optionKey(option)} id={optionId(i)} role="option" aria-selected={i === at} className={i === at ? 'active' : ''}
              data-testid={`${p.testId}-option`} {...p.optionData(option)}
              onMouseMove={() => i !== at && setActive(i)} onMouseDown={(e) => e.preventDefault()} onClick={() => pick(option)}>
              {p.renderOption(option)}
            </li>
          ))}
        </ul>
        <p className="hint quick-add-foot" role="status" data-testid={`${p.testId}-status`}>{p.status(text, found.length)}</p>
      </div>
    </Dialog>
  );
}
