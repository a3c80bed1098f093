/** `{name}` placeholders, the one template form of every message the app words (core English, UI tables). */

export type TemplateParams = Readonly<Record<string, string | number>>;

/** How a param is written into a string; the default is String(value). */
export type ShowParam = (name: string, value: string | number) => string;

const plain: ShowParam = (_name, value) => String(value);

/** Fills each `{name}` that has a param; a name without one stays as written. Linear in the text. */
export function fillTemplate(s: string, params?: TemplateParams, show: ShowParam = plain): string {
  if (!params) return s;
  return s.replace(/\{(\w+)\}/g, (m, k: string) => {
    const v = Object.hasOwn(params, k) ? params[k] : undefined;
    return v === undefined ? m : show(k, v);
  });
}
