/**
 * Korthikanti et al. 2022 (arXiv 2205.05198) Table 2: activation bytes per transformer layer with
 * 16-bit activations and 1-byte dropout masks (docs/reference/formulas.md §5.1). A test oracle
 * for `layerActivation` in src/core/training/activations.ts; the calculator itself never uses it.
 */
export function korthikantiTable2(s: number, b: number, h: number, a: number, t: number, setting: 'none' | 'tp' | 'tp-sp' | 'tp-selective' | 'tp-sp-selective' | 'full'): number {
  const sbh = s * b * h;
  switch (setting) {
    case 'none':
      return sbh * (34 + (5 * a * s) / h);
    case 'tp':
      return sbh * (10 + 24 / t + (5 * a * s) / (h * t));
    case 'tp-sp':
      return (sbh / t) * (34 + (5 * a * s) / h);
    case 'tp-selective':
      return sbh * (10 + 24 / t);
    case 'tp-sp-selective':
      return (34 * sbh) / t;
    case 'full':
      return 2 * sbh;
  }
}
