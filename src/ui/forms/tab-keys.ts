/**
 * Keyboard movement in a tab list (WAI-ARIA Authoring Practices, Tabs pattern): Left / Right move
 * to the previous / next tab, wrapping at the ends; Home / End go to the first / last.
 */
export function tabKeyTarget(key: string, i: number, n: number): number | null {
  switch (key) {
    case 'ArrowRight':
      return (i + 1) % n;
    case 'ArrowLeft':
      return (i + n - 1) % n;
    case 'Home':
      return 0;
    case 'End':
      return n - 1;
    default:
      return null;
  }
}
