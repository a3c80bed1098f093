import { useApp, type Theme } from '../../state/store';

/** Sets `data-theme` on <html> for a forced scheme (styles.css reads it), none for 'auto'. */
function apply(theme: Theme, root: HTMLElement): void {
  if (theme === 'auto') delete root.dataset.theme;
  else root.dataset.theme = theme;
}

/** Keep <html> on the store's colour scheme (`theme=` of the link); returns the unsubscribe. */
export function followTheme(root: HTMLElement = document.documentElement): () => void {
  apply(useApp.getState().theme, root);
  return useApp.subscribe((s, prev) => {
    if (s.theme !== prev.theme) apply(s.theme, root);
  });
}
