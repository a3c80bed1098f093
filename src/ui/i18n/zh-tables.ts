/** Every Chinese table of the calculator page, one lazy chunk (zh-loader.ts fetches it). */
export { zh } from './zh';
export { CORE_ZH } from './core-zh';
export { ARCH_LABEL_ZH, FIELD_LABEL_ZH, HELP_ZH, OPTION_LABEL_ZH } from './scenario-labels-zh';
export { VALUE_ZH, valueZh } from './values-zh';
