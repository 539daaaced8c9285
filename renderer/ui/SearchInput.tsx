import { useEffect, useRef, useState } from 'react';
import { widgets } from '../i18n/es-screens.ts';
import { IconClose, IconSearch } from './icons.tsx';

export interface SearchInputProps {
  /** The accessible label; also the placeholder unless one is given. */
  label?: string;
  placeholder?: string;
  /** The text shown; when the parent changes it, the box follows. */
  value?: string;
  /** Called with the text, after `debounceMs` of quiet when a debounce is set. */
  onSearch: (text: string) => void;
  debounceMs?: number;
}

export function SearchInput({ label = widgets.search, placeholder, value = '', onSearch, debounceMs = 0 }: SearchInputProps) {
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // A value the parent changes (a 'Quitar filtros', the address) replaces the text, and a search still
  // waiting for its quiet period is dropped: it would bring the old text back.
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setText(value);
  }
  useEffect(() => clearTimeout(timer.current), [value]);
  // Keep the latest callback without restarting a pending debounce when the parent re-renders.
  const onSearchRef = useRef(onSearch);
  useEffect(() => {
    onSearchRef.current = onSearch;
  }, [onSearch]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const emit = (next: string) => {
    clearTimeout(timer.current);
    if (debounceMs <= 0) {
      onSearchRef.current(next);
      return;
    }
    timer.current = setTimeout(() => onSearchRef.current(next), debounceMs);
  };

  return (
    <div className="ui-search">
      <IconSearch size={16} className="ui-search__icon" />
      <input
        type="search"
        className="ui-input ui-search__input"
        aria-label={label}
        placeholder={placeholder ?? label}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          emit(event.target.value);
        }}
      />
      {text && (
        <button
          type="button"
          className="ui-icon-button ui-search__clear"
          aria-label={widgets.clearSearch}
          onClick={() => {
            setText('');
            clearTimeout(timer.current);
            onSearchRef.current('');
          }}
        >
          <IconClose size={16} />
        </button>
      )}
    </div>
  );
}
