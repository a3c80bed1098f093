/**
 * Save / load / delete for one saved-data store (src/state/storage): a name field and a Save
 * button (Enter saves), the saved names as buttons, and every problem with the store shown
 * right here (unreadable entries, a newer page's data, storage blocked or full).
 */
import { useCallback, useId, useState, type ReactNode } from 'react';
import { MAX_NAME, type Loaded, type WriteFailure } from '../../state/storage/versioned-store';
import { useT, type T } from '../i18n';

export interface SavedListLabels {
  title: string;
  name: string;
  save: string;
}

interface Props<V> {
  loaded: Loaded<V>;
  labels: SavedListLabels;
  /** where an unreadable blob is copied before the next save (versioned-store backupKeys) */
  backupKey: string;
  canSave: boolean;
  onSave: (name: string) => WriteFailure | null;
  onDelete: (name: string) => WriteFailure | null;
  onLoad: (name: string, value: V) => void;
  /** re-read the store after a write */
  refresh: () => void;
  /** short text after a saved name (e.g. its capacity) */
  detail?: (value: V) => string;
  /** one line under the title: what a save keeps */
  help?: string;
  /** extra inputs saved with the name */
  children?: ReactNode;
  /** the save form starts closed behind a button with this label (the saved names stay listed) */
  openLabel?: string;
}

/** A store's Loaded state, re-read on demand. */
export function useLoaded<V>(read: () => Loaded<V>): [Loaded<V>, () => void] {
  const [loaded, setLoaded] = useState(read);
  const refresh = useCallback(() => setLoaded(read()), [read]);
  return [loaded, refresh];
}

/** Unreadable names for a notice: at most five, each cut to 40 characters, then a count. */
export function namesText(names: readonly string[]): string {
  const shown = names.slice(0, 5).map((n) => (n.length > 40 ? `${n.slice(0, 40)}…` : n));
  return names.length > 5 ? `${shown.join(', ')} (+${names.length - 5})` : shown.join(', ');
}

/** What to tell the user about the store as read and the last write, in page order. */
export function storeNotices(t: T, loaded: Loaded<unknown>, backupKey: string, failure: WriteFailure | null): string[] {
  const out: string[] = [];
  if (loaded.state === 'unavailable') out.push(t('saved.unavailable'));
  if (loaded.state === 'unreadable') out.push(t('saved.unreadable', { key: backupKey }));
  if (loaded.state === 'newer' || failure === 'newer') out.push(t('saved.newer'));
  if (loaded.bad.length > 0) out.push(t('saved.bad', { names: namesText(loaded.bad) }));
  if (failure === 'full') out.push(t('saved.full'));
  if (failure === 'blocked' && loaded.state !== 'unavailable') out.push(t('saved.failed'));
  if (failure === 'invalid') out.push(t('saved.invalid'));
  return out;
}

export function SavedList<V>(p: Props<V>) {
  const t = useT();
  const id = useId();
  const [name, setName] = useState('');
  const [failure, setFailure] = useState<WriteFailure | null>(null);
  const [open, setOpen] = useState(p.openLabel === undefined);
  const readOnly = p.loaded.state === 'newer' || p.loaded.state === 'unavailable';
  const act = (f: WriteFailure | null) => {
    setFailure(f);
    p.refresh();
  };
  const notices = storeNotices(t, p.loaded, p.backupKey, failure);
  return (
    <fieldset className="saved-list">
      <legend>{p.labels.title}</legend>
      {!open && (
        <button type="button" className="linkish" aria-expanded={false} aria-controls={`${id}-form`} onClick={() => setOpen(true)}>
          {p.openLabel}
        </button>
      )}
      {open && p.help && <p className="field-help">{p.help}</p>}
      {open && (
        <form
          id={`${id}-form`}
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim() && p.canSave && !readOnly) act(p.onSave(name.trim()));
          }}
        >
          <div className="field">
            <label htmlFor={id}>{p.labels.name}</label>
            <input id={id} type="text" value={name} maxLength={MAX_NAME} onChange={(e) => setName(e.target.value)} />
          </div>
          {p.children}
          <button type="submit" disabled={!name.trim() || !p.canSave || readOnly}>
            {p.labels.save}
          </button>
        </form>
      )}
      {notices.length > 0 && (
        <div role="alert">
          {notices.map((n) => (
            <p key={n} className="field-msg">
              {n}
            </p>
          ))}
        </div>
      )}
      {p.loaded.items.length > 0 && (
        <ul className="gpu-chips" aria-label={p.labels.title}>
          {p.loaded.items.map((it) => (
            <li key={it.name}>
              <button type="button" className="linkish" onClick={() => p.onLoad(it.name, it.value)}>
                {it.name}
              </button>
              {p.detail && <span className="muted small">{p.detail(it.value)}</span>}
              {!readOnly && (
                <button type="button" aria-label={t('saved.delete', { name: it.name })} onClick={() => act(p.onDelete(it.name))}>
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
