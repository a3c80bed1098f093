/** The Scenario schema: one table of keys, its parser and its serializer (see schema.ts). */
export { SCENARIO_FIELDS, DEFAULT_SCENARIO, defaultScenario, LORA_TARGETS, MAX_TOKENS } from './schema';
export type { FieldSpec, FieldKind } from './schema';
export { ARCH_FIELDS, REQUIRED_CUSTOM } from './arch-fields';
export type { ArchFieldSpec, ArchKind } from './arch-fields';
export { parseScenario, ALL_KEYS, MAX_PARAMS } from './parse';
export type { ParsedScenario, ParseOptions } from './parse';
export { serializeScenario, formatCount } from './serialize';
export { effectiveArch } from './rules';
export { closest } from './suggest';
